import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { WEBHOOK_MAX_ATTEMPTS } from '../../core/limits.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import {
  collectDeliveries,
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  sendDueDeliveries,
} from '../../core/webhooks/deliveries.ts';
import { type Lookup, resolvePublicHost } from '../../core/webhooks/public-hosts.ts';
import { startWorker } from '../../jobs/worker.ts';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The change feed and webhooks (docs/decisions/0018-change-feed-and-webhooks.md): changes from any
// cursor, filtered by company, tracking and field; webhooks that push the tracked companies'
// changes signed, retry with backoff, keep a delivery log and replay; and only one's own.

let t: TestApp;
let a: TestUser;
let b: TestUser;
let companies: { id: number; uri: string; name: string }[];

beforeAll(async () => {
  // The webhooks post to a server of the test on 127.0.0.1 (as WEBHOOKS_ALLOW_PRIVATE_HOSTS=1 allows).
  t = await buildTestApp({ allowPrivateWebhookHosts: true });
  a = await createSignedInUser(t.db, 'feed-a');
  b = await createSignedInUser(t.db, 'feed-b');
  companies = await someCompanies(t.db, 4, 300);
});
afterAll(() => t?.close());

const as = (user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  postJson(t.app, method, url, body ?? {}, { cookie: user.cookie, csrf: user.csrf });
const get = (user: TestUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });

/** Records a change as an import would; returns its id (the cursor). */
async function recordChange(companyId: number, field: string, oldValue: unknown, newValue: unknown): Promise<number> {
  const row = await sql<{ id: string }>`insert into company_changes
      (legal_entity_id, field, old_value, new_value, source, source_date)
    values (${companyId}, ${field}, ${JSON.stringify(oldValue)}::jsonb, ${JSON.stringify(newValue)}::jsonb,
      'gleif-lei', '2024-05-05T00:00:00Z')
    returning id`.execute(t.db.kysely);
  return Number(row.rows[0].id);
}

async function newestChange(): Promise<number> {
  const row = await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(t.db.kysely);
  return Number(row.rows[0].id);
}

