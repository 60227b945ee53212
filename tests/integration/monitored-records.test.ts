import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLineText } from '../../core/changes/change-words.ts';
import { buildMonitoringReports } from '../../core/monitoring/build-reports.ts';
import type { FieldChange } from '../../core/monitoring/reports.ts';
import { writeCompanyRecords, writeRecords } from '../../core/records/record-writes.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { collectDeliveries, sendDueDeliveries } from '../../core/webhooks/deliveries.ts';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Every record section is monitored (docs/decisions/0027-monitored-records.md): records added,
// changed and removed through core/records/record-writes.ts reach the tracked company's update
// report, the change feed and webhooks, as summaries in the API and words on pages; a tracking
// reports the sections it chose; a company taken down tells nobody of its records.

let t: TestApp;
let companies: { id: number; uri: string; name: string }[];
let server: Server;
let url: string;
const received: string[] = [];
let panama: number;
let euro: number;

beforeAll(async () => {
  t = await buildTestApp({ allowPrivateWebhookHosts: true });
  companies = await someCompanies(t.db, 6, 350);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(body);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const id = async (query: ReturnType<typeof sql<{ id: number }>>) =>
    Number((await query.execute(t.db.kysely)).rows[0].id);
  panama = await id(sql<{ id: number }>`select id from locations where country_code = 'PA' order by id limit 1`);
  euro = await id(sql<{ id: number }>`select id from currencies where code = 'EUR'`);
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t?.close();
});

const as = (user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  postJson(t.app, method, path, body ?? {}, { cookie: user.cookie, csrf: user.csrf });
const get = (user: TestUser, path: string) =>
  t.app.inject({ method: 'GET', url: path, headers: { cookie: user.cookie } });

async function newestChange(): Promise<number> {
  const row = await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(t.db.kysely);
  return Number(row.rows[0].id);
}

async function track(user: TestUser, companyId: number, sections?: string[]): Promise<number> {
  const response = await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, {
    object_id: companyId,
    ...(sections ? { sections } : {}),
  });
  expect(response.statusCode).toBe(201);
  return response.json().tracking.id;
}

async function reportChanges(user: TestUser, trackingId: number): Promise<FieldChange[]> {
  const page = (await get(user, `/api/existing_objects_reports/users/${user.id}?tracking_id=${trackingId}`)).json();
  return page.data.flatMap((r: { changes: FieldChange[] }) => r.changes);
}

const trademark = () => ({
  mark: 'Registra Blue',
  application_number: '018912345',
  mark_type: 'word',
  filing_date: '2026-11-02',
  office: panama,
  status: 'filed',
});

/** A report line as pages and the digest write it. */
const line = (lang: Lang, change: FieldChange) =>
  changeLineText(change, { reference: t.reference, legalForms: new Map(), lang });

