import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
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
import { invalidUserData, notFound } from '../user-data/user-data-errors.ts';

// Companies a signed-in user opened (spec §3 "browsing history": object_id, created_at). Only a
// signed-in user's profile views are written; guests cost nothing. Every function is scoped to the
// caller's user id: another user's entry is "not found".

/** A reload or a second look within this time moves the last entry rather than adding one. */
export const REVISIT_WINDOW_MS = 10 * 60 * 1000;

export type BrowsingEntry = {
  id: number;
  /** The company's id. */
  object_id: number;
  created_at: string;
  /** The company as it is now (null when it no longer exists). */
  company: { id: number; uri: string; name: string; jurisdiction_id: number } | null;
};

/** Records that a user opened a company's profile (a revisit within 10 minutes moves the last entry). */
export async function recordCompanyView(db: Db, userId: number, companyId: number, now = new Date()): Promise<void> {
  const touched = await db.kysely
    .updateTable('browsing_history')
    .set({ created_at: now })
    .where('user_id', '=', userId)
    .where('legal_entity_id', '=', companyId)
    .where('created_at', '>=', new Date(now.getTime() - REVISIT_WINDOW_MS))
    .executeTakeFirst();
  if (Number(touched.numUpdatedRows) > 0) return;
  await db.kysely
    .insertInto('browsing_history')
    .values({ user_id: userId, legal_entity_id: companyId, created_at: now })
    .execute();
}

/** Adds an entry (the API's POST): the company must exist. */
export async function addCompanyView(
  db: Db,
  userId: number,
  companyId: number,
  now = new Date(),
): Promise<BrowsingEntry> {
  const company = await db.kysely
    .selectFrom('legal_entities')
    .select('id')
    .where('id', '=', companyId)
    .executeTakeFirst();
  if (!company) throw new AppError('not_found', 'No company has this id.', { parameter: 'object_id' });
  const row = await db.kysely
    .insertInto('browsing_history')
    .values({ user_id: userId, legal_entity_id: companyId, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await getCompanyView(db, userId, Number(row.id)))!;
}

function selectViews(db: Db, userId: number) {
  return db.kysely
    .selectFrom('browsing_history as h')
    .leftJoin('legal_entities as b', 'b.id', 'h.legal_entity_id')
    .select(['h.id', 'h.legal_entity_id', 'h.created_at', 'b.id as company_id', 'b.uri', 'b.name', 'b.jurisdiction_id'])
    .where('h.user_id', '=', userId);
}

type ViewRow = {
  id: number;
  legal_entity_id: number;
  created_at: Date;
  company_id: number | null;
  uri: string | null;
  name: string | null;
  jurisdiction_id: number | null;
};

function entryOf(row: ViewRow): BrowsingEntry {
  return {
    id: Number(row.id),
    object_id: Number(row.legal_entity_id),
    created_at: new Date(row.created_at).toISOString(),
    company:
      row.company_id === null
        ? null
        : { id: Number(row.company_id), uri: row.uri!, name: row.name!, jurisdiction_id: Number(row.jurisdiction_id) },
  };
}

/** A user's views, newest first: by company name text and by day. */
export async function listCompanyViews(db: Db, userId: number, query: ListQuery = {}): Promise<Page<BrowsingEntry>> {
  const size = pageSize(query.count);
  const { start, end } = dayRange(query.from, query.to);
  let select = selectViews(db, userId);
  if (query.q) select = select.where('b.name', 'ilike', containsPattern(cleanText(query.q)));
  if (start) select = select.where('h.created_at', '>=', start);
  if (end) select = select.where('h.created_at', '<', end);
  if (query.after !== undefined)
    select = select.where(keysetAfter('h', 'browsing_history', 'created_at', userId, query.after));
  const rows = await select
    .orderBy('h.created_at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(size + 1)
    .execute();
  return pageOf(rows.map(entryOf), size);
}

export async function getCompanyView(db: Db, userId: number, id: number): Promise<BrowsingEntry | null> {
  const row = await selectViews(db, userId).where('h.id', '=', id).executeTakeFirst();
  return row ? entryOf(row) : null;
}

/** Changes when a view happened (not into the future); without a time, it becomes now. */
export async function updateCompanyView(
  db: Db,
  userId: number,
  id: number,
  input: { created_at?: string },
  now = new Date(),
): Promise<BrowsingEntry> {
  const when = input.created_at ? new Date(input.created_at) : now;
  if (Number.isNaN(when.getTime()) || when.getTime() > now.getTime() + 60_000) {
    throw invalidUserData({ created_at: 'future' });
  }
  const result = await db.kysely
    .updateTable('browsing_history')
    .set({ created_at: when })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('browsing history entry');
  return (await getCompanyView(db, userId, id))!;
}

export async function deleteCompanyView(db: Db, userId: number, id: number): Promise<void> {
  const result = await db.kysely
    .deleteFrom('browsing_history')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('browsing history entry');
}

/** Clears a user's browsing history (or the days of a range); returns how many entries went. */
export async function clearCompanyViews(
  db: Db,
  userId: number,
  range: { from?: string; to?: string } = {},
): Promise<number> {
  const { start, end } = dayRange(range.from, range.to);
  let query = db.kysely.deleteFrom('browsing_history').where('user_id', '=', userId);
  if (start) query = query.where('created_at', '>=', start);
  if (end) query = query.where('created_at', '<', end);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
