import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { LEGAL_ENTITY_SECTIONS, type LegalEntitySection } from '../api/legal-entity-schemas.ts';
import { presentRecord } from '../api/present-record.ts';
import { readLegalEntities } from '../api/read-legal-entities.ts';
import { type Cell, csvWriter, type ExportColumn } from '../export/writers.ts';
import { NOTHING_UNLOCKED, visibleRecordRows } from '../purchases/paywall.ts';
import type { Reference } from '../reference/reference-data.ts';
import type { RecordRow } from '../search/find-records.ts';
import type { SectionDecl } from '../sections/section.ts';
import { SECTIONS } from '../sections/sections.ts';
import { visibleCompany, visibleRow } from '../takedowns/visible.ts';
import {
  type BulkFile,
  type BulkManifest,
  listBulkSnapshots,
  pruneBulkSnapshots,
  snapshotFolders,
  snapshotName,
} from './bulk-files.ts';

// Builds a bulk snapshot (ADR 0036): every visible company and record, each row exactly as the data
// API answers it for a guest (its presenters: readLegalEntities and presentRecord), read by keyset
// pages of the primary key and written as it is read — memory holds one page whatever the size.
// The change files are the difference between the previous snapshot's JSON Lines and this one's,
// merged in key order (both are sorted by key), so that the previous snapshot plus its change
// files is this snapshot, row for row, by construction.

/** Rows read and written at a time. */
const PAGE = 1_000;

/**
 * The data API's company sections in the files: all but the contacts, which the data API shows only
 * to a buyer of the company (the paywall); a guest of the API — whom the bulk files are for — does not see them.
 */
export const BULK_COMPANY_SECTIONS: ReadonlySet<LegalEntitySection> = new Set(
  LEGAL_ENTITY_SECTIONS.filter((s) => s !== 'le_contacts'),
);

/** A section of the bulk data: its file name stem, how its rows are read and keyed. */
export type BulkSection = {
  name: string;
  /** A row's key, ascending in the files: [company id] or [company id, record id]. */
  keyOf(row: Record<string, unknown>): number[];
  /** CSV columns, in order (the row's top-level fields; nested values as JSON). */
  columns: string[];
  /** Pages of presented rows, in key order. */
  pages(db: Db, reference: Reference): AsyncGenerator<Record<string, unknown>[]>;
};

const COMPANY_CORE_COLUMNS = [
  'id',
  'uri',
  'name',
  'href',
  'jurisdiction',
  'registry_location_name',
  'kind',
  'statuses',
  'status_name',
  'is_active',
  'types_by_size',
  'employees_number',
  'primary_industry',
  'registered_on',
];

const companiesSection: BulkSection = {
  name: 'companies',
  keyOf: (row) => [(row.legal_entities as { id: number }).id],
  columns: [
    ...COMPANY_CORE_COLUMNS,
    ...[...BULK_COMPANY_SECTIONS]
      .filter((s) => s !== 'le_legal_entities' && s !== 'le_statuses')
      .map((s) => s.slice(3)),
  ],
  async *pages(db, reference) {
    let after = 0;
    for (;;) {
      const ids = await db.kysely
        .selectFrom('legal_entities')
        .select('id')
        .where('id', '>', after)
        .where(visibleCompany())
        .orderBy('id')
        .limit(PAGE)
        .execute();
      if (ids.length === 0) return;
      after = Number(ids[ids.length - 1].id);
      yield await readLegalEntities(
        db,
        reference,
        ids.map((r) => Number(r.id)),
        {
          sections: BULK_COMPANY_SECTIONS,
          lang: 'en',
          languageId: reference.languageIds.en || LANGUAGE_EN,
          // The files hold what a guest of the data API reads (ADR 0029).
          unlocked: NOTHING_UNLOCKED,
        },
      );
    }
  },
};

