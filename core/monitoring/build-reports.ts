import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { plainNameQuery } from '../companies/name-query.ts';
import { MAX_NEW_COMPANIES_PER_REPORT } from '../limits.ts';
import type { Reference } from '../reference/reference-data.ts';
import { filterConditions } from '../search/filter-sql.ts';
import { companiesSection } from '../sections/companies.ts';
import { visibleCompany, visibleCompanyId } from '../takedowns/visible.ts';
import { searchStateOfPath } from '../user-data/search-path.ts';

// Builds the reports of every tracking from the change history (company_changes, migration 0014)
// up to the newest change (docs/decisions/0015-monitoring.md):
//  - an update report per tracked company that changed: each changed field, old → new, and each
//    record added, changed or removed (`records.<table>`), of the sections the tracking chose;
//  - a new-companies report per tracked search that new companies match ('company' changes),
//    matched by the search code itself (the section's filter SQL and the name query).
// Each tracking keeps the change cursor it was reported up to, so a change is reported once, and
// a run is one transaction under an advisory lock: two workers never report the same change.

/** What a run built, per user (for notifications and the digest). */
export type BuiltReports = {
  /** The newest change the run reported up to. */
  upTo: number;
  users: Map<number, { updateReports: number[]; newReports: number[] }>;
};

type NewTrackingRow = { id: number; user_id: number; query: string; last_change_id: number };

/** The SQL conditions of a tracked companies search on `legal_entities b`; null when it no longer parses. */
export function criteriaConditions(reference: Reference, query: string): Expression<SqlBool>[] | null {
  const state = searchStateOfPath(companiesSection, query);
  if (!state) return null;
  const conditions = filterConditions(companiesSection, state.filters, reference);
  const name = state.q ? plainNameQuery(state.q) : null;
  if (name) conditions.push(sql<SqlBool>`b.name_tsv @@ to_tsquery('simple', ${name.strict})`);
  return conditions;
}

/**
 * The tracking choice (existing_objects_tracking.sections) a change field (a column reference)
 * falls under: the record table of a `records.<table>` change, 'company' for the company's own fields
 * (docs/decisions/0027-monitored-records.md).
 */
function trackedSection(column: string): RawBuilder<string> {
  return sql<string>`(case when ${sql.ref(column)} like 'records.%' then substr(${sql.ref(column)}, 9) else 'company' end)`;
}

export async function buildMonitoringReports(db: Db, reference: Reference): Promise<BuiltReports> {
  return db.kysely.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'monitoring-reports');
    const newest = await trx
      .selectFrom('company_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const upTo = Number(newest?.id ?? 0);
    const users: BuiltReports['users'] = new Map();
    const of = (userId: number) => {
      let entry = users.get(userId);
      if (!entry) {
        entry = { updateReports: [], newReports: [] };
        users.set(userId, entry);
      }
      return entry;
    };

    // ---- update reports: one statement for every active tracking with changes past its cursor ----
    const built = await sql<{ user_id: string | number; id: string | number }>`
      insert into existing_objects_reports (user_id, tracking_id, legal_entity_id, changes, updates)
      select t.user_id, t.id, t.legal_entity_id,
        jsonb_agg(jsonb_build_object(
          'change_id', c.id, 'field', c.field, 'old', c.old_value, 'new', c.new_value,
          'source', c.source, 'source_date', c.source_date, 'observed_at', c.observed_at) order by c.id),
        count(*)
      from existing_objects_tracking t
      join company_changes c on c.legal_entity_id = t.legal_entity_id
        and c.id > t.last_change_id and c.id <= ${upTo} and c.field <> 'company'
        and (t.sections is null or ${trackedSection('c.field')} = any(t.sections))
      where t.status = 'active' and t.last_change_id < ${upTo} and ${visibleCompanyId('t.legal_entity_id')}
      group by t.user_id, t.id, t.legal_entity_id
      returning user_id, id`.execute(trx);
    for (const row of built.rows) of(Number(row.user_id)).updateReports.push(Number(row.id));
    // Every tracking is now reported up to the newest change; a paused one skips what changed
    // while paused (resuming starts from the resumption, not with a backlog).
    await trx
      .updateTable('existing_objects_tracking')
      .set({ last_change_id: upTo })
      .where('last_change_id', '<', upTo)
      .execute();

    // ---- new-companies reports: the companies that appeared past each tracking's cursor ----
    const trackings = (await trx
      .selectFrom('new_objects_tracking')
      .select(['id', 'user_id', 'query', 'last_change_id'])
      .where('status', '=', 'active')
      .where('last_change_id', '<', upTo)
      .orderBy('id')
      .execute()) as NewTrackingRow[];
    const since = Math.min(...trackings.map((t) => Number(t.last_change_id)));
    const anyNew =
      trackings.length > 0 &&
      (await trx
        .selectFrom('company_changes')
        .select('id')
        .where('field', '=', 'company')
        .where('id', '>', since)
        .where('id', '<=', upTo)
        .limit(1)
        .executeTakeFirst()) !== undefined;
    for (const tracking of anyNew ? trackings : []) {
      let conditions: Expression<SqlBool>[] | null;
      try {
        conditions = criteriaConditions(reference, tracking.query);
      } catch {
        // A filter value that names nothing any more (a reference row gone): nothing can match it.
        conditions = null;
      }
      if (!conditions) continue;
      // A company taken down is reported to nobody (ADR 0021).
      const appeared = sql<SqlBool>`b.id in (select c.legal_entity_id from company_changes c
        where c.field = 'company' and c.id > ${tracking.last_change_id} and c.id <= ${upTo})
        and ${visibleCompany('b')}`;
      const rows = await sql<{ id: string | number }>`select b.id from legal_entities b
        where ${sql.join([appeared, ...conditions], sql` and `)}
        order by b.id limit ${MAX_NEW_COMPANIES_PER_REPORT + 1}`.execute(trx);
      if (rows.rows.length === 0) continue;
      const ids = rows.rows.slice(0, MAX_NEW_COMPANIES_PER_REPORT).map((r) => Number(r.id));
      const total =
        rows.rows.length > MAX_NEW_COMPANIES_PER_REPORT
          ? Number(
              (
                await sql<{ n: string }>`select count(*) as n from legal_entities b
                  where ${sql.join([appeared, ...conditions], sql` and `)}`.execute(trx)
              ).rows[0].n,
            )
          : ids.length;
      const report = await trx
        .insertInto('new_objects_reports')
        .values({ user_id: tracking.user_id, tracking_id: tracking.id, legal_entity_ids: ids, companies: total })
        .returning('id')
        .executeTakeFirstOrThrow();
      of(Number(tracking.user_id)).newReports.push(Number(report.id));
    }
    await trx
      .updateTable('new_objects_tracking')
      .set({ last_change_id: upTo })
      .where('last_change_id', '<', upTo)
      .execute();
    return { upTo, users };
  });
}
