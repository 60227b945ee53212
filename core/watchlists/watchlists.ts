import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { LIST_DESCRIPTION_MAX, LIST_NAME_MAX, MAX_LISTS_PER_USER } from '../limits.ts';
import { visibleCompanyId } from '../takedowns/visible.ts';
import { cleanText, type ListQuery, type Page } from '../user-data/list-query.ts';
import {
  countOwned,
  deleteOwned,
  getOwned,
  insertNumbered,
  listOwned,
  type OwnedResource,
  requireOwned,
  textIn,
  updateOwned,
} from '../user-data/owned-records.ts';
import { invalidUserData, type UserDataFields } from '../user-data/user-data-errors.ts';

// Company lists (spec §3 "watchlists": name, total_objects, description). Every function takes
// the signed-in user's id and touches only that user's rows: another user's list is "not found".

export { LIST_DESCRIPTION_MAX, LIST_NAME_MAX, MAX_LISTS_PER_USER } from '../limits.ts';

export type Watchlist = {
  id: number;
  /** Per user, from 1: the page /companies/lists/{number}/. */
  number: number;
  name: string;
  description: string;
  total_objects: number;
  created_at: string;
  updated_at: string;
};

export type WatchlistInput = { name?: string; description?: string };

/** Name and description cleaned and checked (absent fields stay absent); a 400 names the bad ones. */
export function cleanWatchlistInput(input: WatchlistInput, creating: boolean): { name?: string; description?: string } {
  const fields: UserDataFields = {};
  const out: { name?: string; description?: string } = {};
  if (input.name !== undefined || creating) {
    const name = cleanText(input.name ?? '');
    if (name.length === 0) fields.name = 'required';
    else if ([...name].length > LIST_NAME_MAX) fields.name = 'tooLong';
    else out.name = name;
  }
  if (input.description !== undefined) {
    // Line breaks are kept in a description; only its ends are trimmed.
    const description = input.description.normalize('NFC').replace(/\r\n?/g, '\n').trim();
    if ([...description].length > LIST_DESCRIPTION_MAX) fields.description = 'tooLong';
    else out.description = description;
  }
  if (Object.keys(fields).length > 0) throw invalidUserData(fields);
  return out;
}

type Row = {
  id: number;
  number: number;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
  total_objects: number | string;
};

function selectWatchlists(db: Db, userId: number) {
  return db.kysely
    .selectFrom('watchlists as w')
    .select(['w.id', 'w.number', 'w.name', 'w.description', 'w.created_at', 'w.updated_at'])
    .select(
      // The companies the list shows: one taken down is not counted (ADR 0021).
      sql<number>`(select count(*) from watchlist_objects o where o.user_id = w.user_id and o.watchlist_id = w.id
        and ${visibleCompanyId('o.legal_entity_id')})`.as('total_objects'),
    )
    .where('w.user_id', '=', userId);
}

/** Lists as a user's records (core/user-data/owned-records.ts). */
const WATCHLISTS: OwnedResource<Row, Watchlist> = {
  table: 'watchlists',
  alias: 'w',
  noun: 'list',
  select: selectWatchlists,
  itemOf: (row) => ({
    id: Number(row.id),
    number: Number(row.number),
    name: row.name,
    description: row.description,
    total_objects: Number(row.total_objects),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  }),
  search: textIn('w.name', 'w.description'),
};

/** A user's lists, newest first, filtered by name or description text and by creation day. */
export function listWatchlists(db: Db, userId: number, query: ListQuery = {}): Promise<Page<Watchlist>> {
  return listOwned(db, WATCHLISTS, userId, query);
}

/** Every list of a user (name and number), for the "add to list" choice; most recently changed first. */
export async function watchlistChoices(
  db: Db,
  userId: number,
): Promise<{ id: number; number: number; name: string }[]> {
  const rows = await db.kysely
    .selectFrom('watchlists')
    .select(['id', 'number', 'name'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_LISTS_PER_USER)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), number: Number(r.number), name: r.name }));
}

export function getWatchlist(db: Db, userId: number, id: number): Promise<Watchlist | null> {
  return getOwned(db, WATCHLISTS, userId, id);
}

export async function getWatchlistByNumber(db: Db, userId: number, number: number): Promise<Watchlist | null> {
  const row = await selectWatchlists(db, userId).where('w.number', '=', number).executeTakeFirst();
  return row ? WATCHLISTS.itemOf(row) : null;
}

/** The caller's list or a 404 (someone else's list is not found either). */
export function requireWatchlist(db: Db, userId: number, id: number): Promise<Watchlist> {
  return requireOwned(db, WATCHLISTS, userId, id);
}

/** Creates a list with the user's next list number. */
export async function createWatchlist(db: Db, userId: number, input: WatchlistInput): Promise<Watchlist> {
  const clean = cleanWatchlistInput(input, true);
  if ((await countOwned(db, WATCHLISTS, userId)) >= MAX_LISTS_PER_USER) throw invalidUserData({ lists: 'tooMany' });
  const id = await insertNumbered(db, 'watchlists', userId, {
    name: sql`${clean.name!}::text`,
    description: sql`${clean.description ?? ''}::text`,
  });
  return (await getWatchlist(db, userId, id))!;
}

/** Renames a list and/or changes its description. */
export function updateWatchlist(db: Db, userId: number, id: number, input: WatchlistInput): Promise<Watchlist> {
  const clean = cleanWatchlistInput(input, false);
  return updateOwned(db, WATCHLISTS, userId, id, { ...clean, updated_at: new Date() });
}

/** Deletes a list and its objects. */
export function deleteWatchlist(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, WATCHLISTS, userId, id);
}
