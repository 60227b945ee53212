import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { MAX_TRACKED_COMPANIES } from '../limits.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import { findVisibleCompany } from '../takedowns/visible.ts';
import {
  COMPANY_REF_COLUMNS,
  COMPANY_REF_NAME,
  type CompanyRef,
  type CompanyRefRow,
  companyRefOf,
} from '../user-data/company-ref.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
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
import { fieldProblem } from '../user-data/user-data-errors.ts';
import { NEWEST_CHANGE_SQL, type TrackingStatus } from './tracking-status.ts';

/** What a tracking can choose to be told about: the company's own fields, and each record section (by table). */
export const TRACKED_SECTIONS = ['company', ...RECORD_SECTIONS.map((s) => s.table)] as [string, ...string[]];
export type TrackedSection = (typeof TRACKED_SECTIONS)[number];

export function isTrackedSection(value: string): value is TrackedSection {
  return TRACKED_SECTIONS.includes(value);
}

/** A choice as stored: null for everything (so that a section added later is reported too), or a 400 naming `sections`. */
export function trackedSectionsOf(sections: readonly string[] | null | undefined): TrackedSection[] | null {
  if (sections === null || sections === undefined) return null;
  const unknown = sections.filter((s) => !isTrackedSection(s));
  if (unknown.length > 0) {
    throw fieldProblem(
      'sections',
      'unknown',
      `Unknown section ${unknown.map((s) => JSON.stringify(s)).join(', ')}: use ${TRACKED_SECTIONS.join(', ')}.`,
    );
  }
  if (sections.length === 0) throw fieldProblem('sections', 'empty', 'Choose at least one section to be told about.');
  const chosen = TRACKED_SECTIONS.filter((s) => sections.includes(s));
  return chosen.length === TRACKED_SECTIONS.length ? null : chosen;
}

// Companies a user tracks for updates (spec §3 "existing-company tracking": status, created_on,
// name). A user's records (ADR 0007): every statement is scoped to the caller, another user's
// tracking is not found. Reports are built from company_changes (build-reports.ts).

export type ExistingTracking = {
  id: number;
  /** The company's legal name as it is now (spec §3 "name"); '' when the company is gone. */
  name: string;
  status: TrackingStatus;
  created_on: string;
  updated_at: string;
  company: CompanyRef | null;
  /** Update reports made for it so far. */
  reports: number;
  /** What it reports (TRACKED_SECTIONS); null = everything. */
  sections: TrackedSection[] | null;
};

type Row = CompanyRefRow & {
  id: number;
  legal_entity_id: number;
  status: TrackingStatus;
  created_at: Date;
  updated_at: Date;
  reports: number | string;
  sections: string[] | null;
};

/** Trackings as a user's records (core/user-data/owned-records.ts), with the company as it is now. */
export const EXISTING_TRACKINGS: OwnedResource<Row, ExistingTracking, { status?: TrackingStatus }> = {
  table: 'existing_objects_tracking',
  alias: 't',
  noun: 'company tracking',
  select: (db, userId) =>
    db.kysely
      .selectFrom('existing_objects_tracking as t')
      .leftJoin('legal_entities as b', 'b.id', 't.legal_entity_id')
      .select([
        't.id',
        't.legal_entity_id',
        't.status',
        't.sections',
        't.created_at',
        't.updated_at',
        ...COMPANY_REF_COLUMNS,
      ])
      .select(
        sql<number>`(select count(*) from existing_objects_reports r where r.user_id = t.user_id and r.tracking_id = t.id)`.as(
          'reports',
        ),
      )
      .where('t.user_id', '=', userId),
  itemOf: (row) => {
    const company = companyRefOf(row);
    return {
      id: Number(row.id),
      name: company?.name ?? '',
      status: row.status,
      created_on: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
      company,
      reports: Number(row.reports),
      sections: row.sections === null ? null : (row.sections.filter(isTrackedSection) as TrackedSection[]),
    };
  },
  search: textIn(COMPANY_REF_NAME),
  filters: (query) => (query.status ? [columnIs('t.status', query.status)] : []),
};

export function listExistingTrackings(
  db: Db,
  userId: number,
  query: ListQuery & { status?: TrackingStatus } = {},
): Promise<Page<ExistingTracking>> {
  return listOwned(db, EXISTING_TRACKINGS, userId, query);
}

export function getExistingTracking(db: Db, userId: number, id: number): Promise<ExistingTracking | null> {
  return getOwned(db, EXISTING_TRACKINGS, userId, id);
}

