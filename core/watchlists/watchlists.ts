import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { LIST_DESCRIPTION_MAX, LIST_NAME_MAX, MAX_LISTS_PER_USER } from '../user-data/limits.ts';
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
import { invalidUserData, notFound, type UserDataFields } from '../user-data/user-data-errors.ts';

// Company lists (spec §3 "watchlists": name, total_objects, description). Every function takes
// the signed-in user's id and touches only that user's rows: another user's list is "not found".

export { LIST_DESCRIPTION_MAX, LIST_NAME_MAX, MAX_LISTS_PER_USER } from '../user-data/limits.ts';

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

function watchlistOf(row: Row): Watchlist {
  return {
    id: Number(row.id),
    number: Number(row.number),
    name: row.name,
    description: row.description,
    total_objects: Number(row.total_objects),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function selectWatchlists(db: Db, userId: number) {
  return db.kysely
    .selectFrom('watchlists as w')
    .select(['w.id', 'w.number', 'w.name', 'w.description', 'w.created_at', 'w.updated_at'])
    .select(
      sql<number>`(select count(*) from watchlist_objects o where o.user_id = w.user_id and o.watchlist_id = w.id)`.as(
        'total_objects',
      ),
    )
    .where('w.user_id', '=', userId);
}

/** A user's lists, newest first, filtered by name or description text and by creation day. */
export async function listWatchlists(db: Db, userId: number, query: ListQuery = {}): Promise<Page<Watchlist>> {
  const size = pageSize(query.count);
  const { start, end } = dayRange(query.from, query.to);
  let select = selectWatchlists(db, userId);
  if (query.q) {
    const pattern = containsPattern(cleanText(query.q));
    select = select.where((eb) => eb.or([eb('w.name', 'ilike', pattern), eb('w.description', 'ilike', pattern)]));
  }
  if (start) select = select.where('w.created_at', '>=', start);
  if (end) select = select.where('w.created_at', '<', end);
  if (query.after !== undefined)
    select = select.where(keysetAfter('w', 'watchlists', 'created_at', userId, query.after));
  const rows = await select
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(size + 1)
    .execute();
  return pageOf(rows.map(watchlistOf), size);
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

export async function getWatchlist(db: Db, userId: number, id: number): Promise<Watchlist | null> {
  const row = await selectWatchlists(db, userId).where('w.id', '=', id).executeTakeFirst();
  return row ? watchlistOf(row) : null;
}

export async function getWatchlistByNumber(db: Db, userId: number, number: number): Promise<Watchlist | null> {
  const row = await selectWatchlists(db, userId).where('w.number', '=', number).executeTakeFirst();
  return row ? watchlistOf(row) : null;
}

/** The caller's list or a 404 (someone else's list is not found either). */
export async function requireWatchlist(db: Db, userId: number, id: number): Promise<Watchlist> {
  const list = await getWatchlist(db, userId, id);
  if (!list) throw notFound('list');
  return list;
}

/** Creates a list with the user's next list number. */
export async function createWatchlist(db: Db, userId: number, input: WatchlistInput): Promise<Watchlist> {
  const clean = cleanWatchlistInput(input, true);
  const held = await db.kysely
    .selectFrom('watchlists')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(held.n) >= MAX_LISTS_PER_USER) throw invalidUserData({ lists: 'tooMany' });
  // Two creations at once may pick the same number: the unique key refuses one, which tries again.
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await db.kysely
        .insertInto('watchlists')
        .columns(['user_id', 'number', 'name', 'description'])
        .expression((eb) =>
          eb
            .selectFrom('watchlists')
            .select([
              sql<number>`${userId}::bigint`.as('user_id'),
              sql<number>`coalesce(max(number), 0) + 1`.as('number'),
              sql<string>`${clean.name!}::text`.as('name'),
              sql<string>`${clean.description ?? ''}::text`.as('description'),
            ])
            .where('user_id', '=', userId),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await getWatchlist(db, userId, Number(row.id)))!;
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** Renames a list and/or changes its description. */
export async function updateWatchlist(db: Db, userId: number, id: number, input: WatchlistInput): Promise<Watchlist> {
  const clean = cleanWatchlistInput(input, false);
  const result = await db.kysely
    .updateTable('watchlists')
    .set({ ...clean, updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('list');
  return (await getWatchlist(db, userId, id))!;
}

/** Deletes a list and its objects. */
export async function deleteWatchlist(db: Db, userId: number, id: number): Promise<void> {
  const result = await db.kysely
    .deleteFrom('watchlists')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('list');
}
