// Deterministic demo data: appends `companies` companies (ids after the current maximum) with all
// their related rows and records (record-factory.ts), the people on their boards, and rebuilds the
// name lexicon. Batches are generated in worker threads while the database loads the previous
// one with COPY, so memory stays flat from 1,000 to millions. A large load into a small database
// drops the indexes first and builds them again at the end, two at a time on PostgreSQL. Then what
// depends on the new companies is refreshed as after any company write (afterCompanyWrite).

import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { type Db, execScript } from '../client.ts';
import { batchRowCount, COPY_TABLE_NAMES, type CsvBatch, copyBatchPglite, copyBatchPostgres } from './copy-rows.ts';
import { generateBatch } from './generate-batch.ts';
import { batchesInWorker } from './generate-in-worker.ts';
import { loadCatalogSource } from './seed-catalog.ts';

export type SeedOptions = {
  /** How many companies to add. */
  companies: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
  /** Companies per batch (default 5,000). */
  batchSize?: number;
};

export type SeedResult = {
  companies: number;
  members: number;
  /** All rows written, and per table. */
  rows: number;
  rowsByTable: Record<string, number>;
  /** Wall-clock seconds of each phase. */
  seconds: {
    /** Generating the rows (in worker threads) and loading them with COPY, overlapped. */
    load: number;
    /** Recreating the indexes and keys dropped for a large load (0 when they stayed). */
    indexes: number;
    /** Building the new companies' export documents. */
    documents: number;
    /** Rebuilding the name lexicon. */
    lexicon: number;
    /** VACUUM (ANALYZE) of the tables. */
    vacuum: number;
    total: number;
  };
};

/**
 * A load of at least this many companies that at least doubles the data drops the indexes and
 * builds them again afterwards (cheaper than maintaining them row by row).
 */
const REBUILD_INDEXES_FROM = 10_000;

/** One batch, generated in place (tests, benchmarks). */
export { generateBatch };

export async function seedCompanies(db: Db, options: SeedOptions): Promise<SeedResult> {
  const total = Math.max(0, Math.floor(options.companies));
  const batchSize = options.batchSize ?? 5000;
  const maxRow = await db.kysely
    .selectFrom('legal_entities')
    .select((eb) => [eb.fn.max('id').as('max'), eb.fn.countAll<number>().as('count')])
    .executeTakeFirstOrThrow();
  const start = Number(maxRow.max ?? 0) + 1;
  const seconds = { load: 0, indexes: 0, documents: 0, lexicon: 0, vacuum: 0, total: 0 };
  const result: SeedResult = { companies: 0, members: 0, rows: 0, rowsByTable: {}, seconds };
  if (total === 0) return result;
  const began = performance.now();
  const since = (t: number): number => (performance.now() - t) / 1000;
  for (const table of COPY_TABLE_NAMES) result.rowsByTable[table] = 0;

  const ranges: [number, number][] = [];
  for (let first = start; first < start + total; first += batchSize)
    ranges.push([first, Math.min(first + batchSize - 1, start + total - 1)]);
  const count = (batch: CsvBatch): void => {
    result.companies += batch.rows.legal_entities;
    result.members += batch.rows.members;
    result.rows += batchRowCount(batch);
    for (const table of COPY_TABLE_NAMES) result.rowsByTable[table] += batch.rows[table];
    options.onProgress?.(result.companies, total);
  };
  const batches = batchesInWorker(await loadCatalogSource(db), options.seed, ranges);
  const deferIndexes = total >= REBUILD_INDEXES_FROM && total >= Number(maxRow.count);

  if (db.pglite) {
    const pglite = db.pglite;
    const fastLoad = await trySet(pglite, 'set session_replication_role = replica');
    const dropped = deferIndexes ? await dropSecondaryIndexes(pglite) : [];
    try {
      for await (const batch of batches) {
        await pglite.transaction((tx) => copyBatchPglite(tx, batch));
        count(batch);
      }
    } finally {
      seconds.load = since(began);
      if (fastLoad) await pglite.query('set session_replication_role = origin');
      const indexesFrom = performance.now();
      for (const index of dropped) await pglite.query(index.definition);
      for (const index of dropped) if (index.constraint !== null) await pglite.query(index.constraint);
      seconds.indexes = since(indexesFrom);
    }
  } else if (db.pool) {
    const client = await db.pool.connect();
    try {
      const fastLoad = await trySet(client, 'set session_replication_role = replica');
      const dropped = deferIndexes ? await dropSecondaryIndexes(client) : [];
      try {
        // The worker generates the next batches while PostgreSQL ingests this one.
        for await (const batch of batches) {
          await client.query('begin');
          await copyBatchPostgres(client, batch);
          await client.query('commit');
          count(batch);
        }
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        seconds.load = since(began);
        if (fastLoad) await client.query('set session_replication_role = origin');
        const indexesFrom = performance.now();
        if (dropped.length > 0) await recreateIndexes(db, dropped);
        seconds.indexes = since(indexesFrom);
      }
    } finally {
      client.release();
    }
  } else throw new Error('database has neither a PGlite instance nor a pool');

  const vacuumFrom = performance.now();
  await vacuumAnalyze(db);
  seconds.vacuum = since(vacuumFrom);
  // What depends on the new companies, as after any company write (core/companies/company-writes.ts):
  // the name lexicon rebuilt, and every export document after a load into an empty database (by
  // ranges of ids) or those of the new companies after a top-up (nothing else changed: the seed
  // only appends). After VACUUM (ANALYZE): without statistics and hint bits the documents' query
  // plans and reads of a fresh 1M load were ~10× slower (measured: 16,000 documents in 6 minutes).
  const added = Array.from({ length: result.companies }, (_, i) => start + i);
  const refreshed = await afterCompanyWrite(db, {
    companies: Number(maxRow.count) === 0 ? 'all' : added,
    names: 'all',
  });
  seconds.lexicon = refreshed.seconds.lexicon;
  seconds.documents = refreshed.seconds.documents;
  // The tables that refresh wrote get their visibility map too (the lexicon's index-only scans).
  const refreshedVacuumFrom = performance.now();
  for (const table of ['export_documents', 'name_words', 'name_word_deletes']) {
    if (db.pool) await db.pool.query(`vacuum (analyze) ${table}`);
    else await execScript(db, `vacuum (analyze) ${table}`);
  }
  seconds.vacuum += since(refreshedVacuumFrom);
  seconds.total = since(began);
  return result;
}