function recordSection(section: SectionDecl): BulkSection {
  const record = section.record;
  if (!record) throw new Error(`${section.id} is not a record section`);
  const table = sql.table(section.baseTable);
  return {
    name: record.api ?? record.table,
    keyOf: (row) => [row.legal_entity_id as number, row.id as number],
    columns: ['id', 'legal_entity_id', 'legal_entity', ...record.fields.map((f) => f.key)],
    async *pages(db, reference) {
      let after = [0, 0];
      for (;;) {
        // c.id >= …: without it the planner's merge join walks the companies from the first on every
        // page (1.26 s a page at 1M companies, against 8.5 ms with it).
        const result = await sql<RecordRow>`select b.*, c.uri as company_uri, c.name as company_name
          from ${table} b join legal_entities c on c.id = b.legal_entity_id
          where (b.legal_entity_id, b.id) > (${after[0]}, ${after[1]}) and c.id >= ${after[0]}
            and ${visibleRow(section)}
          order by b.legal_entity_id, b.id limit ${PAGE}`.execute(db.kysely);
        if (result.rows.length === 0) return;
        const last = result.rows[result.rows.length - 1];
        after = [Number(last.legal_entity_id), Number(last.id)];
        // A guest's rows: the fields a purchase unlocks are empty, as the data API answers a guest (ADR 0029).
        yield visibleRecordRows(NOTHING_UNLOCKED, section.baseTable, result.rows).map((row) =>
          presentRecord(section, row, reference, 'en'),
        );
      }
    },
  };
}

/** Every section of the bulk data: the companies, then each related-record section. */
export const BULK_SECTIONS: BulkSection[] = [companiesSection, ...SECTIONS.filter((s) => s.record).map(recordSection)];

/** A row as the CSV file's cells: the company core's fields at the top level; text, numbers and yes/no as they are, anything else as JSON. */
export function csvCells(section: BulkSection, row: Record<string, unknown>): Cell[] {
  const flat = 'legal_entities' in row ? { ...(row.legal_entities as object), ...row } : row;
  return section.columns.map((column) => {
    const value = (flat as Record<string, unknown>)[column];
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    return JSON.stringify(value);
  });
}

export type BuildOptions = {
  dir: string;
  now?: Date;
  /** Snapshots kept (default BULK_SNAPSHOTS_KEPT). */
  keep?: number;
  /** Stops the build at its next page (a worker shutting down): nothing of it is left behind. */
  signal?: AbortSignal;
};

