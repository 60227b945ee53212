import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { claimJob, enqueueJob } from '../../core/jobs/queue.ts';
import { enqueueDailyReports, enqueueReportsAfterImport } from '../../core/monitoring/enqueue-reports.ts';
import { setExistingTrackingStatus, trackCompany } from '../../core/monitoring/existing-trackings.ts';
import { createNewTracking } from '../../core/monitoring/new-trackings.ts';
import { listNewCompaniesReports, listUpdateReports } from '../../core/monitoring/reports.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { drainJobs, type JobDefinition, type JobServices, runOneJob, startWorker } from '../../jobs/worker.ts';
import { outbox } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The jobs table and its worker (FOR UPDATE SKIP LOCKED, retries, a failure record), and the
// monitoring reports built as jobs from company_changes: update reports (old → new), new-companies
// reports matched by the search code, the dashboard notifications and one digest email per user.

let t: TestDatabase;
let services: JobServices;
const quiet = { info: () => {}, error: () => {} };
const translate = (lang: Lang) => {
  const { t: tr } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
};

beforeAll(async () => {
  t = await openTestDatabase();
  const mailer = createMailer({ db: t.db, settings: { from: 'Registra <no-reply@localhost>' }, log: quiet, translate });
  services = { db: t.db, reference: t.reference, mailer, siteUrl: 'http://localhost:3000', translate };
});
afterAll(async () => {
  await services?.mailer.close();
  await t?.db.close();
});

function recorder(kind: string, ran: { id: number; worker: string }[], worker: string): JobDefinition<never> {
  return {
    kind,
    payload: z.object({ n: z.number() }) as unknown as z.ZodType<never>,
    async run(payload) {
      ran.push({ id: (payload as unknown as { n: number }).n, worker });
      await new Promise((resolve) => setTimeout(resolve, 2));
    },
  };
}