/**
 * Sets hint bits and the visibility map of the fresh rows: index-only scans (counts, the lexicon)
 * otherwise fetch every heap row, measured 20–50× slower. VACUUM cannot run in a transaction. On
 * PostgreSQL two sessions share the tables (largest first), as the index rebuild does.
 */
async function vacuumAnalyze(db: Db): Promise<void> {
  const pool = db.pool;
  if (!pool) {
    await execScript(db, 'vacuum (analyze)');
    return;
  }
  const tables = await pool.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      order by pg_total_relation_size(c.oid) desc`,
  );
  const queue = tables.rows.map((r) => r.name);
  const worker = async (): Promise<void> => {
    for (let table = queue.shift(); table !== undefined; table = queue.shift())
      await pool.query(`vacuum (analyze) "${table}"`);
  };
  await Promise.all([worker(), worker()]);
}

async function trySet(client: { query: (s: string) => Promise<unknown> }, statement: string): Promise<boolean> {
  try {
    await client.query(statement);
    return true;
  } catch {
    return false;
  }
}

/** A dropped index: the statement that builds it again, and for a key the one that makes it the constraint again. */
type IndexDefinition = { name: string; table: string; definition: string; gin: boolean; constraint: string | null };

type Queryable = { query: (s: string, p?: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * Drops the indexes of the loaded tables for a bulk load (PostgreSQL's "Populating a Database"):
 * the secondary indexes, and the primary keys and unique constraints of the tables no foreign key
 * refers to (the keys of legal_entities, members and financial_statements stay). The generator
 * makes unique keys by construction; a duplicate would fail the load when its key is built again.
 */
async function dropSecondaryIndexes(client: Queryable): Promise<IndexDefinition[]> {
  const found = await client.query(
    `select c.relname as name, t.relname as "table", pg_get_indexdef(i.indexrelid) as definition,
            am.amname = 'gin' as gin,
            case when k.oid is null then null
                 else format('alter table %I add constraint %I %s using index %I', t.relname, k.conname,
                             case k.contype when 'p' then 'primary key' else 'unique' end, c.relname) end as constraint
       from pg_index i
       join pg_class c on c.oid = i.indexrelid
       join pg_class t on t.oid = i.indrelid
       join pg_am am on am.oid = c.relam
       left join pg_constraint k on k.conindid = i.indexrelid and k.conrelid = t.oid
      where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
        and (k.oid is null
             or (k.contype in ('p', 'u')
                 and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = t.oid)))`,
    [COPY_TABLE_NAMES],
  );
  const indexes = found.rows as IndexDefinition[];
  for (const index of indexes) {
    if (index.constraint === null) await client.query(`drop index if exists "${index.name}"`);
    else await client.query(`alter table "${index.table}" drop constraint "${index.name}"`);
  }
  return indexes;
}

/**
 * Recreates dropped indexes, two at a time on separate connections (GIN builds are single-threaded),
 * then turns the rebuilt key indexes back into their constraints.
 */
async function recreateIndexes(db: Db, indexes: IndexDefinition[]): Promise<void> {
  const pool = db.pool;
  if (!pool) return;
  // GIN indexes take longest: first; then the largest tables, so that the two sessions end together
  const sizes = await pool.query<{ name: string; bytes: string }>(
    `select relname as name, pg_relation_size(oid) as bytes from pg_class where relname = any($1) and relkind = 'r'`,
    [[...new Set(indexes.map((i) => i.table))]],
  );
  const bytes = new Map(sizes.rows.map((r) => [r.name, Number(r.bytes)]));
  const queue = [...indexes].sort(
    (a, b) => Number(b.gin) - Number(a.gin) || (bytes.get(b.table) ?? 0) - (bytes.get(a.table) ?? 0),
  );
  const worker = async (): Promise<void> => {
    const client = await pool.connect();
    try {
      await client.query("set maintenance_work_mem = '512MB'");
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) await client.query(index.definition);
    } finally {
      client.release();
    }
  };
  await Promise.all([worker(), worker()]);
  for (const index of indexes) if (index.constraint !== null) await pool.query(index.constraint);
}
