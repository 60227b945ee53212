import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { settleTogether } from '../errors/settle-together.ts';
import type { FilterParam } from '../filters/grammar.ts';
import { identifierQuery } from '../identifiers/normalize-identifier.ts';
import type { Reference } from '../reference/reference-data.ts';
import { cappedCount, countMatches, type MatchCount, matchCountOf } from '../search/count-matches.ts';
import { afterCursor, type CursorColumn, encodeCursor } from '../search/cursor.ts';
import { stateConditions } from '../search/filter-tree.ts';
import type { SearchState } from '../search/search-state.ts';
import { companiesSection } from '../sections/companies.ts';
import type { SortDecl } from '../sections/section.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { countCompaniesByIndustry, countCompaniesByJurisdiction } from './count-companies.ts';
import { findByIdentifier, type IdentifierMatch } from './find-by-identifier.ts';
import { buildNameQuery, type NameQuery, nearWholeNames, plainNameQuery } from './name-query.ts';
import { normalizeName } from './normalize-name.ts';
import { townOf } from './parts/addresses.ts';

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
  /** The town of its own address (townOf): a line of a result card on a phone. */
  town: string | null;
};

export type CompanySearchResult = {
  rows: CompanyRow[];
  /** Matching companies: exact up to COUNT_CAP, else an estimate (countMatches). */
  total: number;
  /** `total` is an estimate (shown as "about 52,000"). */
  totalIsEstimate: boolean;
  /** Companies counted exactly: `total` when exact, more than COUNT_CAP when estimated. */
  atLeast: number;
  /** Cursor for the page after this one, when there is one. */
  next?: string;
  /** Nothing matched the name as typed: the normalised query that was searched instead, misspelt words corrected. */
  correctedQuery?: string;
  /** Companies of a near whole name put among the matches as typed (withNearNames). */
  nearNames?: number;
  /**
   * The query is an identifier (identifierQuery): the companies holding it, best first. They lead
   * the first page, before the companies whose name holds the text, and count in `total`.
   */
  identifierMatches?: IdentifierMatch[];
};

/** Relevance ranks the first candidates the full-text index yields. */
const RELEVANCE_CANDIDATES = 2_000;
/** A relevance search finding fewer companies than this, none of the very name typed, looks for near whole names too. */
const NEAR_NAMES_BELOW = 10;
/** Companies of a near whole name added to the matches as typed, at most. */
const NEAR_NAMES = 5;
const COMPANY_NUMBER_TYPE = 2;
/** What each sort column of legal_entities holds, for checking a cursor (cursor.ts). */
const CURSOR_COLUMNS: Record<string, CursorColumn> = { registration_sort: 'date', search_name: 'text', id: 'int' };
/**
 * Relevance (docs/decisions/0002-search-performance.md) as ascending columns of the ranked
 * candidates: another name than the one typed, less alike as typed, farther from a corrected
 * spelling, not starting with the query, longer; then the id.
 */
const RELEVANCE_RANK = ['rank_inexact', 'rank_typed', 'rank_closeness', 'rank_prefix', 'rank_length'] as const;
const RELEVANCE: SortDecl = {
  key: 'relevance',
  label: 'sort.relevance',
  by: [...RELEVANCE_RANK, 'id'].map((column) => ({ column, direction: 'asc' as const })),
};
const RELEVANCE_CURSOR: Record<string, CursorColumn> = {
  rank_inexact: 'int',
  rank_typed: 'real',
  rank_closeness: 'real',
  rank_prefix: 'int',
  rank_length: 'int',
  id: 'int',
};
const relevanceOrder = (alias: string) => sql.join(RELEVANCE.by.map((c) => sql.ref(`${alias}.${c.column}`)));
// The relevance statement's fixed pieces, built once rather than per search (ADR 0044): Kysely parses
// each reference it is given, and these are the same for every query.
const RANKED_ORDER = relevanceOrder('b');
const PAGE_ORDER = relevanceOrder('r');
const PAGE_RANKS = sql.join(RELEVANCE_RANK.map((column) => sql.ref(`r.${column}`)));
const VISIBLE = visibleCompany('b');

