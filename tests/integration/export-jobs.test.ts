import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCredits } from '../../core/billing/catalogue.ts';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { EXPORT_CHUNK_BYTES } from '../../core/export/export-files.ts';
import { EXPORT_JOB_ATTEMPTS, enqueueExportExpiry } from '../../core/export/export-jobs.ts';
import { claimJob, requeueStale } from '../../core/jobs/queue.ts';
import { exportExpiryJob, exportJob } from '../../jobs/export.job.ts';
import { drainJobs, type JobServices, runOneJob } from '../../jobs/worker.ts';
import { type Injected, postForm, postJson } from '../support/accounts.ts';
import { parseStrictCsv } from '../support/export-readers.ts';
import { quietLog, testJobServices } from '../support/job-services.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Exports as background jobs (docs/decisions/0031-export-jobs.md): started over the API (202 and
// its Location) and from the export page (on to its page), charged once when started, written by
// the worker with its progress, listed, downloaded whole and by ranges (206, 416, If-Range), the
// user notified (and emailed only when their settings say so); a failure refunded once; a job
// whose workers died retried, then failed and refunded; two workers run it once; expired exports
// deleted by their job; another user's export a 404; the CSRF and Sec-Fetch-Site guards kept.

let t: TestApp;
let services: JobServices;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  services = testJobServices(t.db, t.reference);
  alice = await createSignedInUser(t.db, 'export-jobs-alice');
  bob = await createSignedInUser(t.db, 'export-jobs-bob');
  await grantCredits(t.db, alice.id, 1_000);
  await grantCredits(t.db, bob.id, 1_000);
});
afterAll(async () => {
  await services?.mailer.close();
  await t?.close();
});

const drain = () =>
  drainJobs({
    services,
    log: quietLog,
    definitions: [exportJob as never, exportExpiryJob as never],
    daily: false,
    retryDelay: () => 0,
  });

const start = (body: Record<string, unknown>, user: TestUser = alice, headers: Record<string, string> = {}) =>
  postJson(t.app, 'POST', '/api/exports', body, { cookie: user.cookie, csrf: user.csrf, headers });
const get = (url: string, user: TestUser = alice, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { cookie: user.cookie, ...headers } });
const json = (res: Injected) => JSON.parse(res.body);

async function ledger(userId: number) {
  return t.db.kysely
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'note'])
    .where('user_id', '=', userId)
    .where('reason', 'in', ['export', 'export_refund'])
    .orderBy('id')
    .execute();
}