describe('the job queue', () => {
  it('two workers draining together never take the same job, and every job runs once', async () => {
    const ran: { id: number; worker: string }[] = [];
    for (let n = 0; n < 30; n++) await enqueueJob(t.db, 'test-echo', { n });
    const work = async (worker: string) => {
      const options = { services, log: quiet, definitions: [recorder('test-echo', ran, worker)], daily: false };
      while (await runOneJob(options, worker)) {
        // until no job is due
      }
    };
    await Promise.all([work('w1'), work('w2')]);
    expect(ran.map((r) => r.id).sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect(new Set(ran.map((r) => r.worker))).toEqual(new Set(['w1', 'w2']));
    const left = await t.db.kysely.selectFrom('jobs').select('status').where('kind', '=', 'test-echo').execute();
    expect(left.every((j) => j.status === 'done')).toBe(true);
  });

  it('a worker skips the job another one holds locked instead of waiting for it (PostgreSQL)', async () => {
    if (t.db.kind !== 'postgres') return; // PGlite has one connection: nothing runs beside a transaction.
    const first = await enqueueJob(t.db, 'test-lock', { n: 1 });
    const second = await enqueueJob(t.db, 'test-lock', { n: 2 });
    await t.db.kysely.transaction().execute(async (trx) => {
      await sql`select id from jobs where id = ${first} for update`.execute(trx);
      const claimed = await claimJob(t.db, 'other', ['test-lock']);
      expect(claimed?.id).toBe(second);
    });
    expect((await claimJob(t.db, 'other', ['test-lock']))?.id).toBe(first);
  });

  it('retries a failing job, then marks it failed with its error; a job that recovers is done', async () => {
    let calls = 0;
    const failing: JobDefinition<never> = {
      kind: 'test-fail',
      payload: z.object({}) as unknown as z.ZodType<never>,
      async run() {
        calls += 1;
        throw new Error('the registry is down');
      },
    };
    const id = await enqueueJob(t.db, 'test-fail', {}, { maxAttempts: 3 });
    const options = { services, log: quiet, definitions: [failing], retryDelay: () => 0, daily: false };
    expect(await drainJobs(options)).toBe(3);
    expect(calls).toBe(3);
    const job = await t.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'failed', attempts: 3, last_error: 'the registry is down' });
    expect(job.finished_at).not.toBeNull();

    let tries = 0;
    const flaky: JobDefinition<never> = {
      kind: 'test-flaky',
      payload: z.object({}) as unknown as z.ZodType<never>,
      async run() {
        tries += 1;
        if (tries === 1) throw new Error('once');
      },
    };
    const flakyId = await enqueueJob(t.db, 'test-flaky', {});
    await drainJobs({ ...options, definitions: [flaky] });
    const done = await t.db.kysely.selectFrom('jobs').selectAll().where('id', '=', flakyId).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'done', attempts: 2, last_error: 'once' });
  });

  it('stopping a worker stops its long job at the next step and queues it again, the attempt not counted', async () => {
    let steps = 0;
    let running: () => void = () => {};
    const begun = new Promise<void>((resolve) => {
      running = resolve;
    });
    const endless: JobDefinition<never> = {
      kind: 'test-endless',
      payload: z.object({}) as unknown as z.ZodType<never>,
      async run(_payload, { signal }) {
        running();
        for (;;) {
          signal.throwIfAborted();
          steps += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    };
    const id = await enqueueJob(t.db, 'test-endless', {});
    const worker = startWorker({ services, log: quiet, definitions: [endless], daily: false, pollMs: 10 });
    await begun;
    await worker.stop();
    const stepsAtStop = steps;
    const job = await t.db.kysely
      .selectFrom('jobs')
      .select(['status', 'attempts', 'locked_by', 'last_error'])
      .where('id', '=', Number(id))
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
    expect(job.last_error).toMatch(/shut down/);
    // Nothing runs on after the stop.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(steps).toBe(stepsAtStop);
    await t.db.kysely.deleteFrom('jobs').where('id', '=', Number(id)).execute();
  });

  it('keeps one queued reports run however many imports ask, and one daily run a day', async () => {
    const a = await enqueueReportsAfterImport(t.db, 1);
    const b = await enqueueReportsAfterImport(t.db, 2);
    expect(a).not.toBeNull();
    expect(b).toBeNull();
    const day = new Date('2031-05-06T10:00:00Z');
    expect(await enqueueDailyReports(t.db, day)).not.toBeNull();
    expect(await enqueueDailyReports(t.db, day)).toBeNull();
    await t.db.kysely.deleteFrom('jobs').where('kind', '=', 'monitoring-reports').execute();
  });
});

