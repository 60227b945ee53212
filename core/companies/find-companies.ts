import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { FilterParam } from '../filters/grammar.ts';
import type { Reference } from '../reference/reference-data.ts';
import { countMatches } from '../search/count-matches.ts';
import { decodeCursor, encodeCursor } from '../search/cursor.ts';
import { filterConditions } from '../search/filter-sql.ts';
import type { SearchState } from '../search/search-state.ts';
import { companiesSection } from '../sections/companies.ts';
import { countCompaniesByIndustry, countCompaniesByJurisdiction } from './count-companies.ts';
import { buildNameQuery, type NameQuery, plainNameQuery } from './name-query.ts';

export type CompanyRow = {
  id: number;
  uri: string;
  name: string;
  company_number: string | null;
  status_id: number | null;
  jurisdiction_id: number;
  registered_on: string | null;
  primary_industry_id: number | null;
  size_id: number | null;
  employees_id: number | null;
  kind_id: number | null;
};

export type CompanySearchResult = {
  rows: CompanyRow[];
  /** Matching companies, exact up to COUNT_CAP. */
  total: number;
  /** True when there are more than `total` (shown as "10,000+"). */
  totalIsLowerBound: boolean;
  /** Cursor for the page after this one, when there is one. */
  next?: string;
};

/** Relevance ranks the first candidates the full-text index yields. */
const RELEVANCE_CANDIDATES = 2_000;
const COMPANY_NUMBER_TYPE = 2;

const columns = sql`b.id, b.uri, b.name, b.status_id, b.jurisdiction_id, b.registered_on, b.primary_industry_id,
  b.size_id, b.employees_id, b.kind_id,
  (select i.identifier from legal_entity_identifiers i
    where i.legal_entity_id = b.id and i.identifier_type_id = ${COMPANY_NUMBER_TYPE}
    order by i.position limit 1) as company_number`;

/**
 * Companies matching a search state: one page of rows, a bounded count and the next cursor. The
 * name query runs as typed first; only when that finds nothing are misspelt words corrected.
 */
export async function findCompanies(
  db: Db,
  reference: Reference,
  state: SearchState,
  pageSize = companiesSection.pageSize,
): Promise<CompanySearchResult> {
  const filters = filterConditions(companiesSection, state.filters, reference);
  const whereFor = (query: string | null) => {
    const all = query ? [...filters, sql<SqlBool>`b.name_tsv @@ to_tsquery('simple', ${query})`] : filters;
    return all.length > 0 ? sql.join(all, sql` and `) : null;
  };
  const plain = state.q ? plainNameQuery(state.q) : null;
  // A name query is fenced anyway; only filter-only searches need the rollups' estimate.
  const selective = plain ? false : await fewMatches(db, reference, state.filters);
  const asTyped = await searchPage(db, state, pageSize, plain, whereFor(plain?.strict ?? null), selective);
  if (!plain || asTyped.total > 0) return asTyped;
  const corrected = await buildNameQuery(db.kysely, state.q);
  if (!corrected?.corrected) return asTyped;
  // A misspelt word that no correction rescues must not hide the companies the other words find.
  let tsQuery = corrected.strict;
  if (corrected.relaxed && !(await anyMatch(db, whereFor(corrected.strict)!))) tsQuery = corrected.relaxed;
  return searchPage(db, state, pageSize, corrected, whereFor(tsQuery), selective);
}

/** Below this many matches, sorting them beats walking the sort index and filtering. */
const SORT_MATCHES_BELOW = 10_000;

/**
 * True when a filter surely matches few companies: an exact identifier, or jurisdictions or
 * industries that hold few companies by the cached rollups (count-companies.ts). Such a search
 * sorts its matches; walking the sort index would read most of the table to find them
 * (PERFORMANCE.md: ORDER BY + LIMIT with a selective filter).
 */
async function fewMatches(db: Db, reference: Reference, filters: FilterParam[]): Promise<boolean> {
  for (const f of filters) {
    if (f.op !== 'eq') continue;
    const decl = companiesSection.filters.find((d) => d.field === f.field);
    if (decl?.kind === 'typed_text') return true;
    if (decl?.kind !== 'reference' || (decl.ref !== 'locations' && decl.ref !== 'industries')) continue;
    const counts =
      decl.ref === 'locations' ? await countCompaniesByJurisdiction(db) : await countCompaniesByIndustry(db, reference);
    const bound = f.values.reduce((sum, v) => sum + (counts.get(Number(v)) ?? 0), 0);
    if (bound <= SORT_MATCHES_BELOW) return true;
  }
  return false;
}

