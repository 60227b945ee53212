import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors/app-error.ts';
import { readExportFile } from '../../core/export/export-files.ts';
import {
  EXPORT_KEEP_DAYS,
  type ExportJob,
  exportProgress,
  getExportJob,
  listExportJobs,
  startExportJob,
} from '../../core/export/export-jobs.ts';
import {
  COMPANY_EXPORT_SECTIONS,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
} from '../../core/export/export-options.ts';
import { EXPORT_PARAMS } from '../../core/export/export-request.ts';
import { byteRange } from '../../core/http/byte-ranges.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import type { AppServices } from '../../core/services.ts';
import { requireUser } from './auth.ts';
import { EXPORT_MEDIA_TYPES, refuseCrossSite, translatedPaymentRefusal } from './export.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute } from './route.ts';

// Exports as background jobs (docs/decisions/0031-export-jobs.md): POST /api/exports starts one
// (charged then, 202 with its Location), GET /api/exports/{id} follows it, GET
// /api/exports/{id}/file downloads its file — resumable with Range (206, 416, If-Range on the
// ETag) — for 7 days; GET /api/exports lists them. Another user's export is a 404.

const TAGS = ['Export'];
const SECTION_IDS = SECTIONS.map((s) => s.id) as [string, ...string[]];

const ExportJobSchema = z
  .object({
    id: z.number().int(),
    section: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    rows_written: z.number().int(),
    rows_total: z.number().int().describe('Rows the export expects to write (and was charged for).'),
    progress: z.number().int().describe('Percent of the rows written, 0–100.'),
    credits: z.number().int().describe('Credits charged when it started (given back if it failed).'),
    file_name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int().nullable().describe('The file’s length once done.'),
    download_url: z.string().nullable().describe('Once done: the file (Range requests welcome).'),
    url: z.string().describe('This export’s state.'),
    error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    expires_at: z
      .string()
      .describe(`When the export and its file are deleted (${EXPORT_KEEP_DAYS} days after it started).`),
  })
  .meta({ id: 'ExportJob' });

export function exportJobItem(job: ExportJob) {
  return {
    id: job.id,
    section: job.section,
    status: job.status,
    rows_written: job.rowsWritten,
    rows_total: job.rowsTotal,
    progress: exportProgress(job),
    credits: job.credits,
    file_name: job.fileName,
    content_type: job.contentType,
    size_bytes: job.sizeBytes,
    download_url: job.status === 'done' ? `/api/exports/${job.id}/file` : null,
    url: `/api/exports/${job.id}`,
    error: job.error,
    created_at: job.createdAt,
    finished_at: job.finishedAt,
    expires_at: job.expiresAt,
  };
}

const StartBody = z.strictObject({
  section: z.enum(SECTION_IDS).describe('The search section.'),
  search: z
    .string()
    .max(8000)
    .optional()
    .describe(
      'The search as its page’s query string (filters, q, sort; page and after for scope=page), e.g. `q=acme&jurisdiction=276`: the same parameters as GET /export/{section}, without the export’s own.',
    ),
  format: z.enum(EXPORT_FORMATS).optional().describe('csv (default), xlsx, json or xml.'),
  separator: z.enum(EXPORT_SEPARATORS).optional().describe('CSV separator: comma (default), semicolon or tab.'),
  scope: z.enum(EXPORT_SCOPES).optional().describe('page, selected (the rows in ids), first (count rows) or all.'),
  count: z.number().int().min(1).max(EXPORT_ROW_LIMIT).optional().describe('N of scope=first.'),
  ids: z
    .array(z.number().int().positive())
    .max(EXPORT_ROW_LIMIT)
    .optional()
    .describe('scope=selected: company ids (record ids in a record section).'),
  sections: z.array(z.enum(COMPANY_EXPORT_SECTIONS)).max(COMPANY_EXPORT_SECTIONS.length).optional(),
  lang: z.enum(['en', 'de', 'fr']).optional().describe('Language of headers and names (default en).'),
  list: z.number().int().positive().optional().describe('Companies: the number of one of your company lists.'),
});

/** The body as the download's parameters (checked again by core/export/export-request.ts). */
function paramsOf(body: z.output<typeof StartBody>): URLSearchParams {
  const params = new URLSearchParams(body.search ?? '');
  const own = [...params.keys()].find((name) => (EXPORT_PARAMS as readonly string[]).includes(name));
  if (own) {
    throw new AppError('bad_request', `search: give ${own} as its own field, not in search`, { parameter: 'search' });
  }
  if (body.format) params.set('format', body.format);
  if (body.separator) params.set('separator', body.separator);
  if (body.scope) params.set('scope', body.scope);
  if (body.count !== undefined) params.set('count', String(body.count));
  if (body.ids) params.set('ids', body.ids.join(','));
  if (body.sections) params.set('sections', body.sections.join('|'));
  if (body.lang) params.set('lang', body.lang);
  if (body.list !== undefined) params.set('list', String(body.list));
  return params;
}

