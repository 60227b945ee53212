import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { trackCompany } from '../../core/monitoring/existing-trackings.ts';
import { listUpdateReports } from '../../core/monitoring/reports.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { advanceDemo, lifeStage, TRACKED_PER_USER } from '../../db/seed/demo-advance.ts';
import { DAY_RECORD_TABLES } from '../../db/seed/record-factory.ts';
import { drainJobs } from '../../jobs/worker.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser } from '../support/users.ts';

// The demo shows monitoring working (docs/decisions/0014-importers.md "Demo updates"): a newcomer
// who tracks a few companies and advances the demo gets update reports and notifications for each;
// the days also add and change records in the companies' sections; statuses follow a life cycle
// (never back); and advancing over the same days again changes nothing.

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'registra-demo-monitoring-'));
});
afterAll(async () => {
  await t?.db.close();
  await rm(dir, { recursive: true, force: true });
});

const quiet = { info: () => {}, error: () => {} };
const translate = (lang: Lang) => {
  const { t: tr } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
};

/** Runs the queued jobs (the monitoring reports run the imports enqueued), as the app's worker does. */
async function runWorker(): Promise<void> {
  const mailer = createMailer({ db: t.db, settings: { from: 'Registra <no-reply@localhost>' }, log: quiet, translate });
  try {
    await drainJobs({
      services: { db: t.db, reference: t.reference, mailer, siteUrl: 'http://localhost', translate },
      log: quiet,
      daily: false,
    });
  } finally {
    await mailer.close();
  }
}

/** Every record row of the kinds a day writes, as text (what "nothing changed" compares). */
async function recordRows(): Promise<string[]> {
  const out: string[] = [];
  for (const table of DAY_RECORD_TABLES) {
    const rows = await sql<{ row: unknown }>`select to_jsonb(r)::text as row from ${sql.table(table)} r
      order by legal_entity_id, id`.execute(t.db.kysely);
    out.push(...rows.rows.map((r) => `${table} ${r.row}`));
  }
  return out;
}