describe('monitoring reports', () => {
  it('are built after an import: changed fields old → new, new companies matching the criteria, told once', async () => {
    const [tracked, paused, fresh, other] = await someCompanies(t.db, 4, 200);
    const alice = await createSignedInUser(t.db, 'reports-alice');
    const bob = await createSignedInUser(t.db, 'reports-bob');
    await t.db.kysely.updateTable('users').set({ email_notifications: [] }).where('id', '=', bob.id).execute();
    const change = (id: number, field: string, oldValue: unknown, newValue: unknown) =>
      t.db.kysely
        .insertInto('company_changes')
        .values({
          legal_entity_id: id,
          field,
          old_value: oldValue === null ? null : sql`${JSON.stringify(oldValue)}::jsonb`,
          new_value: newValue === null ? null : sql`${JSON.stringify(newValue)}::jsonb`,
          source: 'ch-companies',
        })
        .execute();
    // Before anyone tracks it: never reported.
    await change(tracked.id, 'status', 'active', 'dormant');
    await trackCompany(t.db, alice.id, tracked.id);
    await trackCompany(t.db, bob.id, tracked.id);
    const pausedTracking = (await trackCompany(t.db, alice.id, paused.id)).tracking;
    await setExistingTrackingStatus(t.db, alice.id, pausedTracking.id, 'paused');
    const freshRow = await t.db.kysely
      .selectFrom('legal_entities')
      .select('jurisdiction_id')
      .where('id', '=', fresh.id)
      .executeTakeFirstOrThrow();
    const otherRow = await t.db.kysely
      .selectFrom('legal_entities')
      .select('jurisdiction_id')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(otherRow.jurisdiction_id).not.toBe(freshRow.jurisdiction_id);
    await createNewTracking(t.db, alice.id, {
      name: 'Here',
      query: `/companies/search/?jurisdiction=${freshRow.jurisdiction_id}`,
    });

    const imported = await t.db.kysely
      .insertInto('imports')
      .values({ source: 'ch-companies', file_name: 'x.csv', file_sha256: 'x', status: 'done' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await change(tracked.id, 'name', 'Old Name Ltd', 'New Name Ltd');
    await change(tracked.id, 'addresses.legal', null, { street: '1 High St', locality: 'Leeds' });
    await change(paused.id, 'name', 'A', 'B');
    await change(fresh.id, 'company', null, null);
    await change(other.id, 'company', null, null);
    await enqueueReportsAfterImport(t.db, Number(imported.id));
    expect(await drainJobs({ services, log: quiet, daily: false })).toBe(1);
    await services.mailer.settled();

    const aliceUpdates = await listUpdateReports(t.db, alice.id);
    expect(aliceUpdates.data).toHaveLength(1);
    const report = aliceUpdates.data[0];
    expect(report.company?.id).toBe(tracked.id);
    expect(report.updates).toBe(2);
    expect(report.changes.map((c) => [c.field, c.old, c.new])).toEqual([
      ['name', 'Old Name Ltd', 'New Name Ltd'],
      ['addresses.legal', null, { street: '1 High St', locality: 'Leeds' }],
    ]);
    expect((await listUpdateReports(t.db, bob.id)).data).toHaveLength(1);
    const aliceNew = await listNewCompaniesReports(t.db, alice.id);
    expect(aliceNew.data).toHaveLength(1);
    expect(aliceNew.data[0]).toMatchObject({ tracking: 'Here', companies: 1, company_ids: [fresh.id] });

    const notifications = await t.db.kysely
      .selectFrom('notifications')
      .select(['user_id', 'kind', 'data'])
      .where('user_id', 'in', [alice.id, bob.id])
      .orderBy('id')
      .execute();
    expect(notifications.map((n) => [Number(n.user_id), n.kind])).toEqual([
      [alice.id, 'tracking_updates'],
      [alice.id, 'new_companies'],
      [bob.id, 'tracking_updates'],
    ]);
    const mails = (await outbox(t.db, alice.email)).filter((m) => m.kind === 'monitoring_digest');
    expect(mails).toHaveLength(1);
    expect(mails[0].text_body).toContain('Legal name: Old Name Ltd → New Name Ltd');
    // A field the source fills for the first time is "first recorded", not a change from "(none)".
    expect(mails[0].text_body).toContain('Legal address: 1 High St, Leeds (first recorded)');
    expect(mails[0].text_body).not.toContain('(none)');
    expect(mails[0].text_body).toContain(fresh.name);
    expect(mails[0].text_body).toContain('http://localhost:3000/companies/monitoring/updates/reports/');
    // Bob chose no emails: told in the dashboard only.
    expect((await outbox(t.db, bob.email)).filter((m) => m.kind === 'monitoring_digest')).toHaveLength(0);

    // A second run has nothing new to say: no report, notification or email twice.
    await enqueueReportsAfterImport(t.db, Number(imported.id));
    await drainJobs({ services, log: quiet, daily: false });
    expect((await listUpdateReports(t.db, alice.id)).data).toHaveLength(1);
    expect((await listNewCompaniesReports(t.db, alice.id)).data).toHaveLength(1);
    expect((await outbox(t.db, alice.email)).filter((m) => m.kind === 'monitoring_digest')).toHaveLength(1);

    // Resumed, the paused tracking reports what changes from then on, not its backlog.
    await setExistingTrackingStatus(t.db, alice.id, pausedTracking.id, 'active');
    await change(paused.id, 'status', 'active', 'dissolved');
    await enqueueReportsAfterImport(t.db, Number(imported.id));
    await drainJobs({ services, log: quiet, daily: false });
    const resumed = (await listUpdateReports(t.db, alice.id, { tracking_id: pausedTracking.id })).data;
    expect(resumed.map((r) => r.changes.map((c) => c.field))).toEqual([['status']]);
  });
});
