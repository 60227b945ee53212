// The bench's query classes (bench/run.ts's direct calls: the app's own SQL, no HTTP) as a list that
// other benches run against a database of their choice: bench/fdw-shards.ts (one node against hash
// partitions on three nodes) and bench/capacity.ts (how each class's cost grows with the data).
// Inputs are drawn from one database (`inputsFrom`) and then run unchanged against any database
// holding the same data.

import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import { readLegalEntities } from '../core/api/read-legal-entities.ts';
import { findCompanies, findCompanyIds } from '../core/companies/find-companies.ts';
import { getCompany } from '../core/companies/get-company.ts';
import { getCompanyRecords } from '../core/companies/get-company-records.ts';
import { EVERYTHING_UNLOCKED } from '../core/purchases/paywall.ts';
import type { Reference } from '../core/reference/reference-data.ts';
import { encodeCursor } from '../core/search/cursor.ts';
import { facetCounts } from '../core/search/facets.ts';
import { findRecords } from '../core/search/find-records.ts';
import { parseSearchState, type SearchState } from '../core/search/search-state.ts';
import { suggest } from '../core/search/suggest.ts';
import { companiesSection } from '../core/sections/companies.ts';
import type { SectionDecl } from '../core/sections/section.ts';
import { SECTIONS } from '../core/sections/sections.ts';
import type { Db } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { languageIdOf } from '../server/api/route.ts';

/** Rows before the deep keyset page (page 1,000 of 20 rows in bench/run.ts; less when the data is small). */
const DEEP_POSITION = 19_980;

export type QueryClass = {
  name: string;
  /** How the class runs when company-scoped tables are sharded by legal_entity_id (docs/scaling.md). */
  shards: 'single shard' | 'fan-out' | 'fan-out, merged by key' | 'coordinator (reference data)';
  inputs: string[];
  run: (db: Db, reference: Reference, input: string) => Promise<unknown>;
};

export type Inputs = {
  uris: string[];
  exactWords: string[];
  frequentWords: string[];
  filters: string[];
  deepPages: string[];
  recordQueries: string[];
  typed: string[];
};

function parse(section: SectionDecl, query: string): SearchState {
  const parsed = parseSearchState(section, new URLSearchParams(query));
  if (!parsed.ok) throw new Error(`${section.id} ${query}: ${parsed.errors[0].message}`);
  return parsed.state;
}

/** The record section the related-record class searches (transactions, or the first record section). */
export const recordSection: SectionDecl =
  SECTIONS.find((s) => s.id === 'transactions') ?? SECTIONS.find((s) => s.record)!;

/** Inputs of every class, `n` each, drawn deterministically from `db`. */
export async function inputsFrom(db: Db, n: number): Promise<Inputs> {
  const k = db.kysely;
  const uris = (
    await sql<{ uri: string }>`select uri from legal_entities order by md5(id::text) limit ${n}`.execute(k)
  ).rows.map((r) => r.uri);
  const exactWords = (
    await sql<{ word: string }>`
      select word from name_words where documents between 5 and 500 order by md5(word) limit ${n}`.execute(k)
  ).rows.map((r) => r.word);
  const frequentWords = (
    await sql<{ word: string }>`
      select word from name_words where length(word) >= 3 order by documents desc limit ${n}`.execute(k)
  ).rows.map((r) => r.word);
  const big = (
    await sql<{ jurisdiction_id: number; n: number }>`
      select jurisdiction_id, count(*)::int as n from legal_entities where status_id = 1
      group by 1 order by 2 desc limit 5`.execute(k)
  ).rows;
  const filters = big.map((b) => `jurisdiction=${b.jurisdiction_id}&status=1`);
  const deepPages: string[] = [];
  for (const b of big) {
    const depth = Math.min(DEEP_POSITION, Math.floor((b.n - 20) / 20) * 20);
    if (depth < 20) continue;
    const r = await sql<{ registration_sort: string; id: number }>`
      select registration_sort, id from legal_entities where jurisdiction_id = ${b.jurisdiction_id} and status_id = 1
      order by registration_sort desc, id desc offset ${depth - 1} limit 1`.execute(k);
    deepPages.push(
      `jurisdiction=${b.jurisdiction_id}&status=1&after=${encodeCursor([r.rows[0].registration_sort, r.rows[0].id])}&page=2`,
    );
  }
  const recordQueries = [
    'company_status=1',
    'company_size=small',
    ...big.slice(0, 3).map((b) => `company_jurisdiction=${b.jurisdiction_id}`),
  ];
  const names = (
    await sql<{ name: string }>`select name from legal_entities order by md5(id::text) desc limit ${n}`.execute(k)
  ).rows.map((r, i) => r.name.slice(0, 2 + (i % 4)));
  return { uris, exactWords, frequentWords, filters, deepPages, recordQueries, typed: names };
}