describe('GET /api/changes', () => {
  it('lists changes after a cursor, oldest first, and continues from next without gaps or repeats', async () => {
    const start = await newestChange();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await recordChange(companies[i % 2].id, 'name', `Old ${i}`, `New ${i}`));
    const first = await get(a, `/api/changes?since=${start}&count=3`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 3));
    expect(page1.next).toBe(ids[2]);
    expect(page1.data[0]).toMatchObject({
      field: 'name',
      old_value: 'Old 0',
      new_value: 'New 0',
      source: 'gleif-lei',
      source_date: '2024-05-05T00:00:00.000Z',
      company: { id: companies[0].id, uri: companies[0].uri },
    });
    const page2 = (await get(a, `/api/changes?since=${page1.next}&count=3`)).json();
    expect(page2.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(3));
    const empty = (await get(a, `/api/changes?since=${page2.next}`)).json();
    expect(empty).toEqual({ count: 0, next: page2.next, data: [] });
    // Replayable: the same cursor gives the same changes again.
    expect((await get(a, `/api/changes?since=${start}&count=3`)).json().data).toEqual(page1.data);
  });

  it('filters by company, field and one of the caller’s trackings; another user’s tracking is 404', async () => {
    const start = await newestChange();
    const mine = await recordChange(companies[2].id, 'status', 'Active', 'Dissolved');
    await recordChange(companies[2].id, 'name', 'X', 'Y');
    await recordChange(companies[3].id, 'status', 'Active', 'Dissolved');
    const byCompany = (await get(a, `/api/changes?since=${start}&company=${companies[2].id}`)).json();
    expect(byCompany.count).toBe(2);
    const byField = (await get(a, `/api/changes?since=${start}&field=status`)).json();
    expect(byField.data.map((c: { field: string }) => c.field)).toEqual(['status', 'status']);
    const tracking = (
      await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: companies[2].id })
    ).json().tracking;
    const byTracking = (await get(a, `/api/changes?since=${start}&tracking=${tracking.id}&field=status`)).json();
    expect(byTracking.data.map((c: { id: number }) => c.id)).toEqual([mine]);
    expect((await get(b, `/api/changes?tracking=${tracking.id}`)).statusCode).toBe(404);
  });

  it('refuses guests and bad parameters with a message naming them', async () => {
    expect((await get(null, '/api/changes')).statusCode).toBe(401);
    for (const [query, name] of [
      ['since=-1', 'since'],
      ['count=5000', 'count'],
      ['field=colour', 'field'],
      ['company=abc', 'company'],
      ['bogus=1', 'bogus'],
    ]) {
      const response = await get(a, `/api/changes?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(JSON.stringify(response.json()), query).toContain(name);
    }
  });
});

describe('webhooks', () => {
  let server: Server;
  let url: string;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let answer = 200;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.statusCode = answer;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = () => sendDueDeliveries(t.db, { allowPrivateHosts: true });
  const makeDue = () =>
    sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second'
    where status = 'pending'`.execute(t.db.kysely);

  it('pushes only the tracked companies’ changes, once, signed with the secret', async () => {
    const user = await createSignedInUser(t.db, 'hook-push');
    const [tracked, other] = companies;
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: tracked.id });
    const created = await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url, fields: ['name', 'status'] });
    expect(created.statusCode).toBe(201);
    const { webhook, secret } = created.json();
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify((await get(user, `/api/webhooks/${webhook.id}`)).json())).not.toContain(secret);

    const pushed = await recordChange(tracked.id, 'name', 'Acme Ltd', 'Acme Holdings Ltd');
    await recordChange(tracked.id, 'members', null, [{ name: 'Someone' }]); // a field it does not take
    await recordChange(other.id, 'name', 'A', 'B'); // a company the user does not track

    received.length = 0;
    expect(await collectDeliveries(t.db)).toBeGreaterThanOrEqual(1);
    expect(await collectDeliveries(t.db)).toBe(0);
    const summary = await send();
    expect(summary.delivered).toBeGreaterThanOrEqual(1);
    const mine = received.filter((r) => JSON.parse(r.body).webhook_id === webhook.id);
    expect(mine).toHaveLength(1);
    const body = JSON.parse(mine[0].body);
    expect(body.changes.map((c: { id: number }) => c.id)).toEqual([pushed]);
    expect(body.changes[0]).toMatchObject({ field: 'name', old_value: 'Acme Ltd', new_value: 'Acme Holdings Ltd' });
    const header = String(mine[0].headers[SIGNATURE_HEADER]);
    const [, timestamp, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
    expect(mac).toBe(createHmac('sha256', secret).update(`${timestamp}.${mine[0].body}`).digest('hex'));

    const log = (await get(user, `/api/webhook_deliveries/users/${user.id}?webhook_id=${webhook.id}`)).json();
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200, changes: 1 });
    expect(String(mine[0].headers[DELIVERY_HEADER])).toBe(String(log.data[0].id));

    // As the OpenAPI document's `changes` webhook says: its payload schema and its headers.
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const hook = document.webhooks.changes.post;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'openapi' });
    const payloadSchema = ajv.getSchema('openapi#/webhooks/changes/post/requestBody/content/application~1json/schema');
    expect(payloadSchema?.(body), JSON.stringify(payloadSchema?.errors)).toBe(true);
    expect(body.changes[0].display).toMatchObject({ field: expect.any(String), new: 'Acme Holdings Ltd' });
    for (const { name } of hook.parameters as { name: string }[]) {
      expect(mine[0].headers[name.toLowerCase()], name).toBeTruthy();
    }
    expect(hook.description).toContain('Registra-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>"');
  });

  it('retries a refused delivery later, fails it after the last attempt, and replays it on request', async () => {
    const user = await createSignedInUser(t.db, 'hook-retry');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[1].id });
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url })).json();
    await recordChange(companies[1].id, 'status', 'Active', 'Inactive');
    await collectDeliveries(t.db);
    const deliveries = () =>
      get(user, `/api/webhook_deliveries/users/${user.id}?webhook_id=${webhook.id}`).then((r) => r.json().data);

    answer = 500;
    try {
      await send();
      let [delivery] = await deliveries();
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
      expect(new Date(delivery.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 30_000);
      // Not due yet: nothing is sent.
      const before = received.length;
      await send();
      expect(received.length).toBe(before);
      for (let attempt = 2; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
        await makeDue();
        await send();
      }
      [delivery] = await deliveries();
      expect(delivery).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, next_attempt_at: null });
      expect(delivery.last_error).toContain('500');
    } finally {
      answer = 200;
    }
    const [failed] = await deliveries();
    const replayed = await as(user, 'POST', `/api/webhook_deliveries/${failed.id}/replay`);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().delivery).toMatchObject({ status: 'pending', attempts: 0 });
    await send();
    expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });
    // Another user can neither see nor replay it.
    expect((await as(b, 'POST', `/api/webhook_deliveries/${failed.id}/replay`)).statusCode).toBe(404);
  });

  it('sends each due delivery once when two senders run at the same time', async () => {
    const user = await createSignedInUser(t.db, 'hook-race');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[2].id });
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url })).json();
    for (let i = 0; i < 3; i++) {
      await recordChange(companies[2].id, 'name', `N${i}`, `N${i + 1}`);
      await collectDeliveries(t.db);
    }
    received.length = 0;
    await Promise.all([send(), send()]);
    const bodies = received.map((r) => JSON.parse(r.body)).filter((p) => p.webhook_id === webhook.id);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((p) => p.cursor)).size).toBe(3);
  });

  it('is delivered by the job worker’s tick, with no call of ours', async () => {
    const user = await createSignedInUser(t.db, 'hook-worker');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[0].id });
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url })).json();
    const quiet = { info: () => {}, error: () => {} };
    const translate = (lang: Lang) => {
      const { t: tr } = i18nFor(lang);
      return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
    };
    const mailer = createMailer({
      db: t.db,
      settings: { from: 'Registra <no-reply@localhost>' },
      log: quiet,
      translate,
    });
    const worker = startWorker({
      services: {
        db: t.db,
        reference: t.reference,
        mailer,
        siteUrl: 'http://localhost',
        translate,
        allowPrivateWebhookHosts: true,
      },
      log: quiet,
      pollMs: 20,
      webhooksEveryMs: 0,
      daily: false,
    });
    try {
      const change = await recordChange(companies[0].id, 'status', 'Active', 'Liquidation');
      const deadline = Date.now() + 20_000;
      const mine = () => received.map((r) => JSON.parse(r.body)).filter((p) => p.webhook_id === webhook.id);
      while (mine().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(mine().flatMap((p) => p.changes.map((c: { id: number }) => c.id))).toContain(change);
    } finally {
      await worker.stop();
      await mailer.close();
    }
  });

  it('refuses endpoints on private addresses unless allowed', async () => {
    await expect(resolvePublicHost('127.0.0.1')).rejects.toThrow(/private address/);
    await expect(resolvePublicHost('[::1]')).rejects.toThrow(/private address/);
    await expect(resolvePublicHost('192.168.1.20')).rejects.toThrow(/private address/);
    await expect(resolvePublicHost('localhost')).rejects.toThrow(/private address/);
    await expect(resolvePublicHost('93.184.215.14')).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
    const user = await createSignedInUser(t.db, 'hook-private');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[3].id });
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url })).json();
    await recordChange(companies[3].id, 'name', 'P', 'Q');
    await collectDeliveries(t.db);
    received.length = 0;
    await sendDueDeliveries(t.db, { allowPrivateHosts: false });
    expect(received).toHaveLength(0);
    const [delivery] = (await get(user, `/api/webhook_deliveries/users/${user.id}?webhook_id=${webhook.id}`)).json()
      .data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.last_error).toContain('private address');
  });

  it('validates webhooks and serves only their owner', async () => {
    for (const [body, name] of [
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://user:pw@example.com/' }, 'url'],
      [{ url: 'https://example.com/', fields: ['colour'] }, 'fields'],
      [{}, 'url'],
    ] as const) {
      const response = await as(a, 'POST', `/api/webhooks/users/${a.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.json())).toContain(name);
    }
    const { webhook } = (await as(a, 'POST', `/api/webhooks/users/${a.id}`, { url: 'https://example.com/in' })).json();
    expect((await get(b, `/api/webhooks/${webhook.id}`)).statusCode).toBe(404);
    expect((await get(b, `/api/webhooks/users/${a.id}`)).statusCode).toBe(403);
    expect((await get(null, `/api/webhooks/users/${a.id}`)).statusCode).toBe(401);
    expect((await as(b, 'PATCH', `/api/webhooks/${webhook.id}`, { active: false })).statusCode).toBe(404);
    expect((await as(b, 'DELETE', `/api/webhooks/${webhook.id}`)).statusCode).toBe(404);
    const paused = await as(a, 'PATCH', `/api/webhooks/${webhook.id}`, { active: false });
    expect(paused.json().webhook.active).toBe(false);
    expect((await as(a, 'DELETE', `/api/webhooks/${webhook.id}`)).json()).toEqual({ deleted: 1 });
  });

  it('connects to the address it resolved, under the webhook’s own host name', async () => {
    // hooks.resolved.test exists only in this lookup: the request reaches the server although the
    // name is never resolved again, and carries the name in its Host header.
    const { port } = new URL(url);
    const user = await createSignedInUser(t.db, 'hook-pinned');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[0].id });
    const target = `http://hooks.resolved.test:${port}/hook`;
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url: target })).json();
    await recordChange(companies[0].id, 'name', 'R', 'S');
    await collectDeliveries(t.db);
    received.length = 0;
    const lookup: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    await sendDueDeliveries(t.db, { allowPrivateHosts: true, lookup });
    const mine = received.filter((r) => JSON.parse(r.body).webhook_id === webhook.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].headers.host).toBe(`hooks.resolved.test:${port}`);
  });

  it('speaks TLS to the checked address under the webhook’s own name (SNI)', async () => {
    // A TLS server with no certificate: the handshake fails after the client has named the host.
    const names: string[] = [];
    const tls = createHttpsServer({
      SNICallback: (name, done) => {
        names.push(name);
        done(new Error('no certificate here'));
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const user = await createSignedInUser(t.db, 'hook-sni');
      await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[2].id });
      const target = `https://hooks.sni.test:${(tls.address() as AddressInfo).port}/hook`;
      const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url: target })).json();
      await recordChange(companies[2].id, 'name', 'V', 'W');
      await collectDeliveries(t.db);
      const lookup: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];
      await sendDueDeliveries(t.db, { allowPrivateHosts: true, lookup, timeoutMs: 2000 });
      expect(names).toContain('hooks.sni.test');
      const [delivery] = (await get(user, `/api/webhook_deliveries/users/${user.id}?webhook_id=${webhook.id}`)).json()
        .data;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('posts to the addresses it checked: a name that rebinds to 127.0.0.1 after the check never reaches it', async () => {
    const { port } = new URL(url);
    const user = await createSignedInUser(t.db, 'hook-rebind');
    await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: companies[1].id });
    const target = `http://rebind.test:${port}/hook`;
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url: target })).json();
    await recordChange(companies[1].id, 'name', 'T', 'U');
    await collectDeliveries(t.db);
    received.length = 0;
    // A name server that answers a public address first and 127.0.0.1 ever after.
    let answers = 0;
    const rebinding: Lookup = async () => [{ address: answers++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    await sendDueDeliveries(t.db, { allowPrivateHosts: false, lookup: rebinding, timeoutMs: 1000 });
    expect(received.filter((r) => JSON.parse(r.body).webhook_id === webhook.id)).toHaveLength(0);
    // Resolved once: the check and the connection used the same answer.
    expect(answers).toBe(1);
    const [delivery] = (await get(user, `/api/webhook_deliveries/users/${user.id}?webhook_id=${webhook.id}`)).json()
      .data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
  });
});

