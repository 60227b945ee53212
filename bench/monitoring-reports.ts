// Monitoring reports at scale (docs/decisions/0015-monitoring.md): on the PostgreSQL database of
// DATABASE_URL (with companies in it: `npm run cli -- db seed`), makes TRACKINGS active company
// trackings (spread over users, one per user and company) and 100 new-company trackings, records an
// update touching 1% of the tracked companies plus 1% new companies, and times one reports run
// (build, then notifications and digests into the outbox). It cleans up after itself.
//
//   DATABASE_URL=postgres://… npx node bench/monitoring-reports.ts [--trackings 10000]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createMailer } from '../core/email/mailer.ts';
import { i18nFor } from '../core/i18n/i18n.ts';
import { buildMonitoringReports } from '../core/monitoring/build-reports.ts';
import { tellUsers } from '../core/monitoring/tell-users.ts';
import { NEWEST_CHANGE_SQL } from '../core/monitoring/tracking-status.ts';
import { type Lang, loadReference } from '../core/reference/reference-data.ts';
import { openDatabase } from '../db/open-database.ts';

const { values } = parseArgs({ options: { trackings: { type: 'string', default: '10000' } } });
const trackings = Number(values.trackings);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database with companies.');
const db = await openDatabase({ databaseUrl: url, dataDir: '' });
const reference = await loadReference(db);
const k = db.kysely;
const companies = (await k.selectFrom('legal_entities').select('id').orderBy('id').limit(10_000).execute()).map((r) =>
  Number(r.id),
);
const perUser = Math.min(companies.length, 1000);
const users = Math.ceil(trackings / perUser);
const tag = `bench-${Date.now().toString(36)}`;
const translate = (lang: Lang) => {
  const { t } = i18nFor(lang);
  return (key: string, v?: Record<string, unknown>) => (v ? t(key, v) : t(key));
};
const quiet = { info: () => {}, error: () => {} };
const mailer = createMailer({ db, settings: { from: 'bench <b@localhost>' }, log: quiet, translate });
try {
  const userIds: number[] = [];
  for (let u = 0; u < users; u++) {
    const row = await k
      .insertInto('users')
      .values({ email: `${tag}.${u}@example.com`, name: `Bench ${u}`, password_hash: 'x', activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.push(Number(row.id));
  }
  const start = Number((await sql<{ m: number }>`select ${sql.raw(NEWEST_CHANGE_SQL)} as m`.execute(k)).rows[0].m);
  let made = 0;
  for (const userId of userIds) {
    const n = Math.min(perUser, trackings - made);
    // Each user tracks a different window of the companies.
    const offset = (userId * 37) % companies.length;
    const ids = Array.from({ length: n }, (_, i) => companies[(offset + i) % companies.length]);
    await sql`insert into existing_objects_tracking (user_id, legal_entity_id, last_change_id)
      select ${userId}, unnest(${ids}::bigint[]), ${start}`.execute(k);
    made += n;
  }
  for (let i = 0; i < 100; i++) {
    const jurisdiction = reference.locations.items[i % reference.locations.items.length].id;
    await k
      .insertInto('new_objects_tracking')
      .values({
        user_id: userIds[i % userIds.length],
        name: `Bench ${i}`,
        query: `/companies/search/?jurisdiction=${jurisdiction}`,
        last_change_id: start,
      })
      .execute();
  }
  const touched = companies.filter((_, i) => i % 100 === 0);
  await sql`insert into company_changes (legal_entity_id, field, old_value, new_value, source)
    select id, 'name', to_jsonb('Old ' || id), to_jsonb('New ' || id), 'bench' from unnest(${touched}::bigint[]) id`.execute(
    k,
  );
  await sql`insert into company_changes (legal_entity_id, field, source)
    select id, 'company', 'bench' from unnest(${companies.filter((_, i) => i % 100 === 50)}::bigint[]) id`.execute(k);

  const t0 = performance.now();
  const built = await buildMonitoringReports(db, reference);
  const t1 = performance.now();
  const digests = await tellUsers(db, built, { mailer, siteUrl: 'http://localhost:3000', translate, reference });
  const t2 = performance.now();
  const reports = [...built.users.values()].reduce((n, u) => n + u.updateReports.length + u.newReports.length, 0);
  console.log(
    `${made.toLocaleString('en')} company trackings (${users} users) + 100 new-company trackings, ${touched.length} companies changed: ` +
      `${reports} reports built in ${((t1 - t0) / 1000).toFixed(2)} s, ${digests} users told in ${((t2 - t1) / 1000).toFixed(2)} s ` +
      `(total ${((t2 - t0) / 1000).toFixed(2)} s)`,
  );
} finally {
  await mailer.close();
  await k.deleteFrom('email_outbox').where('to_address', 'like', `${tag}.%`).execute();
  await k.deleteFrom('users').where('email', 'like', `${tag}.%`).execute();
  await k.deleteFrom('company_changes').where('source', '=', 'bench').execute();
  await db.close();
}