/** The classes, in the order they are reported. */
export function queryClasses(inputs: Inputs): QueryClass[] {
  const state = (q: string) => parse(companiesSection, q);
  return [
    {
      name: 'profile: getCompany',
      shards: 'single shard',
      inputs: inputs.uris,
      run: (db, _r, uri) => getCompany(db, uri),
    },
    {
      name: 'profile: getCompanyRecords',
      shards: 'single shard',
      inputs: inputs.uris,
      run: (db, _r, uri) => getCompanyRecords(db, { uri }),
    },
    {
      name: 'exact-word search (findCompanies)',
      shards: 'fan-out, merged by key',
      inputs: inputs.exactWords.map((w) => `q=${encodeURIComponent(w)}`),
      run: (db, reference, q) => findCompanies(db, reference, state(q)),
    },
    {
      name: 'frequent-word search with capped count',
      shards: 'fan-out, merged by key',
      inputs: inputs.frequentWords.map((w) => `q=${encodeURIComponent(w)}`),
      run: (db, reference, q) => findCompanies(db, reference, state(q)),
    },
    {
      name: 'filters + newest first, page 1',
      shards: 'fan-out, merged by key',
      inputs: inputs.filters,
      run: (db, reference, q) => findCompanies(db, reference, state(q)),
    },
    {
      name: 'filters + newest first, keyset page at row 19,981',
      shards: 'fan-out, merged by key',
      inputs: inputs.deepPages,
      run: (db, reference, q) => findCompanies(db, reference, state(q)),
    },
    {
      name: 'facets of a range filter (facetCounts)',
      shards: 'fan-out',
      inputs: ['dates[registration]:from=2015', 'dates[registration]:from=2015&status=1'],
      run: (db, reference, q) => facetCounts(db, reference, companiesSection, state(q)),
    },
    {
      name: `related records (${recordSection.id}, findRecords)`,
      shards: 'fan-out, merged by key',
      inputs: inputs.recordQueries,
      run: (db, reference, q) => findRecords(db, reference, recordSection, parse(recordSection, q)),
    },
    {
      name: 'data API: search ids + readLegalEntities',
      shards: 'fan-out, merged by key',
      inputs: inputs.exactWords.map((w) => `q=${encodeURIComponent(w)}`),
      run: async (db, reference, q) => {
        const found = await findCompanyIds(db, reference, state(q), companiesSection.pageSize);
        return readLegalEntities(db, reference, found.ids, {
          sections: new Set(['le_legal_entities']),
          lang: 'en',
          languageId: languageIdOf(reference, 'en'),
          unlocked: EVERYTHING_UNLOCKED,
        });
      },
    },
    {
      name: 'suggest (prefix of a name)',
      shards: 'fan-out, merged by key',
      inputs: inputs.typed,
      run: (db, reference, q) => suggest(db, reference, languageIdOf(reference, 'en'), q),
    },
  ];
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A statement as a capturing Db saw it. */
export type Captured = { sql: string; parameters: unknown[] };

/** A Db on the same pool whose statements are recorded, to EXPLAIN exactly what a call runs (bench/run.ts, bench/capacity.ts). */
export function capturingDb(db: Db, captured: Captured[]): Db {
  const pool = db.pool!;
  const wrapped: PostgresPool = {
    options: {},
    connect: async () => {
      const client = await pool.connect();
      return {
        query: ((text: string, parameters: unknown[]) => {
          captured.push({ sql: text, parameters });
          return client.query(text, parameters);
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: async () => {},
  };
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: wrapped }) });
  // No pool of its own: statements that would go to the pool directly (preparedStatement) go through
  // Kysely and are recorded too.
  return { kind: 'postgres', kysely, close: async () => {} };
}
