import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { changesFor } from '../purchases/paywall.ts';
import { visibleChanges, visibleCompany, visibleCompanyIds } from '../takedowns/visible.ts';
import {
  COMPANY_REF_COLUMNS,
  COMPANY_REF_NAME,
  type CompanyRef,
  type CompanyRefRow,
  companyRefOf,
} from '../user-data/company-ref.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import { columnIs, listOwned, type OwnedResource, textIn } from '../user-data/owned-records.ts';

// The reports of a user's trackings, newest first (spec §2 "Update reports": Created on, Legal
// name, Jurisdiction, Updates; "New-company reports": Created on, Tracking, New companies). Built
// by build-reports.ts; read here, scoped to the caller like every user record (ADR 0007).

/** One changed field of a company: what it was, what it is, who said so. */
export type FieldChange = {
  change_id: number;
  field: string;
  old: unknown;
  new: unknown;
  source: string;
  source_date: string | null;
  /** When the import recorded it (reports built before it was copied have none: their day stands for it). */
  observed_at?: string;
};

export type UpdateReport = {
  id: number;
  tracking_id: number;
  created_on: string;
  /** The company as it is now; null when it is gone. */
  company: CompanyRef | null;
  updates: number;
  changes: FieldChange[];
};

export type NewCompaniesReport = {
  id: number;
  tracking_id: number;
  /** The tracking's name. */
  tracking: string;
  created_on: string;
  companies: number;
  company_ids: number[];
};

type UpdateRow = CompanyRefRow & {
  id: number;
  tracking_id: number;
  created_at: Date;
  updates: number;
  changes: unknown;
  /** The company is taken down (ADR 0021): the report keeps nothing of it to show. */
  hidden: boolean;
};

/**
 * The reports one run built for a user, as their first and last id: a run holds the reports lock
 * (build-reports.ts) and ids only grow, so a user's reports between the two are exactly that run's.
 * Notifications and the digest email link to them (`?reports=12-40`, one report `?reports=12`).
 */
export type ReportRange = { first: number; last: number };

/** The pages of the two kinds of report (without the language prefix). */
export const UPDATE_REPORTS_PATH = '/companies/monitoring/updates/reports/';
export const NEW_REPORTS_PATH = '/companies/monitoring/new/reports/';

/** A run's report ids as the `reports` parameter: "12-40", or "12" for one. */
export function reportRangeParam(ids: number[]): string {
  const first = Math.min(...ids);
  const last = Math.max(...ids);
  return first === last ? String(first) : `${first}-${last}`;
}

/** The `reports` parameter read back; null when it is not one. */
export function reportRangeOf(text: string | null | undefined): ReportRange | null {
  const match = /^(\d{1,15})(?:-(\d{1,15}))?$/.exec(text ?? '');
  if (!match) return null;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return last >= first ? { first, last } : null;
}

/** What a reports list keeps besides the common filters: one tracking, one run's reports. */
export type ReportFilters = { tracking_id?: number; reports?: ReportRange };

function reportFilters(query: ReportFilters): Expression<SqlBool>[] {
  return [
    ...(query.tracking_id ? [columnIs('r.tracking_id', query.tracking_id)] : []),
    ...(query.reports ? [sql<SqlBool>`r.id between ${query.reports.first} and ${query.reports.last}`] : []),
  ];
}

function jsonOf(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

export const UPDATE_REPORTS: OwnedResource<UpdateRow, UpdateReport, ReportFilters> = {
  table: 'existing_objects_reports',
  alias: 'r',
  noun: 'update report',
  select: (db, userId) =>
    db.kysely
      .selectFrom('existing_objects_reports as r')
      .leftJoin('legal_entities as b', 'b.id', 'r.legal_entity_id')
      .select(['r.id', 'r.tracking_id', 'r.created_at', 'r.updates', 'r.changes', ...COMPANY_REF_COLUMNS])
      .select(sql<boolean>`not ${visibleCompany('b')}`.as('hidden'))
      .where('r.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    tracking_id: Number(row.tracking_id),
    created_on: new Date(row.created_at).toISOString(),
    company: companyRefOf(row),
    updates: Number(row.updates),
    changes: row.hidden ? [] : ((jsonOf(row.changes) as FieldChange[]) ?? []),
  }),
  search: textIn(COMPANY_REF_NAME),
  filters: reportFilters,
};

