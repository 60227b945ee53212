import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { CompanyRow } from '../companies/find-companies.ts';
import { townOf } from '../companies/parts/addresses.ts';
import { MAX_OBJECTS_PER_LIST, MAX_TAGS_PER_OBJECT, TAG_MAX } from '../limits.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { cleanText, type ListQuery, type Page } from '../user-data/list-query.ts';
import { listOwned, type OwnedResource, textIn } from '../user-data/owned-records.ts';
import { invalidUserData, notFound } from '../user-data/user-data-errors.ts';
import { existingCompanyIds, MAX_REFS } from './company-refs.ts';
import { requireWatchlist } from './watchlists.ts';

// The companies in a list (spec §3: objects with object_id and tags). Every function checks that
// the list is the caller's first: another user's list is "not found".

export { MAX_OBJECTS_PER_LIST, MAX_TAGS_PER_OBJECT, TAG_MAX } from '../limits.ts';

const COMPANY_NUMBER_TYPE = 2;

/** A company in a list: the company-table columns, when it was added, and its tags in this list. */
export type WatchlistObject = CompanyRow & {
  /** The row's own id: the cursor of the list's pages. */
  object_row_id: number;
  added_at: string;
  tags: string[];
};

/** Tags cleaned (trimmed, single spaces), without repeats; a 400 for an empty or too long one. */
export function cleanTags(raw: string[]): string[] {
  const tags: string[] = [];
  for (const value of raw) {
    const tag = cleanText(value);
    if (tag.length === 0) throw invalidUserData({ tag: 'required' });
    if ([...tag].length > TAG_MAX) throw invalidUserData({ tag: 'tooLong' });
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_TAGS_PER_OBJECT) throw invalidUserData({ tag: 'tooMany' });
  return tags;
}

/** Tags typed in one field: separated by commas. */
export function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export type AddResult = { added: number; already: number; notFound: number[]; tagged: number };

/**
 * Adds companies to a list (ids that are no company are reported, not added); with tags, the
 * tags are added to each of them, whether new in the list or already there.
 */