export function requireExistingTracking(db: Db, userId: number, id: number): Promise<ExistingTracking> {
  return requireOwned(db, EXISTING_TRACKINGS, userId, id);
}

/** The user's tracking of a company, or null (a profile's Track button). */
export async function trackingOfCompany(db: Db, userId: number, companyId: number): Promise<ExistingTracking | null> {
  const row = await EXISTING_TRACKINGS.select(db, userId)
    .where(columnIs('t.legal_entity_id', companyId))
    .executeTakeFirst();
  return row ? EXISTING_TRACKINGS.itemOf(row) : null;
}

/** Of these companies, the ids the user tracks (search results and lists mark them). */
export async function trackedAmong(db: Db, userId: number, companyIds: number[]): Promise<Set<number>> {
  if (companyIds.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('existing_objects_tracking')
    .select('legal_entity_id')
    .where('user_id', '=', userId)
    .where('legal_entity_id', 'in', companyIds)
    .execute();
  return new Set(rows.map((r) => Number(r.legal_entity_id)));
}

export type TrackResult = { tracking: ExistingTracking; created: boolean };

/**
 * Tracks a company (or says it is tracked already: the same tracking, unchanged). A company that
 * does not exist is a 400 naming `object_id`; the user's limit is core/limits.ts.
 */
export async function trackCompany(
  db: Db,
  userId: number,
  companyId: number,
  status: TrackingStatus = 'active',
  sections: readonly string[] | null = null,
): Promise<TrackResult> {
  const chosen = trackedSectionsOf(sections);
  const existing = await trackingOfCompany(db, userId, companyId);
  if (existing) return { tracking: existing, created: false };
  const company = await findVisibleCompany(db, companyId);
  if (!company) throw fieldProblem('object_id', 'unknown', `No company has the id ${companyId}.`);
  if ((await countOwned(db, EXISTING_TRACKINGS, userId)) >= MAX_TRACKED_COMPANIES) {
    throw fieldProblem(
      'object_id',
      'tooMany',
      `You can track at most ${MAX_TRACKED_COMPANIES.toLocaleString('en')} companies: stop tracking one first.`,
    );
  }
  const row = await db.kysely
    .insertInto('existing_objects_tracking')
    .values({
      user_id: userId,
      legal_entity_id: companyId,
      status,
      sections: chosen,
      last_change_id: sql.raw(NEWEST_CHANGE_SQL),
    })
    .onConflict((oc) => oc.columns(['user_id', 'legal_entity_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // Tracked by a request that ran at the same time: the same answer as tracking it twice.
  if (!row) return { tracking: (await trackingOfCompany(db, userId, companyId))!, created: false };
  return { tracking: await requireExistingTracking(db, userId, Number(row.id)), created: true };
}

/** Changes a tracking's status (active or paused). */
export function setExistingTrackingStatus(
  db: Db,
  userId: number,
  id: number,
  status: TrackingStatus,
): Promise<ExistingTracking> {
  return updateOwned(db, EXISTING_TRACKINGS, userId, id, { status, updated_at: new Date() });
}

/**
 * Chooses what a tracking reports (docs/decisions/0027-monitored-records.md): 'company' (the
 * company's own fields) and record sections by table; null or every one of them = everything.
 */
export function setExistingTrackingSections(
  db: Db,
  userId: number,
  id: number,
  sections: readonly string[] | null,
): Promise<ExistingTracking> {
  return updateExistingTracking(db, userId, id, { sections });
}

/** Changes a tracking's status, its sections, or both (what is not given stays). */
export function updateExistingTracking(
  db: Db,
  userId: number,
  id: number,
  changes: { status?: TrackingStatus; sections?: readonly string[] | null },
): Promise<ExistingTracking> {
  return updateOwned(db, EXISTING_TRACKINGS, userId, id, {
    status: changes.status,
    ...(changes.sections !== undefined ? { sections: trackedSectionsOf(changes.sections) } : {}),
    updated_at: new Date(),
  });
}

/** Stops tracking (its reports go with it). */
export function deleteExistingTracking(db: Db, userId: number, id: number): Promise<void> {
  return deleteOwned(db, EXISTING_TRACKINGS, userId, id);
}

/** Stops tracking a company by its id (the profile's "Stop tracking"); false when it was not tracked. */
export async function untrackCompany(db: Db, userId: number, companyId: number): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('existing_objects_tracking')
    .where('user_id', '=', userId)
    .where('legal_entity_id', '=', companyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