describe('an export job over the API', () => {
  it('is charged once when it starts, written by the worker, listed and downloaded', async () => {
    const before = await creditBalance(t.db, alice.id);
    const spent = (await ledger(alice.id)).length;
    const res = await start({ section: 'companies', format: 'csv', scope: 'first', count: 150 });
    expect(res.statusCode, res.body).toBe(202);
    const job = json(res);
    expect(res.headers.location).toBe(`/api/exports/${job.id}`);
    expect(job).toMatchObject({ status: 'queued', rows_total: 150, rows_written: 0, progress: 0, download_url: null });
    expect(job.credits).toBe(exportCredits(150));
    // Charged once, now: before the worker ran, and not again when it does.
    expect(await creditBalance(t.db, alice.id)).toBe(before - job.credits);
    const queued = await get(`/api/exports/${job.id}/file`);
    expect(queued.statusCode).toBe(409);

    expect(await drain()).toBe(1);
    const done = json(await get(`/api/exports/${job.id}`));
    expect(done).toMatchObject({ status: 'done', rows_written: 150, progress: 100 });
    expect(done.download_url).toBe(`/api/exports/${job.id}/file`);
    expect(await creditBalance(t.db, alice.id)).toBe(before - job.credits);
    expect((await ledger(alice.id)).slice(spent)).toEqual([
      { delta: -job.credits, reason: 'export', note: `companies: 150 rows, export #${job.id}` },
    ]);

    const file = await get(done.download_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="registra_legal_entities_.*\.csv"$/);
    expect(file.headers['accept-ranges']).toBe('bytes');
    expect(file.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Number(file.headers['content-length'])).toBe(done.size_bytes);
    expect(parseStrictCsv(file.rawPayload.toString('utf8')).length).toBe(151);

    const list = json(await get('/api/exports'));
    expect(list.data.map((e: { id: number }) => e.id)).toContain(job.id);
    // The user is told on the dashboard; no email, which their settings did not ask for.
    const notes = await t.db.kysely
      .selectFrom('notifications')
      .select(['kind', 'data'])
      .where('user_id', '=', alice.id)
      .execute();
    expect(notes.map((n) => n.kind)).toContain('export_ready');
    const mails = await t.db.kysely
      .selectFrom('email_outbox')
      .select('kind')
      .where('to_address', '=', alice.email)
      .where('kind', '=', 'export_ready')
      .execute();
    expect(mails).toEqual([]);
  });

  it('emails when the user’s settings ask for it', async () => {
    await t.db.kysely
      .updateTable('users')
      .set({ email_notifications: ['export_ready'] })
      .where('id', '=', bob.id)
      .execute();
    const res = await start({ section: 'companies', scope: 'first', count: 5 }, bob);
    expect(res.statusCode, res.body).toBe(202);
    await drain();
    const mails = await t.db.kysely
      .selectFrom('email_outbox')
      .select(['kind', 'text_body'])
      .where('to_address', '=', bob.email)
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['export_ready']);
    expect(mails[0].text_body).toContain(`/dashboard/exports/${json(res).id}/`);
  });

  it('serves ranges: 206 with Content-Range, 416 for a bad one, whole for another ETag', async () => {
    const res = await start({ section: 'companies', format: 'json', scope: 'first', count: 600 });
    const id = json(res).id;
    await drain();
    const whole = await get(`/api/exports/${id}/file`);
    const bytes = whole.rawPayload;
    const size = bytes.length;
    // A file of more than one stored chunk, so that a range crosses chunks.
    expect(size).toBeGreaterThan(EXPORT_CHUNK_BYTES);
    const etag = whole.headers.etag as string;
    const across = [EXPORT_CHUNK_BYTES - 10, EXPORT_CHUNK_BYTES + 9];
    const part = await get(`/api/exports/${id}/file`, alice, { range: `bytes=${across[0]}-${across[1]}` });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${across[0]}-${across[1]}/${size}`);
    expect(part.rawPayload.equals(bytes.subarray(across[0], across[1] + 1))).toBe(true);
    // Resuming: from an offset to the end, with the file's ETag.
    const rest = await get(`/api/exports/${id}/file`, alice, { range: 'bytes=100-', 'if-range': etag });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(bytes.subarray(100))).toBe(true);
    const tail = await get(`/api/exports/${id}/file`, alice, { range: 'bytes=-20' });
    expect(tail.rawPayload.equals(bytes.subarray(size - 20))).toBe(true);
    // Another file's ETag: the whole file.
    const changed = await get(`/api/exports/${id}/file`, alice, { range: 'bytes=100-', 'if-range': '"other"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(size);
    for (const range of [`bytes=${size}-`, 'bytes=50-10', 'bytes=abc', 'bytes=-0']) {
      const bad = await get(`/api/exports/${id}/file`, alice, { range });
      expect(bad.statusCode, range).toBe(416);
      expect(bad.headers['content-range']).toBe(`bytes */${size}`);
      expect(json(bad).error.message).toContain(`the file has ${size} bytes`);
    }
  });

  it('is a 404 to another user, and its file too', async () => {
    const id = json(await start({ section: 'companies', scope: 'first', count: 3 })).id;
    await drain();
    expect((await get(`/api/exports/${id}`, bob)).statusCode).toBe(404);
    expect((await get(`/api/exports/${id}/file`, bob)).statusCode).toBe(404);
    expect((await get(`/dashboard/exports/${id}/`, bob)).statusCode).toBe(404);
    expect(json(await get('/api/exports', bob)).data.map((e: { id: number }) => e.id)).not.toContain(id);
    expect((await t.app.inject({ url: `/api/exports/${id}` })).statusCode).toBe(401);
  });

  it('refuses bad input with a 400 naming it, and too few credits with a 402, charging nothing', async () => {
    const before = await creditBalance(t.db, alice.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ section: 'companies', format: 'pdf' }, 'format'],
      [{ section: 'spaceships' }, 'section'],
      [{ section: 'companies', search: 'jurisdiction=xx' }, 'jurisdiction'],
      [{ section: 'companies', search: 'format=csv' }, 'search'],
      [{ section: 'companies', scope: 'selected' }, 'ids'],
      [{ section: 'companies', count: 0 }, 'count'],
    ];
    for (const [body, parameter] of cases) {
      const res = await start(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(res).error.message, JSON.stringify(body)).toContain(parameter);
    }
    const poor = await createSignedInUser(t.db, 'export-jobs-poor');
    const refused = await start({ section: 'companies', scope: 'first', count: 300 }, poor);
    expect(refused.statusCode).toBe(402);
    expect(json(refused).error.details).toMatchObject({ credits: 3, balance: 0 });
    expect(json(refused).error.message).toBe('This costs 3 credits and your balance is 0 credits.');
    expect(json(await get('/api/exports', poor)).data).toEqual([]);
    expect(await creditBalance(t.db, alice.id)).toBe(before);
  });

  it('keeps the CSRF and Sec-Fetch-Site guards', async () => {
    const before = await creditBalance(t.db, alice.id);
    const body = { section: 'companies', scope: 'first', count: 5 };
    const noCsrf = await postJson(t.app, 'POST', '/api/exports', body, { cookie: alice.cookie });
    expect(noCsrf.statusCode).toBe(403);
    const crossSite = await start(body, alice, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(json(crossSite).error.details.reason).toBe('cross_site');
    expect(await creditBalance(t.db, alice.id)).toBe(before);
  });
});

describe('failures', () => {
  it('gives the credits back once when the export fails for good', async () => {
    const before = await creditBalance(t.db, alice.id);
    const job = json(await start({ section: 'companies', scope: 'first', count: 250 }));
    // The stored parameters no longer make an export (as a list deleted since would not).
    await t.db.kysely.updateTable('export_jobs').set({ params: 'format=pdf' }).where('id', '=', job.id).execute();
    expect(await drain()).toBe(EXPORT_JOB_ATTEMPTS);
    const failed = json(await get(`/api/exports/${job.id}`));
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('format');
    expect(failed.download_url).toBeNull();
    expect(await creditBalance(t.db, alice.id)).toBe(before);
    const rows = (await ledger(alice.id)).slice(-2);
    expect(rows).toEqual([
      { delta: -3, reason: 'export', note: `companies: 250 rows, export #${job.id}` },
      { delta: 3, reason: 'export_refund', note: `export #${job.id} failed, given back` },
    ]);
    // Draining again changes nothing: refunded once.
    await drain();
    expect(await creditBalance(t.db, alice.id)).toBe(before);
  });

  it('retries a job whose worker died, and fails and refunds one whose workers kept dying', async () => {
    const before = await creditBalance(t.db, alice.id);
    const once = json(await start({ section: 'companies', scope: 'first', count: 20 }));
    // A worker takes it and dies: the queue takes it back, and the next worker finishes it.
    expect(await claimJob(t.db, 'dead-worker', ['export'])).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await requeueStale(t.db, 1)).toBe(1);
    await drain();
    expect(json(await get(`/api/exports/${once.id}`))).toMatchObject({ status: 'done', rows_written: 20 });

    const doomed = json(await start({ section: 'companies', scope: 'first', count: 20 }));
    for (let i = 0; i < EXPORT_JOB_ATTEMPTS; i++) {
      expect(await claimJob(t.db, `dead-worker-${i}`, ['export'])).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await requeueStale(t.db, 1)).toBe(1);
    }
    await drain();
    const failed = json(await get(`/api/exports/${doomed.id}`));
    expect(failed.status).toBe('failed');
    const job = await t.db.kysely
      .selectFrom('jobs')
      .select(['status'])
      .where('dedupe_key', '=', `export:${doomed.id}`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('failed');
    // One charge kept (the finished export's), the doomed one's refunded.
    expect(await creditBalance(t.db, alice.id)).toBe(before - once.credits);
  });

  it('stopped by a shutdown on its last attempt, it is queued again, not failed or refunded, and then finishes', async () => {
    const before = await creditBalance(t.db, alice.id);
    const started = json(await start({ section: 'companies', scope: 'first', count: 20 }));
    // Its earlier workers died: the attempt about to run is its last.
    await t.db.kysely
      .updateTable('jobs')
      .set({ attempts: EXPORT_JOB_ATTEMPTS - 1 })
      .where('dedupe_key', '=', `export:${started.id}`)
      .execute();
    const stopping = new AbortController();
    stopping.abort(new Error('the job worker is stopping'));
    const options = { services, log: quietLog, definitions: [exportJob as never], daily: false };
    expect(await runOneJob(options, 'stopping-worker', stopping.signal)).toBe(true);
    const job = () =>
      t.db.kysely
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('dedupe_key', '=', `export:${started.id}`)
        .executeTakeFirstOrThrow();
    expect(await job()).toMatchObject({ status: 'queued', attempts: EXPORT_JOB_ATTEMPTS - 1 });
    expect((await job()).last_error).toMatch(/shut down/);
    expect(json(await get(`/api/exports/${started.id}`)).status).not.toBe('failed');
    expect(await creditBalance(t.db, alice.id)).toBe(before - started.credits);
    await drain();
    expect(json(await get(`/api/exports/${started.id}`))).toMatchObject({ status: 'done', rows_written: 20 });
    expect(await creditBalance(t.db, alice.id)).toBe(before - started.credits);
  });

  it('two workers draining at once run each job once', async () => {
    const id = json(await start({ section: 'companies', scope: 'first', count: 40 })).id;
    const [a, b] = await Promise.all([drain(), drain()]);
    expect(a + b).toBe(1);
    const job = await t.db.kysely
      .selectFrom('jobs')
      .select(['attempts', 'status'])
      .where('dedupe_key', '=', `export:${id}`)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ attempts: 1, status: 'done' });
  });
});

