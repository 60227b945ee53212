import type { Db } from '../../db/client.ts';
import { SECTIONS } from '../sections/sections.ts';
import { cleanText, type ListQuery, type Page } from '../user-data/list-query.ts';
import {
  clearOwned,
  columnIs,
  deleteOwned,
  getOwned,
  listOwned,
  type OwnedResource,
  textIn,
  updateOwned,
} from '../user-data/owned-records.ts';
import { searchPathOf } from '../user-data/search-path.ts';
import { invalidUserData, type UserDataFields } from '../user-data/user-data-errors.ts';

// Searches a signed-in user made (spec §3 "search history": created_at, query, results), in any
// section. Scoped to the caller's user id: another user's entry is "not found".

export const SUMMARY_MAX = 500;
/** The same search again within this time moves the last entry rather than adding one. */
export const REPEAT_WINDOW_MS = 10 * 60 * 1000;

export type SearchEntry = {
  id: number;
  section: string;
  /** The search page's path without language prefix: /companies/search/?q=acme */
  query: string;
  /** What was searched, readable. */
  summary: string;
  results: number;
  /** The count was estimated (a search past the exact count): shown as "About …". */
  results_is_estimate: boolean;
  created_at: string;
};

export type SearchInput = {
  section: string;
  query: string;
  summary?: string;
  results: number;
  results_is_estimate?: boolean;
};

const SECTION_IDS = new Set(SECTIONS.map((s) => s.id));

/** The section, path, summary and count checked and cleaned; a 400 names the bad fields. */
export function cleanSearchInput(input: Partial<SearchInput>): Partial<SearchInput> {
  const fields: UserDataFields = {};
  const out: Partial<SearchInput> = {};
  if (input.section !== undefined) {
    if (SECTION_IDS.has(input.section)) out.section = input.section;
    else fields.section = 'invalid';
  }
  if (input.query !== undefined && out.section) {
    const path = searchPathOf(out.section, input.query);
    if (path) out.query = path;
    else fields.query = 'invalid';
  }
  if (input.summary !== undefined) out.summary = [...cleanText(input.summary)].slice(0, SUMMARY_MAX).join('');
  if (input.results !== undefined) {
    if (Number.isInteger(input.results) && input.results >= 0 && input.results <= 2_147_483_647) {
      out.results = input.results;
    } else fields.results = 'invalid';
  }
  if (input.results_is_estimate !== undefined) out.results_is_estimate = input.results_is_estimate === true;
  if (Object.keys(fields).length > 0) throw invalidUserData(fields);
  return out;
}

/**
 * Records a search of a signed-in user. The same search again within 10 minutes (a reload,
 * a sort change back) moves the last entry and updates its count instead of adding one.
 */
export async function recordSearch(db: Db, userId: number, input: SearchInput, now = new Date()): Promise<SearchEntry> {
  const clean = cleanSearchInput(input) as SearchInput;
  const last = await db.kysely
    .selectFrom('search_history')
    .select(['id', 'section', 'query', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (
    last &&
    last.section === clean.section &&
    last.query === clean.query &&
    now.getTime() - new Date(last.created_at).getTime() < REPEAT_WINDOW_MS
  ) {
    await db.kysely
      .updateTable('search_history')
      .set({
        created_at: now,
        results: clean.results,
        results_is_estimate: clean.results_is_estimate ?? false,
        summary: clean.summary ?? '',
      })
      .where('user_id', '=', userId)
      .where('id', '=', last.id)
      .execute();
    return (await getSearch(db, userId, Number(last.id)))!;
  }
  const row = await db.kysely
    .insertInto('search_history')
    .values({
      user_id: userId,
      section: clean.section,
      query: clean.query,
      summary: clean.summary ?? '',
      results: clean.results,
      results_is_estimate: clean.results_is_estimate ?? false,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await getSearch(db, userId, Number(row.id)))!;
}

type Row = Omit<SearchEntry, 'created_at'> & { created_at: Date };

/** The search history as a user's records (core/user-data/owned-records.ts). */
export const SEARCH_HISTORY: OwnedResource<Row, SearchEntry, { section?: string }> = {
  table: 'search_history',
  alias: 'h',
  noun: 'search history entry',
  select: (db, userId) =>
    db.kysely
      .selectFrom('search_history as h')
      .select(['h.id', 'h.section', 'h.query', 'h.summary', 'h.results', 'h.results_is_estimate', 'h.created_at'])
      .where('h.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    section: row.section,
    query: row.query,
    summary: row.summary,
    results: Number(row.results),
    results_is_estimate: row.results_is_estimate,
    created_at: new Date(row.created_at).toISOString(),
  }),
  search: textIn('h.summary', 'h.query'),
  filters: (query) => (query.section ? [columnIs('h.section', query.section)] : []),
};

/** A user's searches, newest first: by text of the query or its summary, section and day. */
export function listSearches(
  db: Db,
  userId: number,
  query: ListQuery & { section?: string } = {},
): Promise<Page<SearchEntry>> {
  return listOwned(db, SEARCH_HISTORY, userId, query);
}

export function getSearch(db: Db, userId: number, id: number): Promise<SearchEntry | null> {
  return getOwned(db, SEARCH_HISTORY, userId, id);
}

/**
 * Corrects an entry's result count or summary (a client that learns the count later): a new count
 * is exact unless said to be an estimate.
 */
export function updateSearch(
  db: Db,
  userId: number,
  id: number,
  input: { results?: number; results_is_estimate?: boolean; summary?: string },
): Promise<SearchEntry> {
  const clean = cleanSearchInput(input);
  const estimate = clean.results_is_estimate ?? (clean.results !== undefined ? false : undefined);
  return updateOwned(db, SEARCH_HISTORY, userId, id, {
    results: clean.results,
    results_is_estimate: estimate,
    summary: clean.summary,
  });
}

export function deleteSearch(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, SEARCH_HISTORY, userId, id);
}

/** Clears a user's search history (or the days of a range); returns how many entries went. */
export function clearSearches(db: Db, userId: number, range: { from?: string; to?: string } = {}): Promise<number> {
  return clearOwned(db, SEARCH_HISTORY, userId, range);
}
