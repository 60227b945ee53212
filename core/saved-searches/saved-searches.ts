import type { Db } from '../../db/client.ts';
import { MAX_SAVED_SEARCHES, SAVED_NAME_MAX } from '../limits.ts';
import { SECTIONS } from '../sections/sections.ts';
import { cleanText, type ListQuery, type Page } from '../user-data/list-query.ts';
import {
  columnIs,
  countOwned,
  deleteOwned,
  getOwned,
  listOwned,
  type OwnedResource,
  requireOwned,
  textIn,
  updateOwned,
} from '../user-data/owned-records.ts';
import { searchPathOf } from '../user-data/search-path.ts';
import { invalidUserData, type UserDataFields } from '../user-data/user-data-errors.ts';

// Searches a user keeps under a name (spec §3 "saved searches", §5 "save or load filters"), in
// any section; running one is opening its path. Scoped to the caller's user id.

export { MAX_SAVED_SEARCHES, SAVED_NAME_MAX } from '../limits.ts';

export type SavedSearch = {
  id: number;
  name: string;
  section: string;
  /** The search page's path without language prefix: /companies/search/f/…/?q=… */
  query: string;
  created_at: string;
  updated_at: string;
};

export type SavedSearchInput = { name?: string; section?: string; query?: string };

const SECTION_IDS = new Set(SECTIONS.map((s) => s.id));

/**
 * Checks and cleans a saved search's fields (absent ones stay absent). A query is checked against
 * its section: the given one, else `currentSection` (a rename keeps the section).
 */
export function cleanSavedSearchInput(
  input: SavedSearchInput,
  creating: boolean,
  currentSection?: string,
): SavedSearchInput {
  const fields: UserDataFields = {};
  const out: SavedSearchInput = {};
  if (input.name !== undefined || creating) {
    const name = cleanText(input.name ?? '');
    if (name.length === 0) fields.name = 'required';
    else if ([...name].length > SAVED_NAME_MAX) fields.name = 'tooLong';
    else out.name = name;
  }
  if (input.section !== undefined || creating) {
    if (input.section && SECTION_IDS.has(input.section)) out.section = input.section;
    else fields.section = 'invalid';
  }
  const section = out.section ?? currentSection;
  if (input.query !== undefined || creating || input.section !== undefined) {
    const path = section && input.query !== undefined ? searchPathOf(section, input.query) : null;
    if (path) out.query = path;
    else if (!fields.section) fields.query = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw invalidUserData(fields);
  return out;
}

type Row = { id: number; name: string; section: string; query: string; created_at: Date; updated_at: Date };

/** Saved searches as a user's records (core/user-data/owned-records.ts). */
export const SAVED_SEARCHES: OwnedResource<Row, SavedSearch, { section?: string }> = {
  table: 'saved_searches',
  alias: 's',
  noun: 'saved search',
  select: (db, userId) =>
    db.kysely
      .selectFrom('saved_searches as s')
      .select(['s.id', 's.name', 's.section', 's.query', 's.created_at', 's.updated_at'])
      .where('s.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    name: row.name,
    section: row.section,
    query: row.query,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  }),
  search: textIn('s.name', 's.query'),
  filters: (query) => (query.section ? [columnIs('s.section', query.section)] : []),
};

export async function saveSearch(db: Db, userId: number, input: SavedSearchInput): Promise<SavedSearch> {
  const clean = cleanSavedSearchInput(input, true);
  if ((await countOwned(db, SAVED_SEARCHES, userId)) >= MAX_SAVED_SEARCHES)
    throw invalidUserData({ searches: 'tooMany' });
  const row = await db.kysely
    .insertInto('saved_searches')
    .values({ user_id: userId, name: clean.name!, section: clean.section!, query: clean.query! })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await getSavedSearch(db, userId, Number(row.id)))!;
}

/** A user's saved searches, newest first: by name or query text, section and day. */
export function listSavedSearches(
  db: Db,
  userId: number,
  query: ListQuery & { section?: string } = {},
): Promise<Page<SavedSearch>> {
  return listOwned(db, SAVED_SEARCHES, userId, query);
}

export function getSavedSearch(db: Db, userId: number, id: number): Promise<SavedSearch | null> {
  return getOwned(db, SAVED_SEARCHES, userId, id);
}

/** Renames a saved search or changes its query (and section). */
export async function updateSavedSearch(
  db: Db,
  userId: number,
  id: number,
  input: SavedSearchInput,
): Promise<SavedSearch> {
  const current = await requireOwned(db, SAVED_SEARCHES, userId, id);
  const clean = cleanSavedSearchInput(input, false, current.section);
  if (Object.keys(clean).length === 0) return current;
  return updateOwned(db, SAVED_SEARCHES, userId, id, { ...clean, updated_at: new Date() });
}

export function deleteSavedSearch(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, SAVED_SEARCHES, userId, id);
}