const columns = sql`b.id, b.uri, b.name, b.status_id, b.jurisdiction_id, b.registered_on, b.primary_industry_id,
  b.size_id, b.employees_id, b.kind_id,
  (select i.identifier from legal_entity_identifiers i
    where i.legal_entity_id = b.id and i.identifier_type_id = ${COMPANY_NUMBER_TYPE}
    order by i.position limit 1) as company_number, ${townOf('b')} as town`;

/**
 * Companies matching a search state: one page of rows, a bounded count and the next cursor. The
 * name query runs as typed first; only when that finds nothing are misspelt words corrected, and
 * when it finds few companies (none with nothing to correct) and none of the very name typed,
 * companies of a near whole name are put after the exact whole names (withNearNames).
 */
export function findCompanies(
  db: Db,
  reference: Reference,
  state: SearchState,
  pageSize = companiesSection.pageSize,
): Promise<CompanySearchResult> {
  return search(db, reference, state, pageSize, columns);
}

/** Companies by id with the result-table columns (number, town, status…): those the public may see, in no order. */
export async function companyRowsByIds(db: Db, ids: number[]): Promise<CompanyRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<CompanyRow>`select ${columns} from legal_entities b
    where b.id = any(${ids}::bigint[]) and ${visibleCompany('b')}`.execute(db.kysely);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** What findCompanyIds reads of each company: its id, and its name for the did-you-mean of whole names. */
const idColumns = sql`b.id, b.name`;

/**
 * The same search as findCompanies, reading only the companies' ids (an export's batches of
 * 1,000: reading the rows, company numbers included, took ~12 ms a batch more at 1M).
 */
export async function findCompanyIds(
  db: Db,
  reference: Reference,
  state: SearchState,
  pageSize: number,
): Promise<Omit<CompanySearchResult, 'rows'> & { ids: number[] }> {
  const { rows, ...result } = await search(db, reference, state, pageSize, idColumns);
  return { ...result, ids: rows.map((row) => Number(row.id)) };
}

/** The columns a search reads: every column of a result row, or idColumns. */
type Selection = typeof columns;

/**
 * A query that reads as an identifier ("00390616", "HRB 20326", an LEI, a VAT number) finds the
 * companies holding it first (findByIdentifier, an index lookup), then those whose name holds the
 * text; any other query is a name search only, and pays nothing for this.
 */
