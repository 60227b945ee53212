// Deterministic demo data: appends `companies` companies (ids after the current maximum) with all
// their related rows, the people on their boards, and rebuilds the name lexicon. Batches are
// generated in memory and loaded with COPY, so memory stays flat from 1,000 to millions.

import { sql } from 'kysely';
import { type Db, execScript } from '../client.ts';
import { makeCompany, makePerson } from './company-factory.ts';
import {
  appendCompany,
  appendMember,
  batchRowCount,
  COPY_TABLE_NAMES,
  type CsvBatch,
  copyBatchPglite,
  copyBatchPostgres,
  emptyBatch,
} from './copy-rows.ts';
import { createPersonPool, type PersonPool, personPoolSize } from './member-pool.ts';
import { loadSeedCatalog, type SeedCatalog } from './seed-catalog.ts';

export type SeedOptions = {
  /** How many companies to add. */
  companies: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
  /** Companies per batch (default 5,000). */
  batchSize?: number;
};

export type SeedResult = { companies: number; members: number; rows: number };

/** Below this many new companies the indexes stay in place during the load. */
const REBUILD_INDEXES_FROM = 200_000;

/** Rows for companies first..last and the persons they introduce into the member pool. */
export function generateBatch(
  catalog: SeedCatalog,
  pool: PersonPool,
  seed: number,
  first: number,
  last: number,
): CsvBatch {
  const batch = emptyBatch();
  for (let id = first; id <= last; id++) appendCompany(batch, makeCompany(catalog, pool, seed, id));
  for (let person = personPoolSize(first - 1) + 1; person <= personPoolSize(last); person++) {
    appendMember(batch, makePerson(catalog, pool, seed, person));
  }
  return batch;
}

export async function seedCompanies(db: Db, options: SeedOptions): Promise<SeedResult> {
  const total = Math.max(0, Math.floor(options.companies));
  const batchSize = options.batchSize ?? 5000;
  const catalog = await loadSeedCatalog(db);
  const pool = createPersonPool(catalog.personCountries);
  const maxRow = await db.kysely
    .selectFrom('legal_entities')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  const start = Number(maxRow?.max ?? 0) + 1;
  const result: SeedResult = { companies: 0, members: 0, rows: 0 };
  if (total === 0) return result;

  const batches = function* (): Generator<[number, number]> {
    for (let first = start; first < start + total; first += batchSize)
      yield [first, Math.min(first + batchSize - 1, start + total - 1)];
  };
  const count = (batch: CsvBatch): void => {
    result.companies += batch.rows.legal_entities;
    result.members += batch.rows.members;
    result.rows += batchRowCount(batch);
    options.onProgress?.(result.companies, total);
  };

  if (db.pglite) {
    const pglite = db.pglite;
    for (const [first, last] of batches()) {
      const batch = generateBatch(catalog, pool, options.seed, first, last);
      await pglite.transaction((tx) => copyBatchPglite(tx, batch));
      count(batch);
    }
  } else if (db.pool) {
    const client = await db.pool.connect();
    try {
      const deferIndexes = total >= REBUILD_INDEXES_FROM;
      const fastLoad = await trySet(client, 'set session_replication_role = replica');
      const dropped = deferIndexes ? await dropSecondaryIndexes(client) : [];
      try {
        // Generate batch k+1 while PostgreSQL ingests batch k.
        let pending: Promise<void> = Promise.resolve();
        for (const [first, last] of batches()) {
          const batch = generateBatch(catalog, pool, options.seed, first, last);
          await pending;
          pending = (async () => {
            await client.query('begin');
            await copyBatchPostgres(client, batch);
            await client.query('commit');
            count(batch);
          })();
          // a failure is rethrown by the next `await pending`; mark it handled meanwhile
          pending.catch(() => {});
          // let the COPY start streaming before generating the next batch
          await new Promise((resolve) => setImmediate(resolve));
        }
        await pending;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        if (fastLoad) await client.query('set session_replication_role = origin');
        if (dropped.length > 0) await recreateIndexes(db, dropped);
      }
    } finally {
      client.release();
    }
  } else throw new Error('database has neither a PGlite instance nor a pool');

  await rebuildNameWords(db);
  // Sets hint bits and the visibility map of the fresh rows: index-only scans (counts, the lexicon)
  // otherwise fetch every heap row, measured 20–50× slower. VACUUM cannot run in a transaction.
  await execScript(db, 'vacuum (analyze)');
  return result;
}

async function trySet(client: { query: (s: string) => Promise<unknown> }, statement: string): Promise<boolean> {
  try {
    await client.query(statement);
    return true;
  } catch {
    return false;
  }
}

type IndexDefinition = { name: string; definition: string };

/** Drops the non-constraint indexes of the loaded tables (kept: primary keys and unique constraints). */
async function dropSecondaryIndexes(client: {
  query: (s: string, p?: unknown[]) => Promise<{ rows: unknown[] }>;
}): Promise<IndexDefinition[]> {
  const found = await client.query(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       join pg_class c on c.oid = i.indexrelid
       join pg_class t on t.oid = i.indrelid
      where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [COPY_TABLE_NAMES],
  );
  const indexes = found.rows as IndexDefinition[];
  for (const index of indexes) await client.query(`drop index if exists "${index.name}"`);
  return indexes;
}

/** Recreates dropped indexes, two at a time on separate connections (GIN builds are single-threaded). */
async function recreateIndexes(db: Db, indexes: IndexDefinition[]): Promise<void> {
  const pool = db.pool;
  if (!pool) return;
  const queue = [...indexes].sort(
    (a, b) => Number(b.definition.includes('gin')) - Number(a.definition.includes('gin')),
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
}

/**
 * Rebuilds the lexicon of name words and its one-letter deletions (for typo-tolerant search,
 * core/companies/name-query.ts), then refreshes their planner statistics.
 */
export async function rebuildNameWords(db: Db): Promise<void> {
  await sql`truncate name_words cascade`.execute(db.kysely);
  await sql`insert into name_words (word, documents) select word, ndoc from ts_stat('select name_tsv from legal_entities')`.execute(
    db.kysely,
  );
  // Each word filed under what deleting one of its letters leaves ("bank" under "ank", "bnk", "bak",
  // "ban"); words of one or two letters stay out, their deletions would match nearly anything.
  await sql`
    insert into name_word_deletes (variant, word)
    select distinct overlay(w.word placing '' from i for 1), w.word
    from name_words w, generate_series(1, length(w.word)) i
    where length(w.word) >= 3`.execute(db.kysely);
  await sql`analyze name_words, name_word_deletes`.execute(db.kysely);
}