async function searchPage(
  db: Db,
  state: SearchState,
  pageSize: number,
  nameQuery: NameQuery | null,
  filtered: RawBuilder<unknown> | null,
  selective: boolean,
): Promise<CompanySearchResult> {
  const k = db.kysely;
  const where = filtered ?? sql`true`;
  const tsQuery = nameQuery?.strict;

  const counting = countMatches(db, 'legal_entities', filtered);
  let rows: CompanyRow[];
  let next: string | undefined;
  if (state.sort === 'relevance' && tsQuery && nameQuery) {
    const exact = nameQuery.normalized;
    // Exact names first, then names starting with the query; after a correction, the closest spelling.
    const closeness = nameQuery.corrected ? sql`similarity(c.search_name, ${exact})` : sql`0`;
    const offset = (state.page - 1) * pageSize;
    const typed = state.q.toLowerCase();
    const result = await sql<CompanyRow>`
      with candidates as (
        select b.id, b.search_name, b.name from legal_entities b where ${where} limit ${RELEVANCE_CANDIDATES}
      ), ranked as (
        select c.id, (c.search_name = ${exact}) as exact,
          -- Names that normalise alike ("Kennedy & Sons LLC", "Kennedy & Sons Inc"): closest as typed.
          case when c.search_name = ${exact} then similarity(lower(c.name), ${typed}) else 0 end as typed,
          ${closeness} as closeness, (c.search_name like ${`${exact}%`}) as prefix, length(c.search_name) as length
        from candidates c
        order by exact desc, typed desc, closeness desc, prefix desc, length, c.id
        limit ${pageSize} offset ${offset}
      )
      select ${columns} from ranked r join legal_entities b on b.id = r.id
      order by r.exact desc, r.typed desc, r.closeness desc, r.prefix desc, r.length, b.id`.execute(k);
    rows = result.rows;
  } else {
    const sort = companiesSection.sorts.find((s) => s.key === state.sort);
    if (!sort) throw new AppError('bad_request', `unknown sort ${state.sort}`, { parameter: 'sort' });
    const direction = sort.by[0].direction;
    const order = (alias: string) =>
      sql.join(sort.by.map((c) => sql`${sql.ref(`${alias}.${c.column}`)} ${sql.raw(direction)}`));
    let keyset: RawBuilder<SqlBool> = sql<SqlBool>`true`;
    if (state.after) {
      const values = decodeCursor(state.after, sort.by.length);
      if (!values) throw new AppError('bad_request', 'after is not a cursor of this sort', { parameter: 'after' });
      const cols = sql.join(sort.by.map((c) => sql.ref(`b.${c.column}`)));
      keyset = sql<SqlBool>`(${cols}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${sql.join(values)})`;
    }
    const offset = state.after ? 0 : (state.page - 1) * pageSize;
    const extraSortColumns = sort.by.filter((c) => c.column !== 'id').map((c) => sql.ref(`b.${c.column}`));
    const sortColumns = sql.join([sql.ref('b.id'), ...extraSortColumns]);
    // A name query (through its GIN index) or a selective filter is fenced (offset 0) so that the
    // planner sorts the matches instead of walking the sort index and filtering (PERFORMANCE.md trap).
    const inner =
      tsQuery || selective
        ? sql`select * from (select ${sortColumns} from legal_entities b where ${where} and ${keyset} offset 0) b`
        : sql`select ${sortColumns} from legal_entities b where ${where} and ${keyset}`;
    const result = await sql<CompanyRow & Record<string, string | number>>`
      with page as (${inner} order by ${order('b')} limit ${pageSize} offset ${offset})
      select ${columns}${extraSortColumns.length > 0 ? sql`, ${sql.join(extraSortColumns)}` : sql``}
      from page p join legal_entities b on b.id = p.id
      order by ${order('b')}`.execute(k);
    rows = result.rows;
    if (rows.length === pageSize) {
      const last = rows[rows.length - 1] as Record<string, string | number>;
      next = encodeCursor(sort.by.map((c) => last[c.column]));
    }
    const sortOnly = new Set(sort.by.map((c) => c.column).filter((c) => c !== 'id'));
    rows = rows.map(
      (row) => Object.fromEntries(Object.entries(row).filter(([key]) => !sortOnly.has(key))) as CompanyRow,
    );
  }
  const { total, totalIsLowerBound } = await counting;
  return { rows, total, totalIsLowerBound, next };
}

async function anyMatch(db: Db, where: RawBuilder<unknown>): Promise<boolean> {
  const r = await sql`select 1 from legal_entities b where ${where} limit 1`.execute(db.kysely);
  return r.rows.length > 0;
}