async function changeCount(): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from company_changes`.execute(t.db.kysely);
  return row.rows[0].n;
}

describe('demo advance shows monitoring working', () => {
  it('changes the tracked companies each day: reports, records, life cycles forward, the same days again change nothing', async () => {
    // A newcomer tracks three active demo companies: one with an LEI, one without, one of Great Britain.
    const pick = async (where: ReturnType<typeof sql>) =>
      (
        await sql<{ id: string }>`select l.id from legal_entities l
          join statuses s on s.id = l.status_id and s.uri = 'active'
          join locations loc on loc.id = l.jurisdiction_id
          join legal_entity_addresses a on a.legal_entity_id = l.id and a.address_type_id = 5 and a.position = 0
            and a.address_line_1 is not null and a.locality is not null
          join legal_entity_identifiers n on n.legal_entity_id = l.id and n.identifier_type_id = 2 and n.position = 0
          where ${where} order by l.id limit 1`.execute(t.db.kysely)
      ).rows.map((r) => Number(r.id));
    const hasLei = sql`exists (select 1 from legal_entity_identifiers i where i.legal_entity_id = l.id and i.identifier_type_id = 5)`;
    const tracked = [
      ...(await pick(sql`${hasLei} and loc.country_code <> 'GB'`)),
      ...(await pick(sql`not ${hasLei} and loc.country_code <> 'GB'`)),
      ...(await pick(sql`not ${hasLei} and loc.country_code = 'GB' and loc.subdivision_code is null`)),
    ];
    expect(tracked).toHaveLength(3);
    expect(tracked.length).toBeLessThanOrEqual(TRACKED_PER_USER);
    // Someone else already tracks a hundred companies: the newcomer's few are changed all the same.
    const other = await createSignedInUser(t.db, 'demo-monitoring-other');
    const others = await sql<{ id: string }>`select id from legal_entities where id <> all(${tracked}::bigint[])
      order by id desc limit 100`.execute(t.db.kysely);
    for (const row of others.rows) await trackCompany(t.db, other.id, Number(row.id));
    const user = await createSignedInUser(t.db, 'demo-monitoring');
    for (const id of tracked) await trackCompany(t.db, user.id, id);

    const today = new Date('2026-11-25T10:00:00Z');
    const recordsBefore = await recordRows();
    await advanceDemo(t.db, { days: 3, dir, today });
    await runWorker();

    // Each tracked company has an update report, and the user a notification that says so.
    const reports = await listUpdateReports(t.db, user.id, {});
    expect(reports.data.length).toBeGreaterThanOrEqual(3);
    const reported = await t.db.kysely
      .selectFrom('existing_objects_reports')
      .select('legal_entity_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(new Set(reported.map((r) => Number(r.legal_entity_id)))).toEqual(new Set(tracked));
    const notifications = await t.db.kysely
      .selectFrom('notifications')
      .select('kind')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'tracking_updates')
      .execute();
    expect(notifications.length).toBeGreaterThan(0);

    // Each tracked company got a record of the day (a new trademark, violation, permit or
    // inspection, or its permit approved) each of the three days.
    const recordsAfter = await recordRows();
    const added = recordsAfter.filter((r) => !recordsBefore.includes(r));
    for (const id of tracked)
      expect(added.filter((r) => r.includes(`"legal_entity_id": ${id},`)).length).toBeGreaterThanOrEqual(1);
    expect(added.length).toBeGreaterThanOrEqual(3 * 3);
    // … and each is in its company's update report, as a record change (ADR 0027).
    const told = await t.db.kysely
      .selectFrom('existing_objects_reports')
      .select(['legal_entity_id', 'changes'])
      .where('user_id', '=', user.id)
      .execute();
    for (const id of tracked) {
      const fields = told
        .filter((r) => Number(r.legal_entity_id) === id)
        .flatMap((r) => (r.changes as { field: string }[]).map((c) => c.field));
      expect(
        fields.some((f) => f.startsWith('records.')),
        `company ${id}: ${fields}`,
      ).toBe(true);
    }

    // The same three days again: no change, no record added or changed.
    const changes = await changeCount();
    await advanceDemo(t.db, { days: 3, dir, today });
    expect(await changeCount()).toBe(changes);
    expect(await recordRows()).toEqual(recordsAfter);

    // Ten days on: every status change of every company moved forward in its life cycle, a
    // dissolved company got its dissolution date, and GLEIF's entity status never came back to ACTIVE.
    await advanceDemo(t.db, { days: 10, dir, today: new Date('2026-12-05T10:00:00Z') });
    const statusChanges = await sql<{ legal_entity_id: string; old_value: string | null; new_value: string | null }>`
      select legal_entity_id, old_value, new_value from company_changes where field = 'status' order by id`.execute(
      t.db.kysely,
    );
    expect(statusChanges.rows.length).toBeGreaterThan(10);
    const backwards = statusChanges.rows.filter((c) => lifeStage(c.new_value) < lifeStage(c.old_value));
    expect(backwards).toEqual([]);
    const stages = new Set(statusChanges.rows.map((c) => c.new_value));
    expect(stages).toContain('in-liquidation');
    expect(stages).toContain('dissolved');
    const undated = await sql<{ id: string }>`select distinct c.legal_entity_id as id from company_changes c
      where c.field = 'status' and c.new_value = '"dissolved"'
        and not exists (select 1 from legal_entity_dates d join date_types dt on dt.id = d.date_type_id
          where d.legal_entity_id = c.legal_entity_id and dt.uri = 'dissolution')`.execute(t.db.kysely);
    expect(undated.rows).toEqual([]);
    const reactivated = await sql<{ n: number }>`select count(*)::int as n from company_changes
      where field = 'lei_registration' and old_value ->> 'entityStatus' = 'INACTIVE'
        and new_value ->> 'entityStatus' = 'ACTIVE'`.execute(t.db.kysely);
    expect(reactivated.rows[0].n).toBe(0);
  }, 300_000);
});
