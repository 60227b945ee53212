import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { MAX_NEW_COMPANY_TRACKINGS, TRACKING_NAME_MAX } from '../limits.ts';
import { companiesSection } from '../sections/companies.ts';
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
import { searchPathOf, searchStateOfPath } from '../user-data/search-path.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';
import { NEWEST_CHANGE_SQL, type TrackingStatus } from './tracking-status.ts';

// Searches a user tracks for new companies (spec §3 "new-company tracking": status, created_on,
// name). The criteria are a companies search, kept as its path (as saved searches are): the
// section's filters and name words, read by the search code itself when a report is built.

export type NewTracking = {
  id: number;
  name: string;
  /** The companies search whose new companies are reported: /companies/search/…?… */
  query: string;
  status: TrackingStatus;
  created_on: string;
  updated_at: string;
  /** New-companies reports made for it so far. */
  reports: number;
};

export type NewTrackingInput = { name?: string; query?: string; status?: TrackingStatus };

type Row = {
  id: number;
  name: string;
  query: string;
  status: TrackingStatus;
  created_at: Date;
  updated_at: Date;
  reports: number | string;
};

export const NEW_TRACKINGS: OwnedResource<Row, NewTracking, { status?: TrackingStatus }> = {
  table: 'new_objects_tracking',
  alias: 'n',
  noun: 'new-company tracking',
  select: (db, userId) =>
    db.kysely
      .selectFrom('new_objects_tracking as n')
      .select(['n.id', 'n.name', 'n.query', 'n.status', 'n.created_at', 'n.updated_at'])
      .select(
        sql<number>`(select count(*) from new_objects_reports r where r.user_id = n.user_id and r.tracking_id = n.id)`.as(
          'reports',
        ),
      )
      .where('n.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    name: row.name,
    query: row.query,
    status: row.status,
    created_on: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    reports: Number(row.reports),
  }),
  search: textIn('n.name'),
  filters: (query) => (query.status ? [columnIs('n.status', query.status)] : []),
};

/** The criteria as a companies search path that parses, or a 400 naming `query`. */
export function trackingQueryOf(value: string): string {
  const path = searchPathOf(companiesSection.id, value);
  if (!path || !searchStateOfPath(companiesSection, path)) {
    throw fieldProblem(
      'query',
      'invalid',
      'The criteria must be the path of a companies search, like /companies/search/?jurisdiction=276.',
    );
  }
  return path;
}

/** Name and criteria cleaned and checked (absent fields stay absent); a 400 names the bad one. */
export function cleanNewTrackingInput(input: NewTrackingInput, creating: boolean): NewTrackingInput {
  const out: NewTrackingInput = {};
  if (input.name !== undefined || creating) {
    const name = cleanText(input.name ?? '');
    if (name.length === 0) throw fieldProblem('name', 'required', 'Enter a name.');
    if ([...name].length > TRACKING_NAME_MAX)
      throw fieldProblem('name', 'tooLong', `Use at most ${TRACKING_NAME_MAX} characters for the name.`);
    out.name = name;
  }
  if (input.query !== undefined || creating) out.query = trackingQueryOf(input.query ?? '');
  if (input.status !== undefined) out.status = input.status;
  return out;
}

export function listNewTrackings(
  db: Db,
  userId: number,
  query: ListQuery & { status?: TrackingStatus } = {},
): Promise<Page<NewTracking>> {
  return listOwned(db, NEW_TRACKINGS, userId, query);
}

export function getNewTracking(db: Db, userId: number, id: number): Promise<NewTracking | null> {
  return getOwned(db, NEW_TRACKINGS, userId, id);
}

export function requireNewTracking(db: Db, userId: number, id: number): Promise<NewTracking> {
  return requireOwned(db, NEW_TRACKINGS, userId, id);
}

export async function createNewTracking(db: Db, userId: number, input: NewTrackingInput): Promise<NewTracking> {
  const clean = cleanNewTrackingInput(input, true);
  if ((await countOwned(db, NEW_TRACKINGS, userId)) >= MAX_NEW_COMPANY_TRACKINGS) {
    throw fieldProblem(
      'trackings',
      'tooMany',
      `You can keep at most ${MAX_NEW_COMPANY_TRACKINGS} new-company trackings: delete one first.`,
    );
  }
  const row = await db.kysely
    .insertInto('new_objects_tracking')
    .values({
      user_id: userId,
      name: clean.name!,
      query: clean.query!,
      status: clean.status ?? 'active',
      last_change_id: sql.raw(NEWEST_CHANGE_SQL),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return requireNewTracking(db, userId, Number(row.id));
}

/** Renames a tracking, changes its criteria or its status. */
export async function updateNewTracking(
  db: Db,
  userId: number,
  id: number,
  input: NewTrackingInput,
): Promise<NewTracking> {
  const clean = cleanNewTrackingInput(input, false);
  return updateOwned(db, NEW_TRACKINGS, userId, id, { ...clean, updated_at: new Date() });
}

export function setNewTrackingStatus(db: Db, userId: number, id: number, status: TrackingStatus): Promise<NewTracking> {
  return updateOwned(db, NEW_TRACKINGS, userId, id, { status, updated_at: new Date() });
}

export function deleteNewTracking(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, NEW_TRACKINGS, userId, id);
}
