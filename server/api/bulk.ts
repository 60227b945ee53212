import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planOfUser } from '../../core/api-keys/api-limits.ts';
import { bulkDataDirOf } from '../../core/bulk/bulk-data-dir.ts';
import {
  BULK_FILE_NAME,
  BulkManifestSchema,
  listBulkSnapshots,
  readManifest,
  SNAPSHOT_NAME,
} from '../../core/bulk/bulk-files.ts';
import { AppError } from '../../core/errors/app-error.ts';
import type { AppServices } from '../../core/services.ts';
import { requireScope } from './auth.ts';
import { type ApiRoutes, getRoute } from './route.ts';

// The bulk data (ADR 0036): anyone may list the snapshots and their files; a file is downloaded
// with an API key of a paid plan (a running subscription), with byte ranges for resuming.

const TAGS = ['Bulk data'];

const FileParams = z.strictObject({
  snapshot: z.string().regex(SNAPSHOT_NAME, { error: 'snapshot: a snapshot name such as 2026-12-03T02-00-00-000Z' }),
  file: z
    .string()
    .regex(BULK_FILE_NAME, { error: 'file: a file name of the snapshot’s manifest, such as companies.jsonl.gz' }),
});

export function registerBulkRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const dir = bulkDataDirOf(services);

  getRoute(
    api,
    routes,
    {
      url: '/bulk',
      operationId: 'listBulkData',
      summary: 'The bulk data snapshots and their files',
      description:
        'Every snapshot kept (the newest first; 7 are kept), each with its files: per section a gzipped JSON Lines and a ' +
        'gzipped CSV file of every row as the data API answers a guest (English names), and the change file since the ' +
        'previous snapshot (`op` upsert with the `row`, or delete), with row counts, sizes and SHA-256. Anyone may list them; ' +
        'downloading needs an API key of a paid plan.',
      tags: TAGS,
      query: z.strictObject({}),
      response: z.object({ data: z.array(BulkManifestSchema), meta: z.object({ count: z.number().int() }) }),
    },
    async () => {
      const data = await listBulkSnapshots(dir);
      return { data, meta: { count: data.length } };
    },
  );

  routes.push({
    url: '/bulk/:snapshot/:file',
    operationId: 'downloadBulkFile',
    summary: 'Download a bulk data file',
    description:
      'A gzipped file of a snapshot, as listed by `GET /api/bulk`. Needs an API key (`Authorization: Bearer <key>`) of a ' +
      'user with a running subscription: without a key 401, with a key of a free plan 403. A `Range: bytes=…` header ' +
      'answers 206 with that part (one range; 416 beyond the end) so that a download can resume; the ETag is the SHA-256.',
    tags: TAGS,
    params: FileParams,
    query: z.strictObject({}),
    response: z.string(),
    produces: ['application/gzip'],
    errors: [401, 403, 404, 416],
    scope: 'read',
  });
  api.get('/bulk/:snapshot/:file', async (request, reply) => {
    requireScope(request, 'read');
    const key = request.apiKey;
    if (!key) {
      throw new AppError(
        'unauthorized',
        'Bulk data files are downloaded with an API key of a paid plan: send Authorization: Bearer <key> (create one at /settings/api/).',
        { reason: 'api_key_required' },
      );
    }
    if ((await planOfUser(services.db, key.auth.user.id)) !== 'paid') {
      throw new AppError(
        'forbidden',
        'Bulk data files need a paid plan: this API key’s account has no running subscription (see /info/pricing/).',
        { reason: 'paid_plan_required' },
      );
    }
    const parsed = FileParams.safeParse(request.params);
    if (!parsed.success) {
      throw new AppError('bad_request', parsed.error.issues[0]?.message ?? 'bad path', {
        parameter: String(parsed.error.issues[0]?.path[0] ?? 'file'),
      });
    }
    const { snapshot, file } = parsed.data;
    const manifest = await readManifest(dir, snapshot);
    if (!manifest) throw new AppError('not_found', `There is no snapshot ${snapshot}.`, { parameter: 'snapshot' });
    const entry = manifest.files.find((f) => f.name === file);
    if (!entry) throw new AppError('not_found', `Snapshot ${snapshot} has no file ${file}.`, { parameter: 'file' });
    const path = join(dir, snapshot, file);
    const size = (await stat(path)).size;
    reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="${snapshot}-${file}"`)
      .header('accept-ranges', 'bytes')
      .header('etag', `"${entry.sha256}"`)
      .header('cache-control', 'private, no-store');
    const range = byteRange(request.headers.range, size);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    if (range === null) {
      return reply.header('content-length', String(size)).send(createReadStream(path));
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(createReadStream(path, { start: range.start, end: range.end }));
  });
}

/**
 * The one byte range a `Range` header asks for (RFC 9110 §14): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n`; null for none, several ranges or another unit (the whole file is answered);
 * 'unsatisfiable' when it starts past the end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
