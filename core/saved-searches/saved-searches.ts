import type { Db } from '../../db/client.ts';
import { SECTIONS } from '../sections/sections.ts';
import { MAX_SAVED_SEARCHES, SAVED_NAME_MAX } from '../user-data/limits.ts';
import {
  cleanText,
  containsPattern,
  dayRange,
  keysetAfter,
  type ListQuery,
  type Page,
  pageOf,
  pageSize,
} from '../user-data/list-query.ts';
import { searchPathOf } from '../user-data/search-path.ts';
import { invalidUserData, notFound, type UserDataFields } from '../user-data/user-data-errors.ts';

// Searches a user keeps under a name (spec §3 "saved searches", §5 "save or load filters"), in
// any section; running one is opening its path. Scoped to the caller's user id.

export { MAX_SAVED_SEARCHES, SAVED_NAME_MAX } from '../user-data/limits.ts';

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

function savedOf(row: Row): SavedSearch {
  return {
    id: Number(row.id),
    name: row.name,
    section: row.section,
    query: row.query,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function selectSaved(db: Db, userId: number) {
  return db.kysely
    .selectFrom('saved_searches as s')
    .select(['s.id', 's.name', 's.section', 's.query', 's.created_at', 's.updated_at'])
    .where('s.user_id', '=', userId);
}

export async function saveSearch(db: Db, userId: number, input: SavedSearchInput): Promise<SavedSearch> {
  const clean = cleanSavedSearchInput(input, true);
  const held = await db.kysely
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(held.n) >= MAX_SAVED_SEARCHES) throw invalidUserData({ searches: 'tooMany' });
  const row = await db.kysely
    .insertInto('saved_searches')
    .values({ user_id: userId, name: clean.name!, section: clean.section!, query: clean.query! })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await getSavedSearch(db, userId, Number(row.id)))!;
}

/** A user's saved searches, newest first: by name or query text, section and day. */
export async function listSavedSearches(
  db: Db,
  userId: number,
  query: ListQuery & { section?: string } = {},
): Promise<Page<SavedSearch>> {
  const size = pageSize(query.count);
  const { start, end } = dayRange(query.from, query.to);
  let select = selectSaved(db, userId);
  if (query.q) {
    const pattern = containsPattern(cleanText(query.q));
    select = select.where((eb) => eb.or([eb('s.name', 'ilike', pattern), eb('s.query', 'ilike', pattern)]));
  }
  if (query.section) select = select.where('s.section', '=', query.section);
  if (start) select = select.where('s.created_at', '>=', start);
  if (end) select = select.where('s.created_at', '<', end);
  if (query.after !== undefined)
    select = select.where(keysetAfter('s', 'saved_searches', 'created_at', userId, query.after));
  const rows = await select
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(size + 1)
    .execute();
  return pageOf(rows.map(savedOf), size);
}

export async function getSavedSearch(db: Db, userId: number, id: number): Promise<SavedSearch | null> {
  const row = await selectSaved(db, userId).where('s.id', '=', id).executeTakeFirst();
  return row ? savedOf(row) : null;
}

/** Renames a saved search or changes its query (and section). */
export async function updateSavedSearch(
  db: Db,
  userId: number,
  id: number,
  input: SavedSearchInput,
): Promise<SavedSearch> {
  const current = await getSavedSearch(db, userId, id);
  if (!current) throw notFound('saved search');
  const clean = cleanSavedSearchInput(input, false, current.section);
  if (Object.keys(clean).length === 0) return current;
  await db.kysely
    .updateTable('saved_searches')
    .set({ ...clean, updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
  return (await getSavedSearch(db, userId, id))!;
}

export async function deleteSavedSearch(db: Db, userId: number, id: number): Promise<void> {
  const result = await db.kysely
    .deleteFrom('saved_searches')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('saved search');
}
