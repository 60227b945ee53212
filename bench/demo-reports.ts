// Update reports after a demo day (docs/decisions/0015-monitoring.md; the demo: 0014-importers.md
// "Demo updates"): on the PostgreSQL database of DATABASE_URL (created, migrated and seeded up to
// --companies when it has fewer), --users users track --trackings companies between them (active demo
// companies with an LEI, each user a window of its own), then one demo day is imported through the real
// importers — `advanceDemo` (GLEIF and Companies House deltas, a few tracked companies changed,
// records) plus a GLEIF delta in the demo's layout that moves `--changed` (default 10%) of the
// tracked companies — and the monitoring-reports job the imports queued is run as the worker runs
// it: every report built, then notifications and digest emails into the outbox. The time of that
// job is what the target bounds (≤ 30 s for 10,000 trackings). It removes its users, their reports
// and the outbox rows afterwards; the imported changes stay (as a real day's would).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/registra_bench_demo \
//     npx node bench/demo-reports.ts [--companies 100000] [--trackings 10000] [--users 100] [--changed 0.1] [--explain]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { createMailer } from '../core/email/mailer.ts';
import { i18nFor } from '../core/i18n/i18n.ts';
import { runImport } from '../core/imports/run-import.ts';
import { gleifLei } from '../core/imports/sources/gleif-lei.ts';
import { MONITORING_REPORTS_JOB } from '../core/monitoring/enqueue-reports.ts';
import { type Lang, loadReference } from '../core/reference/reference-data.ts';
import { openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { advanceDemo, leiFileXml } from '../db/seed/demo-advance.ts';
import { seedCompanies } from '../db/seed/seed-companies.ts';
import { drainJobs } from '../jobs/worker.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '100000' },
    trackings: { type: 'string', default: '10000' },
    users: { type: 'string', default: '100' },
    changed: { type: 'string', default: '0.1' },
    explain: { type: 'boolean', default: false },
  },
});
const COMPANIES = Number(values.companies);
const TRACKINGS = Number(values.trackings);
const USERS = Number(values.users);
const CHANGED = Number(values.changed);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench_demo';
const log = (message: string) => console.log(`[demo-reports ${new Date().toISOString().slice(11, 19)}] ${message}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Creates the database when it does not exist (on the server of `url`). */
async function ensureDatabase(): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    if ((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) {
      log(`creating database ${name}`);
      await client.query(`create database "${name.replaceAll('"', '""')}"`);
    }
  } finally {
    await client.end();
  }
}