export async function addWatchlistObjects(
  db: Db,
  userId: number,
  watchlistId: number,
  companyIds: number[],
  rawTags: string[] = [],
): Promise<AddResult> {
  await requireWatchlist(db, userId, watchlistId);
  const wanted = [...new Set(companyIds)];
  if (wanted.length === 0) throw invalidUserData({ companies: 'required' });
  if (wanted.length > MAX_REFS) throw invalidUserData({ companies: 'tooMany' });
  const tags = cleanTags(rawTags);
  const companies = await existingCompanyIds(db, wanted);
  const ids = wanted.filter((id) => companies.has(id));
  const missing = wanted.filter((id) => !companies.has(id));
  if (ids.length === 0) return { added: 0, already: 0, notFound: missing, tagged: 0 };
  return db.kysely.transaction().execute(async (trx) => {
    const present = await trx
      .selectFrom('watchlist_objects')
      .select('legal_entity_id')
      .where('user_id', '=', userId)
      .where('watchlist_id', '=', watchlistId)
      .where('legal_entity_id', 'in', ids)
      .execute();
    const already = new Set(present.map((r) => Number(r.legal_entity_id)));
    const fresh = ids.filter((id) => !already.has(id));
    if (fresh.length > 0) {
      const held = await trx
        .selectFrom('watchlist_objects')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('watchlist_id', '=', watchlistId)
        .executeTakeFirstOrThrow();
      if (Number(held.n) + fresh.length > MAX_OBJECTS_PER_LIST) throw invalidUserData({ companies: 'listFull' });
      await trx
        .insertInto('watchlist_objects')
        .values(
          fresh.map((id) => ({
            user_id: userId,
            watchlist_id: watchlistId,
            legal_entity_id: id,
            tags: sql<string[]>`${tags}::text[]`,
          })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'watchlist_id', 'legal_entity_id']).doNothing())
        .execute();
    }
    let tagged = 0;
    if (tags.length > 0 && already.size > 0) {
      tagged = await mergeTags(trx, userId, watchlistId, [...already], tags);
    }
    await trx
      .updateTable('watchlists')
      .set({ updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', '=', watchlistId)
      .execute();
    return { added: fresh.length, already: already.size, notFound: missing, tagged };
  });
}

/** The database or a transaction on it. */
type Executor = Kysely<Database>;

async function mergeTags(
  db: Executor,
  userId: number,
  watchlistId: number,
  companyIds: number[],
  tags: string[],
): Promise<number> {
  const objects = await db
    .selectFrom('watchlist_objects')
    .select(['legal_entity_id', 'tags'])
    .where('user_id', '=', userId)
    .where('watchlist_id', '=', watchlistId)
    .where('legal_entity_id', 'in', companyIds)
    .execute();
  let updated = 0;
  for (const object of objects) {
    const merged = [...object.tags];
    for (const tag of tags) if (!merged.includes(tag)) merged.push(tag);
    if (merged.length === object.tags.length) continue;
    if (merged.length > MAX_TAGS_PER_OBJECT) throw invalidUserData({ tag: 'tooMany' });
    await db
      .updateTable('watchlist_objects')
      .set({ tags: sql<string[]>`${merged}::text[]` })
      .where('user_id', '=', userId)
      .where('watchlist_id', '=', watchlistId)
      .where('legal_entity_id', '=', object.legal_entity_id)
      .execute();
    updated += 1;
  }
  return updated;
}

/** Adds tags to companies already in a list; returns how many changed. */
export async function tagWatchlistObjects(
  db: Db,
  userId: number,
  watchlistId: number,
  companyIds: number[],
  rawTags: string[],
): Promise<number> {
  await requireWatchlist(db, userId, watchlistId);
  const tags = cleanTags(rawTags);
  if (tags.length === 0) throw invalidUserData({ tag: 'required' });
  if (companyIds.length === 0) throw invalidUserData({ companies: 'required' });
  return db.kysely.transaction().execute((trx) => mergeTags(trx, userId, watchlistId, companyIds, tags));
}

/** Removes companies from a list; returns how many were in it. */
export async function removeWatchlistObjects(
  db: Db,
  userId: number,
  watchlistId: number,
  companyIds: number[],
): Promise<number> {
  await requireWatchlist(db, userId, watchlistId);
  if (companyIds.length === 0) throw invalidUserData({ companies: 'required' });
  const result = await db.kysely
    .deleteFrom('watchlist_objects')
    .where('user_id', '=', userId)
    .where('watchlist_id', '=', watchlistId)
    .where('legal_entity_id', 'in', companyIds)
    .executeTakeFirst();
  const removed = Number(result.numDeletedRows);
  if (removed > 0) {
    await db.kysely
      .updateTable('watchlists')
      .set({ updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', '=', watchlistId)
      .execute();
  }
  return removed;
}

/** Removes a tag from some companies of a list, or from all of them; returns how many changed. */
export async function removeWatchlistTag(
  db: Db,
  userId: number,
  watchlistId: number,
  rawTag: string,
  companyIds?: number[],
): Promise<number> {
  await requireWatchlist(db, userId, watchlistId);
  const [tag] = cleanTags([rawTag]);
  let update = db.kysely
    .updateTable('watchlist_objects')
    .set({ tags: sql<string[]>`array_remove(tags, ${tag}::text)` })
    .where('user_id', '=', userId)
    .where('watchlist_id', '=', watchlistId)
    .where(sql<boolean>`${tag}::text = any(tags)`);
  if (companyIds !== undefined) {
    if (companyIds.length === 0) return 0;
    update = update.where('legal_entity_id', 'in', companyIds);
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type ObjectsQuery = Pick<ListQuery, 'q' | 'count' | 'after'> & { tag?: string };

/** The companies of one list as a user's records (core/user-data/owned-records.ts), paged by when they were added. */
function objectsOf(watchlistId: number): OwnedResource<ObjectRow, WatchlistObject, ObjectsQuery, 'watchlist_objects'> {
  return {
    table: 'watchlist_objects',
    alias: 'o',
    noun: 'company in this list',
    time: 'added_at',
    select: (db, userId) =>
      db.kysely
        .selectFrom('watchlist_objects as o')
        // A company taken down leaves the list as it reads (the row stays: restoring brings it back).
        .innerJoin('legal_entities as b', (join) =>
          join.onRef('b.id', '=', 'o.legal_entity_id').on(visibleCompany('b')),
        )
        .select([
          'o.id as object_row_id',
          'o.added_at',
          'o.tags',
          'b.id',
          'b.uri',
          'b.name',
          'b.status_id',
          'b.jurisdiction_id',
          'b.registered_on',
          'b.primary_industry_id',
          'b.size_id',
          'b.employees_id',
          'b.kind_id',
        ])
        .select([
          sql<string | null>`(select i.identifier from legal_entity_identifiers i
            where i.legal_entity_id = b.id and i.identifier_type_id = ${COMPANY_NUMBER_TYPE}
            order by i.position limit 1)`.as('company_number'),
          townOf('b').as('town'),
        ])
        .where('o.user_id', '=', userId)
        .where('o.watchlist_id', '=', watchlistId),
    itemOf: (r) => ({
      ...r,
      id: Number(r.id),
      object_row_id: Number(r.object_row_id),
      added_at: new Date(r.added_at).toISOString(),
      tags: r.tags ?? [],
    }),
    cursorOf: (o) => o.object_row_id,
    search: textIn('b.name'),
    filters: (query) => (query.tag ? [sql<SqlBool>`${cleanText(query.tag)}::text = any(o.tags)`] : []),
  };
}

type ObjectRow = Omit<WatchlistObject, 'added_at'> & { added_at: Date; tags: string[] | null };

/** The companies of a list, newest first: by legal name text and by tag. */
export async function listWatchlistObjects(
  db: Db,
  userId: number,
  watchlistId: number,
  query: ObjectsQuery = {},
): Promise<Page<WatchlistObject> & { tags: string[] }> {
  await requireWatchlist(db, userId, watchlistId);
  const page = await listOwned(db, objectsOf(watchlistId), userId, query);
  return { ...page, tags: await listTags(db, userId, watchlistId) };
}

/** Every tag used in a list, sorted. */
export async function listTags(db: Db, userId: number, watchlistId: number): Promise<string[]> {
  const rows = await sql<{ tag: string }>`select distinct t.tag from watchlist_objects o, unnest(o.tags) as t(tag)
    where o.user_id = ${userId} and o.watchlist_id = ${watchlistId} order by t.tag`.execute(db.kysely);
  return rows.rows.map((r) => r.tag);
}

/** The user's lists that hold a company (for its profile). */
export async function watchlistsOfCompany(
  db: Db,
  userId: number,
  companyId: number,
): Promise<{ id: number; number: number; name: string }[]> {
  const rows = await db.kysely
    .selectFrom('watchlist_objects as o')
    .innerJoin('watchlists as w', (join) =>
      join.onRef('w.user_id', '=', 'o.user_id').onRef('w.id', '=', 'o.watchlist_id'),
    )
    .select(['w.id', 'w.number', 'w.name'])
    .where('o.user_id', '=', userId)
    .where('o.legal_entity_id', '=', companyId)
    .orderBy('w.name')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), number: Number(r.number), name: r.name }));
}

/** A 404 unless every id is in the caller's list. */
export async function requireObjects(db: Db, userId: number, watchlistId: number, companyIds: number[]): Promise<void> {
  if (companyIds.length === 0) return;
  const rows = await db.kysely
    .selectFrom('watchlist_objects')
    .select('legal_entity_id')
    .where('user_id', '=', userId)
    .where('watchlist_id', '=', watchlistId)
    .where('legal_entity_id', 'in', companyIds)
    .execute();
  if (rows.length < new Set(companyIds).size) throw notFound('company in this list');
}