/** Builds a snapshot and its change files since the previous one, then removes snapshots beyond those kept. */
export async function buildBulkSnapshot(db: Db, reference: Reference, options: BuildOptions): Promise<BulkManifest> {
  const now = options.now ?? new Date();
  await mkdir(options.dir, { recursive: true });
  const [previous] = await snapshotFolders(options.dir);
  // Names sort by time: a build in the same millisecond as the one before (tests) takes the next.
  let at = now;
  while (previous !== undefined && snapshotName(at) <= previous) at = new Date(at.getTime() + 1);
  const name = snapshotName(at);
  const building = join(options.dir, `.building-${name}`);
  await rm(building, { recursive: true, force: true });
  await mkdir(building);
  try {
    const files: BulkFile[] = [];
    for (const section of BULK_SECTIONS) {
      files.push(...(await writeSection(db, reference, section, building, options.signal)));
      if (previous !== undefined) {
        files.push(await writeChanges(section, join(options.dir, previous), building, options.signal));
      }
    }
    const manifest: BulkManifest = {
      snapshot: name,
      created_at: now.toISOString(),
      previous: previous ?? null,
      lang: 'en',
      files,
    };
    await writeFile(join(building, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(building, join(options.dir, name));
    await pruneBulkSnapshots(options.dir, options.keep);
    return manifest;
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
}

/** The newest snapshot's manifest, or null. */
export async function latestBulkSnapshot(dir: string): Promise<BulkManifest | null> {
  return (await listBulkSnapshots(dir))[0] ?? null;
}

/** A gzipped file being written: its stream, and its bytes and SHA-256 once `close`d. */
function gzippedFile(path: string) {
  const gzip = createGzip();
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const written = pipeline(gzip, tap, createWriteStream(path));
  written.catch(() => {});
  return {
    out: gzip as Writable,
    async close(): Promise<{ bytes: number; sha256: string }> {
      if (!gzip.writableEnded) gzip.end();
      await written;
      return { bytes, sha256: hash.digest('hex') };
    },
    /** A build given up: the streams and the file handle closed (the folder is removed by the caller). */
    async discard(): Promise<void> {
      gzip.destroy();
      await written.catch(() => {});
    },
  };
}

async function put(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function writeSection(
  db: Db,
  reference: Reference,
  section: BulkSection,
  dir: string,
  signal?: AbortSignal,
): Promise<BulkFile[]> {
  const jsonlName = `${section.name}.jsonl.gz`;
  const csvName = `${section.name}.csv.gz`;
  const jsonl = gzippedFile(join(dir, jsonlName));
  const csv = gzippedFile(join(dir, csvName));
  const columns: ExportColumn[] = section.columns.map((c) => ({ key: c, label: c, type: 'text' }));
  const csvRows = csvWriter(csv.out, columns, 'comma');
  let rows = 0;
  try {
    for await (const page of section.pages(db, reference)) {
      signal?.throwIfAborted();
      let chunk = '';
      for (const row of page) chunk += `${JSON.stringify(row)}\n`;
      await put(jsonl.out, chunk);
      await csvRows.writeRows(page.map((row) => csvCells(section, row)));
      rows += page.length;
    }
    await csvRows.finish();
  } catch (error) {
    await Promise.all([jsonl.discard(), csv.discard()]);
    throw error;
  }
  const base = { section: section.name, kind: 'snapshot' as const, rows };
  return [
    { name: jsonlName, ...base, format: 'jsonl', ...(await jsonl.close()) },
    { name: csvName, ...base, format: 'csv', ...(await csv.close()) },
  ];
}

/** The lines of a gzipped JSON Lines file, one at a time. */
function gzippedLines(path: string): AsyncIterator<string> {
  const source: Readable = createReadStream(path).pipe(createGunzip());
  return createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * The change file of a section: the previous snapshot's rows and this one's, merged in key order —
 * a row only in the new one or changed is an upsert (with the row), one only in the old a delete.
 */
async function writeChanges(
  section: BulkSection,
  previousDir: string,
  dir: string,
  signal?: AbortSignal,
): Promise<BulkFile> {
  const name = `${section.name}.changes.jsonl.gz`;
  const file = gzippedFile(join(dir, name));
  const before = gzippedLines(join(previousDir, `${section.name}.jsonl.gz`));
  const after = gzippedLines(join(dir, `${section.name}.jsonl.gz`));
  try {
    return await mergeChanges(section, name, file, before, after, signal);
  } catch (error) {
    await Promise.all([file.discard(), before.return?.(), after.return?.()]);
    throw error;
  }
}

async function mergeChanges(
  section: BulkSection,
  name: string,
  file: ReturnType<typeof gzippedFile>,
  before: AsyncIterator<string>,
  after: AsyncIterator<string>,
  signal?: AbortSignal,
): Promise<BulkFile> {
  const keyed = (line: string) => ({ line, key: section.keyOf(JSON.parse(line)) });
  let read = 0;
  const next = async (lines: AsyncIterator<string>) => {
    // A shutdown is heard every few thousand lines, even when nothing changed.
    if (++read % 4096 === 0) signal?.throwIfAborted();
    const r = await lines.next();
    return r.done || r.value === '' ? null : keyed(r.value);
  };
  const head = (key: number[]) =>
    section.name === 'companies' ? `"id":${key[0]}` : `"id":${key[1]},"legal_entity_id":${key[0]}`;
  let upserts = 0;
  let deletes = 0;
  let chunk = '';
  const emit = async (text: string) => {
    chunk += text;
    if (chunk.length > 65_536) {
      await put(file.out, chunk);
      chunk = '';
    }
  };
  let old = await next(before);
  let now = await next(after);
  while (old !== null || now !== null) {
    const order = old === null ? 1 : now === null ? -1 : compareKeys(old.key, now.key);
    if (order < 0 && old !== null) {
      await emit(`{"op":"delete",${head(old.key)}}\n`);
      deletes++;
      old = await next(before);
    } else if (order > 0 && now !== null) {
      await emit(`{"op":"upsert",${head(now.key)},"row":${now.line}}\n`);
      upserts++;
      now = await next(after);
    } else if (old !== null && now !== null) {
      if (old.line !== now.line) {
        await emit(`{"op":"upsert",${head(now.key)},"row":${now.line}}\n`);
        upserts++;
      }
      old = await next(before);
      now = await next(after);
    }
  }
  if (chunk) await put(file.out, chunk);
  return {
    name,
    section: section.name,
    kind: 'changes',
    format: 'jsonl',
    rows: upserts + deletes,
    upserts,
    deletes,
    ...(await file.close()),
  };
}