describe('records of a tracked company', () => {
  it('a new trademark, a permit’s new status and a vessel gone reach the update report, the feed and a webhook', async () => {
    const c = companies[0];
    const user = await createSignedInUser(t.db, 'records-all');
    // The company's records before it is tracked.
    const [permit] = (
      await writeRecords(t.db, {
        companyId: c.id,
        section: 'permits',
        added: [
          { type: 'operating', status: 'pending', authority: 'Gewerbeamt Mitte', application_date: '2026-09-01' },
        ],
        source: 'test',
      })
    ).added;
    const [vessel] = (
      await writeRecords(t.db, {
        companyId: c.id,
        section: 'vessels',
        added: [{ vessel_name: 'Northern Star', imo_number: '9074729', flag: panama, registration_date: '2019-04-01' }],
        source: 'test',
      })
    ).added;
    const trackingId = await track(user, c.id);
    const created = await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url });
    expect(created.statusCode).toBe(201);
    const webhookId = created.json().webhook.id;
    const since = await newestChange();

    // One writer's transaction: the three changes, dated by the source.
    await t.db.kysely.transaction().execute(async (trx) => {
      const write = { companyId: c.id, source: 'demo', sourceDate: '2026-11-20' };
      await writeCompanyRecords(trx, { ...write, section: 'trademarks', added: [trademark()] });
      await writeCompanyRecords(trx, {
        ...write,
        section: 'permits',
        changed: [{ id: permit, values: { status: 'approved' } }],
      });
      // A change that writes nothing new is no change.
      await writeCompanyRecords(trx, {
        ...write,
        section: 'permits',
        changed: [{ id: permit, values: { status: 'approved' } }],
      });
      await writeCompanyRecords(trx, { ...write, section: 'vessels', removed: [vessel] });
    });
    expect(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from vessels where legal_entity_id = ${c.id} and id = ${vessel}`.execute(
          t.db.kysely,
        )
      ).rows[0].n,
    ).toBe(0);

    // ---- the update report ----
    await buildMonitoringReports(t.db, t.reference);
    const changes = await reportChanges(user, trackingId);
    expect(changes.map((x) => x.field)).toEqual(['records.trademarks', 'records.permits', 'records.vessels']);
    const [added, changed, removed] = changes;
    expect(added).toMatchObject({
      old: null,
      new: { mark: 'Registra Blue', application_number: '018912345', filing_date: '2026-11-02', status: 'filed' },
      source: 'demo',
    });
    expect(String(added.source_date)).toMatch(/^2026-11-20/);
    expect(changed).toMatchObject({
      old: { id: permit, status: 'pending', authority: 'Gewerbeamt Mitte' },
      new: { id: permit, status: 'approved', authority: 'Gewerbeamt Mitte' },
    });
    expect(removed).toMatchObject({
      old: { id: vessel, vessel_name: 'Northern Star', imo_number: '9074729', flag: 'PA' },
      new: null,
    });

    // ---- in words, in each language: no code, no ISO date ----
    const words = (lang: Lang) => changes.map((x) => line(lang, x));
    expect(words('en')).toEqual([
      'Trademarks: added: Mark: Registra Blue; Application number: 018912345; Filing date: 2 Nov 2026; Status: Filed',
      'Permits: Operating, Gewerbeamt Mitte: Status: Pending → Approved',
      'Vessels: removed: Vessel name: Northern Star; IMO number: 9074729; Flag: Panama',
    ]);
    const de = words('de');
    expect(de[0]).toMatch(/^Marken: neu: .*Registra Blue.*2\. Nov\. 2026.*Angemeldet/);
    expect(de[1]).toContain('In Bearbeitung → Genehmigt');
    expect(de[2]).toMatch(/^Schiffe: entfernt: .*Northern Star/);
    expect(words('fr')[1]).toContain('En cours → Approuvé');
    for (const line of [...words('en'), ...de, ...words('fr')]) {
      expect(line).not.toMatch(/\d{4}-\d{2}-\d{2}|pending|approved|filed|\bPA\b|\(none\)/);
    }

    // ---- the change feed, filtered by a record field ----
    const feed = (await get(user, `/api/changes?since=${since}&field=records.trademarks`)).json();
    expect(feed.data).toHaveLength(1);
    expect(feed.data[0]).toMatchObject({
      company: { id: c.id },
      field: 'records.trademarks',
      old_value: null,
      new_value: { mark: 'Registra Blue', status: 'filed' },
      source: 'demo',
      source_date: '2026-11-20T00:00:00.000Z',
    });
    expect((await get(user, `/api/changes?since=${since}&company=${c.id}`)).json().count).toBe(3);

    // ---- a webhook delivery ----
    received.length = 0;
    await collectDeliveries(t.db);
    await sendDueDeliveries(t.db, { allowPrivateHosts: true });
    const pushed = received.map((body) => JSON.parse(body)).filter((p) => p.webhook_id === webhookId);
    expect(pushed.flatMap((p) => p.changes.map((x: { field: string }) => x.field))).toEqual([
      'records.trademarks',
      'records.permits',
      'records.vessels',
    ]);
    expect(pushed[0].changes[1]).toMatchObject({ old_value: { status: 'pending' }, new_value: { status: 'approved' } });

    // A webhook may take only some record fields; an unknown one is a 400.
    const some = await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url, fields: ['records.violations'] });
    expect(some.statusCode).toBe(201);
    expect(
      (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url, fields: ['records.colours'] })).statusCode,
    ).toBe(400);
  });

  it('a tracking that chose only violations is told of the violation, not the trademark', async () => {
    const c = companies[1];
    const user = await createSignedInUser(t.db, 'records-violations');
    const trackingId = await track(user, c.id, ['violations']);
    const one = (await get(user, `/api/existing_objects_tracking/${trackingId}`)).json().tracking;
    expect(one.sections).toEqual(['violations']);
    const everything = await createSignedInUser(t.db, 'records-everything');
    const allId = await track(everything, c.id);
    expect((await get(everything, `/api/existing_objects_tracking/${allId}`)).json().tracking.sections).toBeNull();

    await writeRecords(t.db, {
      companyId: c.id,
      section: 'violations',
      added: [
        { violation_type: 'safety', violation_date: '2026-10-14', fine: 12500, currency: euro, law: 'ArbSchG §5' },
      ],
      source: 'demo',
      sourceDate: '2026-10-14',
    });
    await writeRecords(t.db, { companyId: c.id, section: 'trademarks', added: [trademark()], source: 'demo' });
    await sql`insert into company_changes (legal_entity_id, field, old_value, new_value, source)
      values (${c.id}, 'name', '"Old"'::jsonb, '"New"'::jsonb, 'demo')`.execute(t.db.kysely);
    await buildMonitoringReports(t.db, t.reference);

    const told = await reportChanges(user, trackingId);
    expect(told.map((x) => x.field)).toEqual(['records.violations']);
    expect(told[0].new).toMatchObject({ violation_type: 'safety', fine: 12500, currency: 'EUR' });
    expect(line('en', told[0])).toContain('Fine: €12,500.00');
    expect(line('de', told[0])).toContain('12.500,00');
    expect((await reportChanges(everything, allId)).map((x) => x.field)).toEqual([
      'records.violations',
      'records.trademarks',
      'name',
    ]);

    // The choice is changed on the tracking; "company" is the company's own fields.
    const patched = await as(user, 'PATCH', `/api/existing_objects_tracking/${trackingId}`, {
      sections: ['company', 'trademarks'],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().tracking).toMatchObject({ sections: ['company', 'trademarks'], status: 'active' });
    await writeRecords(t.db, {
      companyId: c.id,
      section: 'violations',
      added: [{ violation_type: 'safety', violation_date: '2026-11-01' }],
      source: 'demo',
    });
    await writeRecords(t.db, {
      companyId: c.id,
      section: 'trademarks',
      added: [{ ...trademark(), mark: 'Registra Green' }],
      source: 'demo',
    });
    await buildMonitoringReports(t.db, t.reference);
    const later = (await reportChanges(user, trackingId)).filter((x) => x.field !== 'records.violations');
    expect(later.map((x) => (x.new as { mark?: string }).mark)).toEqual(['Registra Green']);

    for (const sections of [['colours'], []]) {
      const bad = await as(user, 'PATCH', `/api/existing_objects_tracking/${trackingId}`, { sections });
      expect(bad.statusCode, JSON.stringify(sections)).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('sections');
    }
    // Null is everything again.
    const reset = await as(user, 'PATCH', `/api/existing_objects_tracking/${trackingId}`, { sections: null });
    expect(reset.json().tracking.sections).toBeNull();
  });

  it('hides the record changes of a company taken down, and a connection naming it', async () => {
    const [, , hidden, other] = companies;
    const user = await createSignedInUser(t.db, 'records-takedown');
    const trackingId = await track(user, hidden.id);
    await track(user, other.id);
    const { webhook } = (await as(user, 'POST', `/api/webhooks/users/${user.id}`, { url })).json();
    const since = await newestChange();
    await writeRecords(t.db, { companyId: hidden.id, section: 'trademarks', added: [trademark()], source: 'demo' });
    await writeRecords(t.db, {
      companyId: other.id,
      section: 'connections',
      added: [{ name: hidden.name, position: 'shareholder', since: '2026-01-01' }],
      source: 'demo',
    });
    expect((await get(user, `/api/changes?since=${since}&company=${other.id}`)).json().count).toBe(1);

    await applyTakedown(t.db, 'hide', {
      target: 'company',
      ref: String(hidden.id),
      reason: 'erasure request',
      actor: 'test',
    });
    await buildMonitoringReports(t.db, t.reference);
    expect(await reportChanges(user, trackingId)).toEqual([]);
    expect((await get(user, `/api/changes?since=${since}`)).json().data).toEqual([]);
    // The cursor moves past the changes left out: a client that follows `next` is not stuck on them.
    const past = (await get(user, `/api/changes?since=${since}&company=${other.id}`)).json();
    expect(past.data).toEqual([]);
    expect(past.next).toBeGreaterThan(since);
    received.length = 0;
    await collectDeliveries(t.db);
    await sendDueDeliveries(t.db, { allowPrivateHosts: true });
    // Nothing of either company is pushed (the connection naming the hidden company is left out).
    expect(received.map((body) => JSON.parse(body)).filter((p) => p.webhook_id === webhook.id)).toEqual([]);
    const { last_change_id } = (await get(user, `/api/webhooks/${webhook.id}`)).json().webhook;
    expect(last_change_id).toBeGreaterThan(since);
  });
});
