import type { Db } from '../../db/client.ts';
import { assertCompanyVisible } from '../takedowns/visible.ts';
import {
  COMPANY_REF_COLUMNS,
  COMPANY_REF_NAME,
  type CompanyRef,
  type CompanyRefRow,
  companyRefOf,
} from '../user-data/company-ref.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import {
  clearOwned,
  deleteOwned,
  getOwned,
  listOwned,
  type OwnedResource,
  textIn,
  updateOwned,
} from '../user-data/owned-records.ts';
import { invalidUserData } from '../user-data/user-data-errors.ts';

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
  company: CompanyRef | null;
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

/** Adds an entry (the API's POST): the company must exist and be visible. */
export async function addCompanyView(
  db: Db,
  userId: number,
  companyId: number,
  now = new Date(),
): Promise<BrowsingEntry> {
  await assertCompanyVisible(db, companyId, 'object_id');
  const row = await db.kysely
    .insertInto('browsing_history')
    .values({ user_id: userId, legal_entity_id: companyId, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await getCompanyView(db, userId, Number(row.id)))!;
}

type ViewRow = { id: number; legal_entity_id: number; created_at: Date } & CompanyRefRow;

/** The browsing history as a user's records (core/user-data/owned-records.ts). */
export const BROWSING_HISTORY: OwnedResource<ViewRow, BrowsingEntry> = {
  table: 'browsing_history',
  alias: 'h',
  noun: 'browsing history entry',
  select: (db, userId) =>
    db.kysely
      .selectFrom('browsing_history as h')
      .leftJoin('legal_entities as b', 'b.id', 'h.legal_entity_id')
      .select(['h.id', 'h.legal_entity_id', 'h.created_at', ...COMPANY_REF_COLUMNS])
      .where('h.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    object_id: Number(row.legal_entity_id),
    created_at: new Date(row.created_at).toISOString(),
    company: companyRefOf(row),
  }),
  search: textIn(COMPANY_REF_NAME),
};

/** A user's views, newest first: by company name text and by day. */
export function listCompanyViews(db: Db, userId: number, query: ListQuery = {}): Promise<Page<BrowsingEntry>> {
  return listOwned(db, BROWSING_HISTORY, userId, query);
}

export function getCompanyView(db: Db, userId: number, id: number): Promise<BrowsingEntry | null> {
  return getOwned(db, BROWSING_HISTORY, userId, id);
}

/** Changes when a view happened (not into the future); without a time, it becomes now. */
export function updateCompanyView(
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
  return updateOwned(db, BROWSING_HISTORY, userId, id, { created_at: when });
}

export function deleteCompanyView(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, BROWSING_HISTORY, userId, id);
}

/** Clears a user's browsing history (or the days of a range); returns how many entries went. */
export function clearCompanyViews(db: Db, userId: number, range: { from?: string; to?: string } = {}): Promise<number> {
  return clearOwned(db, BROWSING_HISTORY, userId, range);
}