describe('webhooks where private hosts are refused (production)', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await buildTestApp();
  });
  afterAll(() => strict?.close());

  it('refuses a URL on an address that is not public when a webhook is made or changed: a 400 naming url and why', async () => {
    const user = await createSignedInUser(strict.db, 'hook-refused');
    const send = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
      postJson(strict.app, method, path, body, { cookie: user.cookie, csrf: user.csrf });
    const refused: [string, RegExp][] = [
      ['http://127.0.0.1:8080/hook', /127\.0\.0\.1: loopback/],
      ['http://2130706433/hook', /127\.0\.0\.1: loopback/],
      ['http://localhost/hook', /loopback/],
      ['http://[::1]/hook', /::1: loopback/],
      ['http://[::7f00:1]/hook', /→ 127\.0\.0\.1: loopback/],
      ['http://[::ffff:169.254.169.254]/latest/meta-data/', /→ 169\.254\.169\.254: link-local/],
      ['http://[64:ff9b::a00:1]/', /→ 10\.0\.0\.1: private/],
      ['http://[2002:c0a8:101::1]/', /→ 192\.168\.1\.1: private/],
      ['https://198.18.0.1/', /benchmarking/],
      ['http://224.0.0.1/', /multicast/],
      ['http://255.255.255.255/', /broadcast/],
      ['http://[fec0::1]/', /site-local/],
      ['http://[ff02::1]/', /multicast/],
      ['http://10.0.0.5/', /private/],
    ];
    for (const [target, reason] of refused) {
      const response = await send('POST', `/api/webhooks/users/${user.id}`, { url: target });
      expect(response.statusCode, target).toBe(400);
      expect(response.json().error, target).toMatchObject({ code: 'bad_request', details: { parameter: 'url' } });
      expect(response.json().error.message, target).toMatch(/^url: .*webhooks go to public hosts only/);
      expect(response.json().error.message, target).toMatch(reason);
    }
    const list = await strict.app.inject({ url: `/api/webhooks/users/${user.id}`, headers: { cookie: user.cookie } });
    expect(list.json().count).toBe(0);

    const made = await send('POST', `/api/webhooks/users/${user.id}`, { url: 'https://93.184.215.14/hook' });
    expect(made.statusCode).toBe(201);
    const { webhook } = made.json();
    const moved = await send('PATCH', `/api/webhooks/${webhook.id}`, { url: 'http://[::ffff:7f00:1]/hook' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.details.parameter).toBe('url');
    const kept = await strict.app.inject({ url: `/api/webhooks/${webhook.id}`, headers: { cookie: user.cookie } });
    expect(kept.json().webhook.url).toBe('https://93.184.215.14/hook');
  });
});