async function search(
  db: Db,
  reference: Reference,
  state: SearchState,
  pageSize: number,
  selection: Selection,
): Promise<CompanySearchResult> {
  const asIdentifier = state.q ? identifierQuery(state.q) : null;
  if (!asIdentifier) return searchByName(db, reference, state, pageSize, selection, true);
  const filters = stateConditions(companiesSection, state, reference);
  const matches = await findByIdentifier(db, asIdentifier, {
    limit: pageSize,
    where: filters.length > 0 ? sql.join(filters, sql` and `) : null,
  });
  const ids = matches.map((m) => m.id);
  const firstPage = state.page === 1 && !state.after;
  const leadingRows = async () => {
    if (!firstPage || ids.length === 0) return [];
    const held =
      await sql<CompanyRow>`select ${selection} from legal_entities b where b.id = any(${ids}::bigint[])`.execute(
        db.kysely,
      );
    const byId = new Map(held.rows.map((row) => [Number(row.id), row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  // A text that is exactly an identifier of 6 digits or more names those companies: a name holding
  // the same digits is no answer, and its search (a full-text look-up and a count, ~6 ms at 1M) is
  // not run.
  if (matches.some((m) => m.hit === 'exact') && asIdentifier.compact.replace(/\D/g, '').length >= 6) {
    const rows = await leadingRows();
    return { rows, total: matches.length, totalIsEstimate: false, atLeast: matches.length, identifierMatches: matches };
  }
  // A number is no misspelt name: with companies holding it, no correction or near name is guessed.
  const byName = await searchByName(db, reference, state, pageSize, selection, matches.length === 0);
  if (matches.length === 0) return byName;
  const named = new Set(byName.rows.map((row) => Number(row.id)));
  const added = matches.filter((m) => !named.has(m.id)).length;
  let rows = byName.rows;
  if (firstPage) {
    const shown = new Set(ids);
    rows = [...(await leadingRows()), ...byName.rows.filter((row) => !shown.has(Number(row.id)))].slice(0, pageSize);
  }
  return {
    ...byName,
    rows,
    total: byName.total + added,
    atLeast: byName.atLeast + added,
    identifierMatches: matches,
  };
}

async function searchByName(
  db: Db,
  reference: Reference,
  state: SearchState,
  pageSize: number,
  selection: Selection,
  guess: boolean,
): Promise<CompanySearchResult> {
  const filters = stateConditions(companiesSection, state, reference);
  const whereFor = (query: string | null) => {
    const all = query ? [...filters, sql<SqlBool>`b.name_tsv @@ to_tsquery('simple', ${query})`] : filters;
    return all.length > 0 ? sql.join(all, sql` and `) : null;
  };
  const plain = state.q ? plainNameQuery(state.q) : null;
  // A name query is fenced anyway; only filter-only searches need the rollups' estimate.
  const selective = plain ? false : await fewMatches(db, reference, state.filters);
  const asTyped = await searchPage(
    db,
    reference,
    state,
    pageSize,
    plain,
    whereFor(plain?.strict ?? null),
    selective,
    selection,
  );
  if (!plain) return asTyped;
  // A did-you-mean for whole names, only for a relevance search that finds few companies, all on its
  // first page (a next page's cursor follows the matches as typed).
  const nearNames =
    guess &&
    state.sort === 'relevance' &&
    state.page === 1 &&
    !state.after &&
    !asTyped.next &&
    asTyped.total < NEAR_NAMES_BELOW &&
    typedAsWholeName(state.q);
  const withNear = () => withNearNames(db, state, pageSize, whereFor(null), plain, asTyped, selection);
  if (asTyped.total > 0) return nearNames ? withNear() : asTyped;
  if (!guess) return asTyped;
  const corrected = await buildNameQuery(db.kysely, state.q);
  // Every word is a name word, but none of the companies holds them all ("Reed & Gracia Inc."
  // for Reed & Garcia Inc.): a whole name one word away may still be there.
  if (!corrected?.corrected) return nearNames ? withNear() : asTyped;
  // A misspelt word that no correction rescues must not hide the companies the other words find.
  let tsQuery = corrected.strict;
  let correctedQuery = corrected.normalized;
  if (corrected.relaxed && !(await anyMatch(db, whereFor(corrected.strict)!))) {
    tsQuery = corrected.relaxed;
    correctedQuery = corrected.relaxed.split(' & ').join(' ');
  }
  const result = await searchPage(db, reference, state, pageSize, corrected, whereFor(tsQuery), selective, selection);
  return result.total > 0 ? { ...result, correctedQuery } : result;
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
  reference: Reference,
  state: SearchState,
  pageSize: number,
  nameQuery: NameQuery | null,
  filtered: RawBuilder<unknown> | null,
  selective: boolean,
  selection: Selection,
): Promise<CompanySearchResult> {
  const k = db.kysely;
  // Companies taken down are no search result (ADR 0021); countMatches and the cubes leave them
  // out of the counts (core/takedowns/visible.ts).
  const where = filtered ? sql`${filtered} and ${VISIBLE}` : VISIBLE;
  const tsQuery = nameQuery?.strict;

  const firstPage = state.page === 1 && !state.after;
  const readPage = async (): Promise<Pick<CompanySearchResult, 'rows' | 'next'> & { counted?: MatchCount }> => {
    let rows: CompanyRow[];
    let next: string | undefined;
    if (state.sort === 'relevance' && tsQuery && nameQuery && filtered) {
      const exact = nameQuery.normalized;
      // Exact names first, then names starting with the query; after a correction, the closest spelling.
      const closeness = nameQuery.corrected ? sql`similarity(c.search_name, ${exact})` : sql`0`;
      const keyset = afterCursor(RELEVANCE, state.after, (column) => RELEVANCE_CURSOR[column]);
      const offset = state.after ? 0 : (state.page - 1) * pageSize;
      const typed = state.q.toLowerCase();
      // The rank as ascending columns, so that a cursor is its last row's values (afterCursor): each
      // page ranks the same candidates, and a cursor only drops the rows before it (page 2 costs what page 1 does).
      const result = await sql<CompanyRow>`
      with candidates as (
        select b.id, b.search_name, b.name from legal_entities b where ${where} limit ${RELEVANCE_CANDIDATES}
      ), ranked as (
        select c.id, (c.search_name <> ${exact})::int as rank_inexact,
          -- Names that normalise alike ("Kennedy & Sons LLC", "Kennedy & Sons Inc"): closest as typed.
          (-(case when c.search_name = ${exact} then similarity(lower(c.name), ${typed}) else 0 end))::real as rank_typed,
          (-${closeness})::real as rank_closeness, (c.search_name not like ${`${exact}%`})::int as rank_prefix,
          length(c.search_name) as rank_length
        from candidates c
      ), page as (
        select * from ranked b where ${keyset}
        order by ${RANKED_ORDER}
        limit ${pageSize + 1} offset ${offset}
      )
      select ${selection}, ${PAGE_RANKS}, ${cappedCount(companiesSection, filtered)} as match_count
      from page r join legal_entities b on b.id = r.id
      order by ${PAGE_ORDER}`.execute(k);
      // One row more than a page says whether a next page exists: none after the last candidate.
      rows = result.rows.slice(0, pageSize);
      if (result.rows.length > pageSize) {
        const last = rows[rows.length - 1] as unknown as Record<string, number>;
        next = encodeCursor(RELEVANCE.by.map((c) => last[c.column]));
      }
      // The count came with the page (one statement fewer, ADR 0044). No row: on the first page that
      // means no match at all (the page is the first of the matches); past it, counted apart.
      const first = result.rows[0] as (CompanyRow & { match_count: number }) | undefined;
      const counted =
        first !== undefined
          ? await matchCountOf(db, companiesSection, filtered, first.match_count)
          : firstPage
            ? { total: 0, totalIsEstimate: false, atLeast: 0 }
            : await countMatches(db, reference, companiesSection, filtered);
      for (const row of rows as Record<string, unknown>[]) {
        for (const column of RELEVANCE_RANK) delete row[column];
        delete row.match_count;
      }
      return { rows, next, counted };
    } else {
      const sort = companiesSection.sorts.find((s) => s.key === state.sort);
      if (!sort) throw new AppError('bad_request', `unknown sort ${state.sort}`, { parameter: 'sort' });
      const direction = sort.by[0].direction;
      const order = (alias: string) =>
        sql.join(sort.by.map((c) => sql`${sql.ref(`${alias}.${c.column}`)} ${sql.raw(direction)}`));
      const keyset = afterCursor(sort, state.after, (column) => CURSOR_COLUMNS[column]);
      const offset = state.after ? 0 : (state.page - 1) * pageSize;
      const extraSortColumnNames = sort.by.filter((c) => c.column !== 'id').map((c) => c.column);
      const extraSortColumns = extraSortColumnNames.map((column) => sql.ref(`b.${column}`));
      const sortColumns = sql.join([sql.ref('b.id'), ...extraSortColumns]);
      // A name query (through its GIN index) or a selective filter is fenced (offset 0) so that the
      // planner sorts the matches instead of walking the sort index and filtering (PERFORMANCE.md trap).
      const inner =
        tsQuery || selective
          ? sql`select * from (select ${sortColumns} from legal_entities b where ${where} and ${keyset} offset 0) b`
          : sql`select ${sortColumns} from legal_entities b where ${where} and ${keyset}`;
      const result = await sql<CompanyRow & Record<string, string | number>>`
      with page as (${inner} order by ${order('b')} limit ${pageSize} offset ${offset})
      select ${selection}${extraSortColumns.length > 0 ? sql`, ${sql.join(extraSortColumns)}` : sql``}
      from page p join legal_entities b on b.id = p.id
      order by ${order('b')}`.execute(k);
      rows = result.rows;
      if (rows.length === pageSize) {
        const last = rows[rows.length - 1] as Record<string, string | number>;
        next = encodeCursor(sort.by.map((c) => last[c.column]));
      }
      // The sort's own columns served the cursor; they are not part of a row.
      for (const row of rows as Record<string, unknown>[])
        for (const column of extraSortColumnNames) delete row[column];
    }
    return { rows, next };
  };
  // A name search ranked by relevance counts in its page's statement (both read the same few matches
  // through the name index). Other searches count beside the page: a broad filter's count and estimate
  // would add their time to a page that reads only a page's worth of the sort index.
  if (state.sort === 'relevance' && tsQuery && filtered) {
    const { rows, next, counted } = await readPage();
    if (!counted) throw new Error('a relevance page carries its count');
    return { rows, ...counted, next };
  }
  const [{ rows, next }, count] = await settleTogether(
    readPage(),
    countMatches(db, reference, companiesSection, filtered),
  );
  return { rows, ...count, next };
}

/**
 * A did-you-mean for whole names. A swapped letter can spell a real word ("Nenoeon Sp.k." for
 * Neoneon Sp.k., "nenoeon" being in five names, two of them "Nenoeon LLC" and "Nenoeon Limited"),
 * so the search as typed finds a few companies, or none when the words meet in no name, and no
 * correction runs. For a query typed as a whole name that no company bears as spelt, companies
 * whose whole name is the name typed with one word corrected (nearWholeNames), within the
 * filters, follow the exact whole names and come before the names that merely hold the words
 * typed: a whole name one edit away says more than a shared rare word. Found through the
 * search_name index (legal_entities_name_idx); a company that matches as typed keeps its place
 * among the matches, so the added ones are counted once.
 */
async function withNearNames(
  db: Db,
  state: SearchState,
  pageSize: number,
  filtered: RawBuilder<unknown> | null,
  plain: NameQuery,
  asTyped: CompanySearchResult,
  selection: Selection,
): Promise<CompanySearchResult> {
  const typed = spelt(state.q);
  if (asTyped.rows.some((row) => spelt(row.name) === typed)) return asTyped;
  const names = await nearWholeNames(db.kysely, state.q);
  if (names.length === 0) return asTyped;
  const near = await sql<CompanyRow>`
    with near as (
      select b.id, array_position(${names}::text[], b.search_name) as rank, similarity(lower(b.name), ${typed}) as typed
      from legal_entities b
      where b.search_name = any(${names}::text[]) and ${visibleCompany('b')} and ${filtered ?? sql`true`}
        and not b.name_tsv @@ to_tsquery('simple', ${plain.strict})
      order by rank, typed desc, b.id
      limit ${NEAR_NAMES}
    )
    select ${selection} from near n join legal_entities b on b.id = n.id
    order by n.rank, n.typed desc, b.id`.execute(db.kysely);
  if (near.rows.length === 0) return asTyped;
  // The exact whole names lead the matches as typed (searchPage's ranking).
  const firstInexact = asTyped.rows.findIndex((row) => normalizeName(row.name) !== plain.normalized);
  const exact = firstInexact < 0 ? asTyped.rows.length : firstInexact;
  return {
    ...asTyped,
    rows: [...asTyped.rows.slice(0, exact), ...near.rows, ...asTyped.rows.slice(exact)].slice(0, pageSize),
    total: asTyped.total + near.rows.length,
    atLeast: asTyped.atLeast + near.rows.length,
    nearNames: near.rows.length,
  };
}

/**
 * True for a query of two words or more as typed, a legal form counting ("Nenoeon Sp.k."): it reads
 * as a whole name. A single word is a word search; a whole name one edit from it is a weak guess,
 * and the step would run for nearly every rare word (measured at 1M: for all 200 sampled words of
 * 5–9 names, adding companies to 165 of them, about 2 ms each).
 */
function typedAsWholeName(q: string): boolean {
  return q.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0).length >= 2;
}

/** A name as spelt, legal form included: lower case, single spaces. */
function spelt(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

async function anyMatch(db: Db, where: RawBuilder<unknown>): Promise<boolean> {
  const r = await sql`select 1 from legal_entities b where ${where} limit 1`.execute(db.kysely);
  return r.rows.length > 0;
}
