import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { COMPANY_REF_COLUMNS, type CompanyRef, companyRefOf } from '../user-data/company-ref.ts';
import type { TrackingStatus } from './tracking-status.ts';

// When the companies a user follows last changed (the dashboard, docs/decisions/0015-monitoring.md
// "The dashboard"): the newest change Registra recorded for a company (company_changes, not its
// first appearance), read from the (legal_entity_id, id desc) index one company at a time.

/** The moment of a company's newest change (`company` names its id column), or null. */
export function lastChangeOf(company: string): RawBuilder<Date | null> {
  return sql<Date | null>`(select c.observed_at from company_changes c
    where c.legal_entity_id = ${sql.ref(company)} and c.field <> 'company'
    order by c.id desc limit 1)`;
}

/** "Changed this week": the last seven days up to `now`. */
export function weekBefore(now: Date): Date {
  return new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000);
}

export type TrackedCompanyChange = {
  tracking_id: number;
  status: TrackingStatus;
  /** The company as it is now; null when it is gone or taken down. */
  company: CompanyRef | null;
  /** Its newest change, ISO; null when none was recorded. */
  last_change: string | null;
};

export type TrackedCompaniesOverview = {
  /** Companies the user tracks. */
  total: number;
  /** Of them, the ones that changed since `since`. */
  changed: number;
  /** The most recently changed first (never changed last), at most `count`. */
  data: TrackedCompanyChange[];
};

/** A user's tracked companies by their last change; `changedOnly`: only those changed since `since`. */
export async function trackedCompaniesByChange(
  db: Db,
  userId: number,
  query: { since: Date; count: number; changedOnly?: boolean },
): Promise<TrackedCompaniesOverview> {
  const tracked = db.kysely
    .selectFrom('existing_objects_tracking as t')
    .leftJoin('legal_entities as b', (join) => join.onRef('b.id', '=', 't.legal_entity_id').on(visibleCompany('b')))
    .where('t.user_id', '=', userId)
    .select(['t.id', 't.status', ...COMPANY_REF_COLUMNS])
    .select(lastChangeOf('b.id').as('last_change'));
  const [counts, rows] = await Promise.all([
    db.kysely
      .selectFrom(tracked.as('x'))
      .select((eb) => [
        eb.fn.countAll<string>().as('total'),
        sql<string>`count(*) filter (where x.last_change >= ${query.since})`.as('changed'),
      ])
      .executeTakeFirstOrThrow(),
    db.kysely
      .selectFrom(tracked.as('x'))
      .selectAll()
      .$if(Boolean(query.changedOnly), (q) => q.where('x.last_change', '>=', query.since))
      .orderBy(sql`x.last_change desc nulls last`)
      .orderBy('x.id', 'desc')
      .limit(query.count)
      .execute(),
  ]);
  return {
    total: Number(counts.total),
    changed: Number(counts.changed),
    data: rows.map((r) => ({
      tracking_id: Number(r.id),
      status: r.status,
      company: companyRefOf(r),
      last_change: r.last_change ? new Date(r.last_change).toISOString() : null,
    })),
  };
}

export type ListChanges = { last_change: string | null; changed: number };

/** For each of the user's lists named: its companies' newest change, and how many changed since `since`. */
export async function listsLastChanges(
  db: Db,
  userId: number,
  listIds: number[],
  since: Date,
): Promise<Map<number, ListChanges>> {
  if (listIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom(
      db.kysely
        .selectFrom('watchlist_objects as o')
        .innerJoin('legal_entities as b', 'b.id', 'o.legal_entity_id')
        .where('o.user_id', '=', userId)
        .where('o.watchlist_id', 'in', listIds)
        .where(visibleCompany('b'))
        .select(['o.watchlist_id'])
        .select(lastChangeOf('b.id').as('last_change'))
        .as('x'),
    )
    .select(['x.watchlist_id'])
    .select((eb) => [
      eb.fn.max('x.last_change').as('last_change'),
      sql<string>`count(*) filter (where x.last_change >= ${since})`.as('changed'),
    ])
    .groupBy('x.watchlist_id')
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.watchlist_id),
      {
        last_change: r.last_change ? new Date(r.last_change as Date).toISOString() : null,
        changed: Number(r.changed),
      },
    ]),
  );
}