await ensureDatabase();
const db = await openPostgres(url, 4);
const k = db.kysely;
await migrate(db);
await loadReferenceData(db);
const count = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(k)).rows[0].n;
const have = await count();
if (have < COMPANIES) {
  log(`seeding ${(COMPANIES - have).toLocaleString('en')} companies (have ${have.toLocaleString('en')})…`);
  const started = performance.now();
  await seedCompanies(db, { companies: COMPANIES - have, seed: 1 });
  log(`seeded in ${seconds(performance.now() - started)}; vacuum analyze…`);
  await sql`vacuum analyze`.execute(k);
}
const companies = await count();
const reference = await loadReference(db);
const translate = (lang: Lang) => {
  const { t } = i18nFor(lang);
  return (key: string, v?: Record<string, unknown>) => (v ? t(key, v) : t(key));
};
const quiet = { info: () => {}, error: () => {} };
const mailer = createMailer({ db, settings: { from: 'bench <b@localhost>' }, log: quiet, translate });
const tag = `bench-demo-${Date.now().toString(36)}`;
const dir = await mkdtemp(join(tmpdir(), 'registra-demo-reports-'));
try {
  // Nothing else waits to be reported: the trackings start from the newest change.
  await drainJobs({
    services: { db, reference, mailer, siteUrl: 'http://localhost:3000', translate },
    log: quiet,
    daily: false,
  });
  const start = Number(
    (await sql<{ m: string | null }>`select max(id) as m from company_changes`.execute(k)).rows[0].m ?? 0,
  );

  // The tracked companies: demo companies with an LEI and a registered address (those a GLEIF delta moves).
  const perUser = Math.ceil(TRACKINGS / USERS);
  const pool = await sql<{
    id: string;
    lei: string;
    name: string;
    country: string;
    jurisdiction: string;
    number: string | null;
    registered_on: string | null;
  }>`select l.id, i.identifier as lei, l.name, loc.country_code as country,
      coalesce(loc.subdivision_code, loc.country_code) as jurisdiction, n.identifier as number,
      l.registered_on::text as registered_on
    from legal_entity_identifiers i
    join legal_entities l on l.id = i.legal_entity_id
    join statuses s on s.id = l.status_id and s.uri = 'active'
    join locations loc on loc.id = l.jurisdiction_id
    left join legal_entity_identifiers n on n.legal_entity_id = l.id and n.identifier_type_id = 2 and n.position = 0
    where i.identifier_type_id = 5 and i.position = 0
      and not exists (select 1 from company_changes c where c.legal_entity_id = l.id and c.field = 'company')
    order by md5(l.id::text || ${tag}) limit ${TRACKINGS}`.execute(k);
  if (pool.rows.length < perUser) throw new Error(`only ${pool.rows.length} demo companies with an LEI`);
  const userIds: number[] = [];
  for (let u = 0; u < USERS; u++) {
    const row = await k
      .insertInto('users')
      .values({ email: `${tag}.${u}@example.com`, name: `Bench ${u}`, password_hash: 'x', activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.push(Number(row.id));
  }
  let made = 0;
  for (const [u, userId] of userIds.entries()) {
    const n = Math.min(perUser, TRACKINGS - made);
    const ids = Array.from({ length: n }, (_, i) => pool.rows[(u * perUser + i) % pool.rows.length].id);
    await sql`insert into existing_objects_tracking (user_id, legal_entity_id, last_change_id)
      select ${userId}, id, ${start} from unnest(${ids}::bigint[]) id on conflict do nothing`.execute(k);
    made += n;
  }
  const trackings = Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from existing_objects_tracking
        where user_id = any(${userIds}::bigint[])`.execute(k)
    ).rows[0].n,
  );
  const tracked = Number(
    (
      await sql<{ n: number }>`select count(distinct legal_entity_id)::int as n from existing_objects_tracking
        where user_id = any(${userIds}::bigint[])`.execute(k)
    ).rows[0].n,
  );
  log(`${trackings.toLocaleString('en')} trackings of ${tracked.toLocaleString('en')} companies by ${USERS} users`);

  // The day: a demo day, then a delta moving a share of the tracked companies (the demo's GLEIF layout).
  const day = new Date().toISOString().slice(0, 10);
  const importStarted = performance.now();
  await advanceDemo(db, { days: 1, dir });
  // Spread over the users: every (1 / --changed)th tracked company.
  const every = Math.max(1, Math.round(1 / CHANGED));
  const moving = pool.rows.slice(0, TRACKINGS).filter((_, i) => i % every === 0);
  const file = join(dir, `${day.replaceAll('-', '')}-bench-gleif-lei2-delta.xml`);
  await writeFile(
    file,
    leiFileXml(
      day,
      moving.map((c, n) => ({
        lei: c.lei,
        name: c.name,
        country: c.country,
        jurisdiction: c.jurisdiction,
        number: c.number,
        address: { lines: [`${n + 1} Bench Street`], city: 'Benchton', postCode: null },
        active: true,
        createdOn: c.registered_on,
        lastUpdate: `${day}T07:${String(n % 60).padStart(2, '0')}:00Z`,
      })),
    ),
  );
  const summary = await runImport(db, gleifLei, [file]);
  const importMs = performance.now() - importStarted;
  const queued = await k
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', MONITORING_REPORTS_JOB)
    .where('status', '=', 'queued')
    .executeTakeFirstOrThrow();
  log(
    `imported a demo day and a delta of ${moving.length.toLocaleString('en')} moved companies ` +
      `(${summary.changed} changed) in ${seconds(importMs)}; ${queued.n} monitoring reports job queued`,
  );

  if (values.explain) {
    const upTo = Number((await sql<{ m: string }>`select max(id) as m from company_changes`.execute(k)).rows[0].m);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers)
      select t.user_id, t.id, t.legal_entity_id, count(*)
      from existing_objects_tracking t
      join company_changes c on c.legal_entity_id = t.legal_entity_id
        and c.id > t.last_change_id and c.id <= ${upTo} and c.field <> 'company'
      where t.status = 'active' and t.last_change_id < ${upTo}
      group by t.user_id, t.id, t.legal_entity_id`.execute(k);
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  }

  // The job, as the worker runs it: build every report, then notifications and digests.
  const jobStarted = performance.now();
  const ran = await drainJobs({
    services: { db, reference, mailer, siteUrl: 'http://localhost:3000', translate },
    log: quiet,
    daily: false,
  });
  const jobMs = performance.now() - jobStarted;
  const built = await sql<{ reports: number; users: number; changes: number }>`
    select count(*)::int as reports, count(distinct user_id)::int as users, coalesce(sum(updates), 0)::int as changes
    from existing_objects_reports where user_id = any(${userIds}::bigint[])`.execute(k);
  const told = await sql<{ n: number }>`select count(*)::int as n from notifications
    where user_id = any(${userIds}::bigint[]) and kind = 'tracking_updates'`.execute(k);
  const mails = await sql<{
    n: number;
  }>`select count(*)::int as n from email_outbox where to_address like ${`${tag}.%`}`.execute(k);
  const r = built.rows[0];
  console.log(
    `| update reports after a demo day: ${trackings.toLocaleString('en')} active company trackings ` +
      `(${USERS} users), ${companies.toLocaleString('en')} companies, a demo day + ${moving.length.toLocaleString('en')} ` +
      `tracked companies moved (\`bench/demo-reports.ts\`) | the monitoring-reports job (${ran} run): **${seconds(jobMs)}** ` +
      `(target ≤ 30 s): ${r.reports.toLocaleString('en')} reports with ${r.changes.toLocaleString('en')} changes for ` +
      `${r.users} users, ${told.rows[0].n} notifications, ${mails.rows[0].n} digest emails; the imports took ${seconds(importMs)} |`,
  );
} finally {
  await mailer.close();
  await k.deleteFrom('email_outbox').where('to_address', 'like', `${tag}.%`).execute();
  await k.deleteFrom('users').where('email', 'like', `${tag}.%`).execute();
  await rm(dir, { recursive: true, force: true });
  await db.close();
}