type NewRow = {
  id: number;
  tracking_id: number;
  tracking: string;
  created_at: Date;
  companies: number;
  legal_entity_ids: (number | string)[];
};

export const NEW_COMPANIES_REPORTS: OwnedResource<NewRow, NewCompaniesReport, ReportFilters> = {
  table: 'new_objects_reports',
  alias: 'r',
  noun: 'new-companies report',
  select: (db, userId) =>
    db.kysely
      .selectFrom('new_objects_reports as r')
      .innerJoin('new_objects_tracking as n', (join) =>
        join.onRef('n.user_id', '=', 'r.user_id').onRef('n.id', '=', 'r.tracking_id'),
      )
      .select(['r.id', 'r.tracking_id', 'n.name as tracking', 'r.created_at', 'r.companies', 'r.legal_entity_ids'])
      .where('r.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    tracking_id: Number(row.tracking_id),
    tracking: row.tracking,
    created_on: new Date(row.created_at).toISOString(),
    companies: Number(row.companies),
    company_ids: row.legal_entity_ids.map(Number),
  }),
  search: textIn('n.name'),
  filters: reportFilters,
};

export async function listUpdateReports(
  db: Db,
  userId: number,
  query: ListQuery & ReportFilters = {},
): Promise<Page<UpdateReport>> {
  const page = await listOwned(db, UPDATE_REPORTS, userId, query);
  // A report copies the changes when it is built: the members taken down since are left out as they are read.
  const data = await Promise.all(
    page.data.map(async (report) => ({
      ...report,
      changes: await visibleReportChanges(db, report.changes, userId, report.company?.id ?? 0),
    })),
  );
  return { ...page, data };
}

/**
 * A report's copy of changes as the public may read them now (core/takedowns/visible.ts,
 * visibleChanges), and as its reader may: the contact details of a company they did not buy are
 * hidden (ADR 0029, core/purchases/paywall.ts).
 */
export async function visibleReportChanges(
  db: Db,
  changes: FieldChange[],
  userId: number,
  companyId: number,
): Promise<FieldChange[]> {
  const read = await changesFor(
    db,
    userId,
    await visibleChanges(
      db,
      changes.map((c) => ({ ...c, old_value: c.old, new_value: c.new })),
    ),
    () => companyId,
  );
  return read.map(({ old_value, new_value, ...c }) => ({ ...c, old: old_value, new: new_value }));
}

export async function listNewCompaniesReports(
  db: Db,
  userId: number,
  query: ListQuery & ReportFilters = {},
): Promise<Page<NewCompaniesReport>> {
  const page = await listOwned(db, NEW_COMPANIES_REPORTS, userId, query);
  // A company taken down since the report was built is no longer named in it (ADR 0021).
  const visible = new Set(await visibleCompanyIds(db, [...new Set(page.data.flatMap((r) => r.company_ids))]));
  return {
    ...page,
    data: page.data.map((r) => ({ ...r, company_ids: r.company_ids.filter((id) => visible.has(id)) })),
  };
}

/** The companies of reports, as they are now (gone and taken-down ones are left out), by id. */
export async function companiesOfReports(db: Db, ids: number[]): Promise<Map<number, CompanyRef>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('legal_entities as b')
    .select(['b.id', 'b.uri', 'b.name', 'b.jurisdiction_id'])
    .where('b.id', 'in', [...new Set(ids)])
    .where(visibleCompany('b'))
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), uri: r.uri, name: r.name, jurisdiction_id: Number(r.jurisdiction_id) },
    ]),
  );
}