const idParams = z.strictObject({ id: intParam('id') });

function idOf(request: FastifyRequest): number {
  const parsed = idParams.safeParse(request.params);
  if (!parsed.success) throw new AppError('not_found', 'No export of yours has this number.');
  return parsed.data.id;
}

export function registerExportJobRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db, reference } = services;

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/exports',
      operationId: 'startExport',
      summary: 'Start an export in the background',
      description:
        'Checks the export as GET /export/{section} does (a bad parameter is a 400 naming it), counts its rows and charges them — 1 credit per 100 rows, at least 1 — when it starts: too few credits is a 402 and nothing starts. Answers 202 with the export’s state and its `Location`; follow it until `status` is `done`, then download `download_url`. A failed export gives its credits back. Exports are kept 7 days.',
      tags: TAGS,
      auth: true,
      body: StartBody,
      response: ExportJobSchema,
      status: 202,
      errors: [401, 402, 403, 404],
      scope: 'read',
    },
    async ({ body }, { request, reply }) => {
      refuseCrossSite(request);
      const auth = await requireUser(request, 'read');
      const params = paramsOf(body);
      try {
        const { job } = await startExportJob(db, reference, auth.user.id, body.section, params);
        reply.header('location', `/api/exports/${job.id}`);
        return exportJobItem(job);
      } catch (error) {
        throw translatedPaymentRefusal(error, body.lang);
      }
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/exports',
      operationId: 'listExports',
      summary: 'Your exports of the last 7 days',
      description: 'Newest first, with their state; a done one’s file can be downloaded again until `expires_at`.',
      tags: TAGS,
      auth: true,
      scope: 'read',
      query: z.strictObject({}),
      response: z.object({ count: z.number().int(), data: z.array(ExportJobSchema) }),
      errors: [401],
    },
    async (_query, { request }) => {
      const auth = await requireUser(request, 'read');
      const data = (await listExportJobs(db, auth.user.id)).map(exportJobItem);
      return { count: data.length, data };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/exports/:id',
      operationId: 'getExport',
      summary: 'An export’s state',
      description:
        'queued, running (with `rows_written` of `rows_total`), done (with `download_url`) or failed (with `error`; its credits given back). Another user’s export is a 404.',
      tags: TAGS,
      auth: true,
      scope: 'read',
      params: idParams,
      query: z.strictObject({}),
      response: ExportJobSchema,
      errors: [401, 404],
    },
    async (_query, { request, path }) => {
      const auth = await requireUser(request, 'read');
      return exportJobItem(await getExportJob(db, auth.user.id, path.id));
    },
  );

  routes.push({
    url: '/exports/:id/file',
    operationId: 'downloadExport',
    summary: 'Download a finished export’s file',
    description:
      'The whole file (200), or with `Range: bytes=…` one range of it (206 with `Content-Range`), so that a broken download resumes; a range past the end or malformed is a 416. `ETag` names the file; `If-Range` with another ETag sends it whole. An export not done yet is a 409; another user’s is a 404.',
    tags: TAGS,
    auth: true,
    scope: 'read',
    params: idParams,
    query: z.strictObject({}),
    response: z.string(),
    produces: EXPORT_MEDIA_TYPES,
    ranges: true,
    errors: [401, 404, 409, 416],
  });
  // Not compressed: a range is of the file's own bytes.
  api.get('/exports/:id/file', { compress: false }, async (request, reply) => {
    const auth = await requireUser(request, 'read');
    const job = await getExportJob(db, auth.user.id, idOf(request));
    if (job.status !== 'done' || job.sizeBytes === null || job.etag === null) {
      throw new AppError('conflict', 'This export is not done yet: follow its state until it is.', {
        status: job.status,
      });
    }
    const size = job.sizeBytes;
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const range = byteRange(header('range'), size, job.etag, header('if-range'));
    reply
      .header('content-type', job.contentType)
      .header('content-disposition', `attachment; filename="${job.fileName}"`)
      .header('accept-ranges', 'bytes')
      .header('etag', job.etag)
      .header('cache-control', 'private, no-store');
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${size}`)
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', null)
        .send({
          error: {
            code: 'bad_request',
            message: `Range: the file has ${size} bytes; ask for one range within them, e.g. bytes=0-${Math.max(0, size - 1)}.`,
            details: { parameter: 'Range', size },
          },
        });
    }
    const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, size - 1];
    if (range.kind === 'part') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', String(Math.max(0, end - start + 1)));
    return reply.send(Readable.from(readExportFile(db, job.id, start, end)));
  });
}