describe('the pages', () => {
  it('the export form starts a job and goes to its page, which follows it to the download', async () => {
    const [company] = await someCompanies(t.db, 1);
    const before = await creditBalance(t.db, alice.id);
    const res = await postForm(
      t.app,
      '/companies/export/',
      { _csrf: alice.csrf, query: '', format: 'csv', scope: 'selected', ids: String(company.id) },
      { cookie: alice.cookie },
    );
    expect(res.statusCode, res.body).toBe(303);
    const path = res.headers.location as string;
    expect(path).toMatch(/^\/dashboard\/exports\/\d+\/$/);
    const running = await get(path);
    expect(running.statusCode).toBe(200);
    const text = running.body.replaceAll('<!-- -->', '');
    // Refreshes itself (no script needed), a Refresh link besides, and the balance after the charge.
    expect(text).toContain('<meta http-equiv="refresh" content="2"/>');
    expect(text).toContain('0 of 1 rows written');
    expect(text).toContain(`>Refresh</a>`);
    expect(text).toContain(`Your balance: ${(before - 1).toLocaleString('en')} credits`);
    await drain();
    const done = (await get(path)).body.replaceAll('<!-- -->', '');
    expect(done).not.toContain('http-equiv="refresh"');
    const id = path.split('/')[3];
    expect(done).toContain(`href="/api/exports/${id}/file"`);
    const list = (await get('/dashboard/exports/')).body;
    expect(list).toContain(`href="/dashboard/exports/${id}/"`);
    expect(list).toContain(`href="/api/exports/${id}/file"`);
  });

  it('a guest gets the sign-in page', async () => {
    expect((await t.app.inject({ url: '/dashboard/exports/' })).statusCode).toBe(401);
  });
});

describe('expiry', () => {
  it('deletes exports past their 7 days with their files, by its job', async () => {
    const id = json(await start({ section: 'companies', scope: 'first', count: 3 })).id;
    await drain();
    await t.db.kysely
      .updateTable('export_jobs')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    // Past its days it is gone from the user's view at once, and deleted by the hourly job.
    expect((await get(`/api/exports/${id}`)).statusCode).toBe(404);
    await enqueueExportExpiry(t.db);
    await drain();
    const left = await t.db.kysely.selectFrom('export_jobs').select('id').where('id', '=', id).execute();
    const chunks = await t.db.kysely
      .selectFrom('export_job_chunks')
      .select('seq')
      .where('export_job_id', '=', id)
      .execute();
    expect(left).toEqual([]);
    expect(chunks).toEqual([]);
  });
});
