import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import { refreshExportDocuments } from '../../core/export/export-documents.ts';
import { buildMonitoringReports } from '../../core/monitoring/build-reports.ts';
import { personPath } from '../../core/people/person-path.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { collectDeliveries, sendDueDeliveries } from '../../core/webhooks/deliveries.ts';
import type { Lookup } from '../../core/webhooks/public-hosts.ts';
import { GOOD_PASSWORD, postJson, uniqueEmail } from '../support/accounts.ts';
import { bodyText } from '../support/body-text.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// The takedown sweep (ADR 0021): a company C and a person P (a member of ANOTHER company,
// V) are taken down; then every page route of the build's route manifest, every operation of the
// OpenAPI document (as a guest, as a signed-in user and with an API key), every export format, the
// sitemaps, the change feed and the webhook payloads are requested, and no answer may mention them:
// not C's name, address, identifiers or id, not P's name, page or contacts. Bodies are decoded
// first (HTML entities, XLSX through exceljs, PDF through PDF.js, zip). The user who asks had C in
// their lists, history, trackings, reports, comparison and enrichment before the takedown, and is
// charged nothing for C (a purchase of C is a 404, an export of it costs nothing).
//
// The walk is generated from the route manifest and the OpenAPI document: a route or operation
// added later is swept too, and one whose parameters the sweep cannot fill fails this test until
// pageUrls, queryValues or sample learns them (or the small SKIPPED list names it, with a reason).
// Page actions (form posts) are not walked: each redirects to a page that is; buying C through
// the profile's form is checked on its own.
//
// The exports read the export documents, stored per company: they are current when the takedown
// happens, and the takedown must rebuild those of V (P's company) and of the companies C sits on.

let t: TestApp;
/** The buyer: signed in, with credits, an API key, and C and V in every record a user keeps. */
let u: TestUser;
let key: string;

type Company = { id: number; uri: string; name: string; identifiers: string[] };
let c: Company;
/** The visible company P sits on. */
let v: Company;
let p: { id: number; name: string; path: string; contacts: string[] };
/** Records of U's the path parameters name, by resource. */
const mine: Record<string, number> = {};
/** The last change id before the sweep's own changes (the change feed's `since`). */
let since = 0;
let extendProperties: string[] = [];
/** What the exports mention, from the sweep of the operations and of the export formats. */
const exportLeaks: string[] = [];
let kbRef = '';
/** The directory path of C's industry (its sector when it has one). */
let industryRef = '';

/** The address of a company merged into C (before the takedown): it must not redirect to C. */
const MERGED_URI = 'sweep-merged-company-987654321';

/** Operations the sweep does not call, each with its reason. */
const SKIPPED: Record<string, string> = {
  signOut: 'ends the session the sweep signs in with; it answers no data',
  receivePaymentWebhook: 'a payment provider’s signed event: it answers an acknowledgement, no data',
  receiveZammadWebhook: 'the help desk’s signed event: it answers an acknowledgement, no data',
};

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  const k = t.db.kysely;
  // ---- C: a company with identifiers, members and connections, whose name no other row contains ----
  const candidates = await sql<{ id: string; uri: string; name: string }>`
    select le.id, le.uri, le.name from legal_entities le
    where length(le.name) >= 10
      and exists (select 1 from legal_entity_identifiers i where i.legal_entity_id = le.id)
      and exists (select 1 from connections x where x.legal_entity_id = le.id)
    order by exists (select 1 from members m where m.legal_entity_id = le.id) desc, le.id
    limit 40`.execute(k);
  c = await firstUnique(candidates.rows.map((r) => ({ id: Number(r.id), uri: r.uri, name: r.name })));
  // ---- P: a person on V (not C), with a connection row of their name, whose name is theirs alone ----
  const people = await sql<{ id: string; name: string; company: string }>`
    select m.id, m.name, x.legal_entity_id as company from members m
    join legal_entity_members x on x.member_id = m.id
    join connections cn on cn.legal_entity_id = x.legal_entity_id and cn.name = m.name
    where m.legal_entity_id is null and m.name_type = 'individual' and length(m.name) >= 10
      and x.legal_entity_id <> ${c.id}
      and not exists (select 1 from legal_entity_members y where y.member_id = m.id and y.legal_entity_id = ${c.id})
      and exists (select 1 from legal_entity_members z where z.legal_entity_id = x.legal_entity_id and z.member_id <> m.id)
    order by m.id limit 40`.execute(k);
  let person: { id: number; name: string; company: number } | undefined;
  for (const row of people.rows) {
    if (await nameIsUnique(row.name, { member: Number(row.id) })) {
      person = { id: Number(row.id), name: row.name, company: Number(row.company) };
      break;
    }
  }
  if (!person) throw new Error('the template has no person whose name is theirs alone');
  const contacts = await k.selectFrom('member_contacts').select('contact').where('member_id', '=', person.id).execute();
  p = {
    id: person.id,
    name: person.name,
    path: personPath(person.name, person.id),
    contacts: contacts.map((x) => x.contact).filter((x) => x.length >= 8),
  };
  const vRow = await k
    .selectFrom('legal_entities')
    .select(['id', 'uri', 'name'])
    .where('id', '=', person.company)
    .executeTakeFirstOrThrow();
  v = { id: Number(vRow.id), uri: vRow.uri, name: vRow.name, identifiers: [] };

  // ---- U keeps C and V everywhere, before the takedown ----
  u = await createSignedInUser(t.db, 'takedown-sweep', { name: 'Sweep Buyer' });
  key = (await createApiKey(t.db, u.id, { name: 'sweep', scopes: ['read', 'manage'] })).key;
  await grantCredits(t.db, u.id, 500);
  const as = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown) => {
    const response = await postJson(t.app, method, url, body, { cookie: u.cookie, csrf: u.csrf });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const list = (await as('POST', `/api/watchlists/users/${u.id}`, { name: 'Sweep list', description: 'C and V' }))
    .watchlist;
  await as('POST', `/api/watchlists/${list.id}/objects`, { object_ids: [c.id, v.id], tags: ['sweep'] });
  mine.watchlists = list.id;
  mine.listNumber = list.number;
  mine.browsing_history = (await as('POST', `/api/browsing_history/users/${u.id}`, { object_id: c.id })).id;
  await as('POST', `/api/browsing_history/users/${u.id}`, { object_id: v.id });
  // Bought before the takedown: the purchase stays U's, the company is no longer shown in it.
  mine.purchases = (await as('POST', `/api/purchases/users/${u.id}`, { object_id: c.id })).purchase.id;
  mine.existing_objects_tracking = (
    await as('POST', `/api/existing_objects_tracking/users/${u.id}`, { object_id: c.id })
  ).tracking.id;
  await as('POST', `/api/existing_objects_tracking/users/${u.id}`, { object_id: v.id });
  mine.new_objects_tracking = (
    await as('POST', `/api/new_objects_tracking/users/${u.id}`, {
      name: 'Sweep tracking',
      query: '/companies/search/?q=sweep',
    })
  ).tracking.id;
  mine.search_history = (
    await as('POST', `/api/search_history/users/${u.id}`, {
      section: 'companies',
      query: '/companies/search/?q=sweep',
      results: 1,
    })
  ).id;
  mine.saved_searches = (
    await as('POST', `/api/saved_searches/users/${u.id}`, {
      name: 'Sweep search',
      section: 'companies',
      query: '/companies/search/?q=sweep',
    })
  ).id;
  // An export job of C and V, started before the takedown (left queued: its state and file are swept).
  mine.exports = (
    await as('POST', '/api/exports', { section: 'companies', format: 'csv', scope: 'selected', ids: [c.id, v.id] })
  ).id;
  mine.contacts = (await as('POST', `/api/contacts/users/${u.id}`, { type: 'email', contact: 'sweep@example.com' })).id;
  mine.notification = Number(
    (
      await k
        .insertInto('notifications')
        .values({ user_id: u.id, kind: 'tracking_updates', data: sql`'{}'::jsonb` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );
  const order = await as('POST', `/api/orders/users/${u.id}`, { amount: '9.99', currency: 'EUR' });
  mine.orders = order.id;
  mine.orderNumber = order.number;
  await k.updateTable('orders').set({ status: 'paid', paid_at: new Date() }).where('id', '=', order.id).execute();
  mine.table_view_settings = (
    await as('POST', `/api/table_view_settings/users/${u.id}`, { section: 'companies', style: 'style-3' })
  ).id;
  mine.export_view_settings = (
    await as('POST', `/api/export_view_settings/users/${u.id}`, { section: 'companies', format: 'xlsx', count: 7 })
  ).id;
  const subscription = await k
    .insertInto('subscriptions')
    .values({
      user_id: u.id,
      plan_id: 'plan-basic',
      provider: 'sandbox',
      provider_ref: 'sub_takedown_sweep',
      period_start: new Date(),
      period_end: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  mine.subscriptions = Number(subscription.id);
  const ticket = (await as('POST', '/api/public/support_topics', { name: 'Sweep question', message: 'Hello' }))
    .support_topic;
  mine.public = ticket.id;
  mine.ticketNumber = ticket.number;
  await k
    .insertInto('saved_comparisons')
    .values({ user_id: u.id, legal_entity_ids: [c.id, v.id] })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ legal_entity_ids: [c.id, v.id] }))
    .execute();
  // An enrichment matched to C, and a row to review between C and V.
  const enrichment = await k
    .insertInto('enrichments')
    .values({
      user_id: u.id,
      file_name: 'sweep.csv',
      columns: JSON.stringify(['name']),
      mapping: JSON.stringify({ name: 'name' }),
      rows_total: 2,
      rows_done: 2,
      status: 'done',
      finished_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  mine.enrichment = Number(enrichment.id);
  const candidate = (x: Company, score: number) => ({ id: x.id, uri: x.uri, name: x.name, country: null, score });
  await k
    .insertInto('enrichment_rows')
    .values([
      {
        enrichment_id: mine.enrichment,
        row_number: 1,
        cells: JSON.stringify(['first row']),
        outcome: 'matched',
        score: 0.99,
        company_id: c.id,
        candidates: JSON.stringify([candidate(c, 0.99)]),
      },
      {
        enrichment_id: mine.enrichment,
        row_number: 2,
        cells: JSON.stringify(['second row']),
        outcome: 'review',
        score: 0.6,
        company_id: null,
        candidates: JSON.stringify([candidate(c, 0.6), candidate(v, 0.55)]),
      },
    ])
    .execute();
  // A webhook of U's (written here: creating one through the API may resolve its host).
  const webhook = await k
    .insertInto('webhooks')
    .values({ user_id: u.id, url: 'https://hooks.example.com/sweep', secret: 'sweep-secret' })
    .returning('id')
    .executeTakeFirstOrThrow();
  mine.webhooks = Number(webhook.id);
  const delivery = await k
    .insertInto('webhook_deliveries')
    .values({ user_id: u.id, webhook_id: mine.webhooks, payload: '{"changes":[]}', changes: 0, status: 'delivered' })
    .returning('id')
    .executeTakeFirstOrThrow();
  mine.webhook_deliveries = Number(delivery.id);
  // The webhook's cursor, the feed's `since`: the changes recorded from here on.
  since = Number(
    (await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(k)).rows[0].id,
  );
  await k.updateTable('webhooks').set({ last_change_id: since }).where('id', '=', mine.webhooks).execute();
  await k.updateTable('existing_objects_tracking').set({ last_change_id: since }).where('user_id', '=', u.id).execute();
  // Changes an import recorded: C renamed, and P joining V's members. The webhook's first delivery
  // is collected from them before the takedown (it is sent after it: a retry or a replay).
  await recordChanges();
  await collectDeliveries(t.db);
  // The reports are built (and the export documents current) before the takedown, as in production.
  await buildMonitoringReports(t.db, t.reference);
  await refreshExportDocuments(t.db, [c.id, v.id]);
  // Reconciliation's properties, and a help topic for the help routes.
  const proposed = (await t.app.inject({ url: '/api/reconcile/extend/propose?type=company' })).json();
  extendProperties = (proposed.properties as { id: string }[]).map((x) => x.id);
  const topic = await k.selectFrom('kb_topics').select(['id', 'uri']).orderBy('id').executeTakeFirstOrThrow();
  kbRef = `${topic.uri}-${topic.id}`;
  const industry = await sql<{ uri: string; id: string }>`select i.uri, i.id from industries i
    where i.id = coalesce((select coalesce(x.parent_id, x.id) from industries x
      join legal_entities le on le.primary_industry_id = x.id where le.id = ${c.id}), (select min(id) from industries))`.execute(
    k,
  );
  industryRef = `${industry.rows[0].uri}-${industry.rows[0].id}`;

  await k
    .insertInto('company_merges')
    .values({ merged_id: 987_654_321, merged_uri: MERGED_URI, merged_name: 'Sweep Merged', survivor_id: c.id })
    .execute();

  // C's and V's profiles are viewed before the takedown, by a guest and by U, in each language:
  // their rendered parts are kept (ADR 0040, "Rendered parts of the profile"), and the sweep after
  // the takedown must not be served them.
  for (const lang of ['', '/de', '/fr'])
    for (const headers of [{}, { cookie: u.cookie }])
      for (const [uri, name] of [
        [c.uri, c.name],
        [v.uri, p.name],
      ]) {
        const seen = await t.app.inject({ url: `${lang}/companies/details/${uri}/`, headers });
        if (seen.statusCode !== 200 || !(await textOf(seen.rawPayload, 'text/html')).includes(name))
          throw new Error(`${lang}/companies/details/${uri}/ before the takedown: ${seen.statusCode}, without ${name}`);
      }
  // And the company searches the sweep asks again (pageQueries), with C's and P's names: search pages
  // are kept too (ADR 0043, "Search pages kept by data version"), and the sweep after the takedown must
  // not be served them.
  for (const lang of ['', '/de', '/fr'])
    for (const headers of [{}, { cookie: u.cookie }])
      for (const [query, shown] of [
        [c.name, c.uri],
        [p.name, ''],
      ]) {
        const url = `${lang}/companies/search/?q=${encodeURIComponent(query)}`;
        const seen = await t.app.inject({ url, headers });
        if (seen.statusCode !== 200 || !(await textOf(seen.rawPayload, 'text/html')).includes(shown))
          throw new Error(`${url} before the takedown: ${seen.statusCode}, without ${shown}`);
      }

  // ---- the takedown ----
  await applyTakedown(t.db, 'hide', { target: 'company', ref: String(c.id), reason: 'erasure', actor: 'sweep' });
  await applyTakedown(t.db, 'hide', { target: 'person', ref: String(p.id), reason: 'erasure', actor: 'sweep' });
  // The same changes again, recorded after the takedown (an import does not know about it).
  await recordChanges();
}, 120_000);
afterAll(() => t?.close());

/** Records a change of C (its name) and of V (its members, P among them), as an import would. */
async function recordChanges(): Promise<void> {
  const k = t.db.kysely;
  const members = await k
    .selectFrom('legal_entity_members as x')
    .innerJoin('members as m', 'm.id', 'x.member_id')
    .select(['m.name', 'm.name_type'])
    .where('x.legal_entity_id', '=', v.id)
    .execute();
  const fact = (name: string, kind: string) => ({ name, kind, position: 'director', since: null });
  const change = { source: 'demo', source_date: null, import_id: null };
  await k
    .insertInto('company_changes')
    .values([
      {
        ...change,
        legal_entity_id: c.id,
        field: 'name',
        old_value: JSON.stringify(`${c.name} (old)`),
        new_value: JSON.stringify(c.name),
      },
      {
        ...change,
        legal_entity_id: v.id,
        field: 'members',
        old_value: JSON.stringify(members.filter((m) => m.name !== p.name).map((m) => fact(m.name, m.name_type))),
        new_value: JSON.stringify(members.map((m) => fact(m.name, m.name_type))),
      },
    ])
    .execute();
}

/** The first company whose name, address and identifiers no other row of the template contains. */
async function firstUnique(companies: Omit<Company, 'identifiers'>[]): Promise<Company> {
  for (const company of companies) {
    if (!(await nameIsUnique(company.name, { company: company.id }))) continue;
    const identifiers = await sql<{ identifier: string }>`
      select i.identifier from legal_entity_identifiers i where i.legal_entity_id = ${company.id}
        and length(i.identifier) >= 6
        and not exists (select 1 from legal_entity_identifiers o
          where o.identifier = i.identifier and o.legal_entity_id <> ${company.id})`.execute(t.db.kysely);
    if (identifiers.rows.length === 0) continue;
    return { ...company, identifiers: identifiers.rows.map((r) => r.identifier) };
  }
  throw new Error('the template has no company whose name is its own');
}

/** Whether no other company, member or record name of the template contains `name`. */
async function nameIsUnique(name: string, own: { company?: number; member?: number }): Promise<boolean> {
  const found = await sql<{ n: number }>`select
      (select count(*) from legal_entities where strpos(name, ${name}) > 0 and id <> ${own.company ?? 0})
    + (select count(*) from members where strpos(name, ${name}) > 0 and id <> ${own.member ?? 0}
        and coalesce(legal_entity_id, 0) <> ${own.company ?? 0})
    + (select count(*) from connections where strpos(name, ${name}) > 0
        and name <> ${name}) as n`.execute(t.db.kysely);
  return Number(found.rows[0].n) === 0;
}

// ---------------------------------------------------------------------------------------------
// What an answer may not say

/** The strings no answer may contain, with what each is. */
function needles(): [string, string][] {
  return [
    [c.name, 'C’s name'],
    [`/companies/details/${c.uri}/`, 'C’s address'],
    [c.uri, 'C’s uri'],
    ...c.identifiers.map((x): [string, string] => [x, 'C’s identifier']),
    [p.name, 'P’s name'],
    [p.path, 'P’s page'],
    ...p.contacts.map((x): [string, string] => [x, 'P’s contact']),
  ];
}

/** The text of an answer, decoded (tests/support/body-text.ts). */
const textOf = bodyText;

/**
 * What of C and P an answer mentions (empty when nothing). An answer may repeat what it was asked
 * (a search form shows its query, a 404 page its address): a needle the request itself holds is
 * not looked for in its answer — the other needles still are (a search for C's name must not link
 * C's profile or show its identifiers).
 */
async function mentionsIn(
  response: { rawPayload: Buffer; headers: Record<string, unknown> },
  asked = '',
): Promise<string[]> {
  const text = await textOf(response.rawPayload, String(response.headers['content-type'] ?? ''));
  let request = asked;
  try {
    request += `\n${decodeURIComponent(asked.replace(/\+/g, ' '))}`;
  } catch {
    // Not URL-encoded: as it is.
  }
  const found = needles()
    .filter(([needle]) => !request.includes(needle) && text.includes(needle))
    .map(([needle, what]) => `${what} (${needle})`);
  // C's id where a company's id goes in JSON. (A user's own record keeps the id it was made with —
  // a purchase of C stays U's purchase — but never the company: its `company` reads null.)
  const idPattern = new RegExp(`"(?:legal_entity_id|company_id|le_le_id)"\\s*:\\s*"?${c.id}(?![0-9])`);
  if (idPattern.test(text)) found.push(`C’s id (${c.id})`);
  return found;
}

type Caller = { label: string; headers: Record<string, string> };
const guest: Caller = { label: 'guest', headers: {} };
const signedIn = (): Caller => ({ label: 'signed in', headers: { cookie: u.cookie, 'x-csrf-token': u.csrf } });
const withKey = (): Caller => ({ label: 'API key', headers: { authorization: `Bearer ${key}` } });

/** Requests and collects what the answer mentions; a 5xx is a failure too (the route was not served). */
async function sweep(
  leaks: string[],
  caller: Caller,
  request: { method: string; url: string; payload?: unknown; headers?: Record<string, string> },
): Promise<number> {
  const response = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...caller.headers, ...request.headers },
    ...(request.payload === undefined ? {} : { payload: request.payload as string }),
  });
  const where = `${request.method} ${request.url} (${caller.label}) → ${response.statusCode}`;
  // A signed-in search is kept in U's search history: U's own words, which the history pages then
  // repeat. Forgotten at once, so that those pages are checked for what the site adds.
  if (caller !== guest && needles().some(([needle]) => decodeURIComponent(request.url).includes(needle))) {
    await t.db.kysely
      .deleteFrom('search_history')
      .where('user_id', '=', u.id)
      .where('id', '<>', mine.search_history)
      .execute();
  }
  if (response.statusCode >= 500) leaks.push(`${where}: server error ${response.body.slice(0, 200)}`);
  const asked = `${request.url}\n${typeof request.payload === 'string' ? request.payload : JSON.stringify(request.payload ?? '')}`;
  for (const mention of await mentionsIn(response, asked)) leaks.push(`${where}: ${mention}`);
  // And the headers that carry addresses and names (a redirect's Location, a download's file name).
  const headers = ['location', 'content-disposition', 'link'].map((h) => String(response.headers[h] ?? '')).join('\n');
  for (const mention of await mentionsIn({ rawPayload: Buffer.from(headers), headers: {} }, asked)) {
    leaks.push(`${where}: header: ${mention}`);
  }
  return response.statusCode;
}

/** The buyer's ledger entries. */
async function ledgerOfU() {
  return t.db.kysely
    .selectFrom('credit_ledger')
    .select(['id', 'delta', 'reason', 'note'])
    .where('user_id', '=', u.id)
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Pages: every route of the build's route manifest

type PageRoute = { id: string; path: string };

async function pageRoutes(): Promise<PageRoute[]> {
  const build = (await import(new URL('../../build/server/index.js', import.meta.url).href)) as {
    routes: Record<string, { parentId?: string; path?: string; index?: boolean }>;
  };
  const full = (id: string): string => {
    const route = build.routes[id];
    const own = route.path ?? '';
    return route.parentId ? `${full(route.parentId)}/${own}` : own;
  };
  return Object.keys(build.routes)
    .filter((id) => id !== 'root' && build.routes[id].path !== ':lang?')
    .map((id) => ({ id, path: full(id).replace(/\/+/g, '/') }));
}

/** The page URLs of a route: its parameters filled with C, P, V and U's records; null for a parameter the sweep does not know. */
function pageUrls(route: PageRoute, sections: string[]): string[] | null {
  const segments = route.path.split('/').filter((s) => s !== '' && s !== ':lang?');
  let urls = [''];
  for (const segment of segments) {
    let values: string[];
    if (!segment.startsWith(':') && segment !== '*') values = [segment];
    else if (segment === ':section') values = sections;
    else if (segment === ':uri') values = [c.uri, v.uri, MERGED_URI];
    else if (segment === ':name') values = [p.path.split('/')[3]];
    else if (segment === ':id' && route.path.includes('members/details')) values = [String(p.id)];
    else if (segment === ':id' && route.path.includes('enrichment')) values = [String(mine.enrichment)];
    else if (segment === ':id' && route.path.includes('support-desk')) values = [String(mine.public)];
    else if (segment === ':id' && route.path.includes('notifications')) values = [String(mine.notification)];
    else if (segment === ':id' && route.path.includes('exports')) values = [String(mine.exports)];
    else if (segment === ':number' && route.path.includes('lists')) values = [String(mine.listNumber)];
    else if (segment === ':number' && route.path.includes('orders')) values = [String(mine.orderNumber)];
    else if (segment === ':number' && route.path.includes('support')) values = [String(mine.ticketNumber)];
    else if (segment === ':industry') values = [industryRef];
    else if (segment === ':ref') values = [kbRef];
    else if (segment === ':field') values = choiceFields(sections);
    else if (segment === ':code') values = ['sweep-code'];
    else if (segment === '*' && route.path.includes('/f/')) values = [`company-${c.id}`];
    else if (segment === '*') values = ['no-such-page'];
    else return null;
    urls = urls.flatMap((url) => values.map((value) => `${url}/${value}`));
  }
  return urls.map((url) => `${url}/`);
}

/**
 * The queries a page is asked with besides none: on the pages that search or list, C's and P's
 * names; on a record section's, C's and V's ids as its company filter; on the companies export, C
 * selected and U's list.
 */
function pageQueries(url: string): string[] {
  const queries = [''];
  if (/search|export|lists|history|monitoring|comparison/.test(url)) {
    queries.push(`?q=${encodeURIComponent(c.name)}`, `?q=${encodeURIComponent(p.name)}`);
  }
  if (url.startsWith('/connections/')) queries.push(`?company=${c.id}`, `?company=${v.id}`);
  if (url.startsWith('/companies/export/')) queries.push(`?ids=${c.id}&scope=selected`, `?list=${mine.listNumber}`);
  return queries;
}

describe('after a company and a person are taken down', () => {
  // First: the sweep of the operations below deletes U's webhook and trackings.
  it('the sitemaps, the change feed and the webhook payloads leave them out', async () => {
    const leaks: string[] = [];
    await sweep(leaks, guest, { method: 'GET', url: '/robots.txt' });
    for (const lang of ['en', 'de', 'fr']) {
      const index = await t.app.inject({ url: `/sitemaps/${lang}.xml` });
      expect(index.statusCode).toBe(200);
      const files = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) expect(await sweep(leaks, guest, { method: 'GET', url: file }), file).toBe(200);
    }
    // The feed still has V's changes (the sweep reads real changes), without P; none of C's.
    const feed = await t.app.inject({ url: `/api/changes?since=${since}`, headers: { cookie: u.cookie } });
    expect(feed.statusCode).toBe(200);
    const items = feed.json().data as { company: { id: number } | null; new_value: { name: string }[] }[];
    expect(items.map((x) => x.company?.id)).toEqual([v.id, v.id]);
    expect(items[0].new_value.length).toBeGreaterThan(0);
    for (const mention of await mentionsIn(feed)) leaks.push(`change feed: ${mention}`);
    // The delivery collected before the takedown and the one collected after it, as they are sent.
    expect(await collectDeliveries(t.db)).toBe(1);
    // A receiver on this machine under the webhook's host name (deliveries connect to the address
    // their lookup checked).
    const sent: string[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        sent.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const { port } = receiver.address() as AddressInfo;
    await t.db.kysely
      .updateTable('webhooks')
      .set({ url: `http://hooks.example.com:${port}/sweep` })
      .where('id', '=', mine.webhooks)
      .execute();
    const lookup: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const summary = await sendDueDeliveries(t.db, { allowPrivateHosts: true, lookup }).finally(
      () => new Promise((done) => receiver.close(done)),
    );
    expect(summary.delivered).toBe(2);
    for (const body of sent) {
      expect(JSON.parse(body).changes.map((x: { company: { id: number } }) => x.company.id)).toEqual([v.id]);
      for (const mention of await mentionsIn({ rawPayload: Buffer.from(body), headers: {} }))
        leaks.push(`webhook payload: ${mention}`);
    }
    expect(leaks).toEqual([]);
  }, 120_000);

  it('no page route mentions them, for a guest or a signed-in user', async () => {
    const sections = recordSections();
    const routes = await pageRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const unfilled: string[] = [];
    const leaks: string[] = [];
    let requests = 0;
    // Twice: the second pass meets whatever the first left kept (the profiles' rendered parts, ADR 0040).
    for (const _pass of [1, 2])
      for (const route of routes) {
        const urls = pageUrls(route, sections);
        if (urls === null) {
          unfilled.push(`${route.id} (${route.path})`);
          continue;
        }
        for (const url of urls) {
          for (const query of pageQueries(url)) {
            for (const caller of [guest, signedIn()]) {
              await sweep(leaks, caller, { method: 'GET', url: `${url}${query}` });
              requests++;
            }
          }
        }
      }
    expect(unfilled, 'routes whose parameters the sweep cannot fill: teach pageUrls').toEqual([]);
    expect(leaks).toEqual([]);
    expect(requests).toBeGreaterThan(300);
    // The sweep read real pages: V's profile lists its other members (P's co-members).
    const coMember = await t.db.kysely
      .selectFrom('legal_entity_members as x')
      .innerJoin('members as m', 'm.id', 'x.member_id')
      .select('m.name')
      .where('x.legal_entity_id', '=', v.id)
      .where('m.id', '<>', p.id)
      .executeTakeFirstOrThrow();
    const profileOfV = await t.app.inject({ url: `/companies/details/${v.uri}/` });
    expect(profileOfV.statusCode).toBe(200);
    expect(await textOf(profileOfV.rawPayload, 'text/html')).toContain(coMember.name);
    // U's comparison (C and V) as a PDF: V alone.
    const pdf = await t.app.inject({ url: '/companies/comparison/pdf/', headers: { cookie: u.cookie } });
    expect(pdf.statusCode).toBe(200);
    expect(await textOf(pdf.rawPayload, String(pdf.headers['content-type']))).toContain(v.name);
    // The pages that named them are gone, not redirected.
    for (const gone of [`/companies/details/${c.uri}/`, `/companies/details/${c.uri}/history/`, p.path]) {
      expect((await t.app.inject({ url: gone })).statusCode, gone).toBe(404);
    }
  }, 240_000);

  it('buying C’s profile through the page is a 404 that charges nothing', async () => {
    const before = await ledgerOfU();
    const response = await t.app.inject({
      method: 'POST',
      url: `/companies/details/${c.uri}/`,
      headers: { cookie: u.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ intent: 'buy-profile', _csrf: u.csrf }).toString(),
    });
    expect(response.statusCode).toBe(404);
    expect(await ledgerOfU()).toEqual(before);
  });

  it('no OpenAPI operation mentions them, as a guest, with an API key or signed in, and none charges for them', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(150);
    const before = await ledgerOfU();
    const unfilled: string[] = [];
    const leaks: string[] = [];
    const calls: Call[] = [];
    for (const op of operations) {
      if (op.operationId in SKIPPED) continue;
      try {
        calls.push(...callsOf(op, document.components?.schemas ?? {}));
      } catch (error) {
        unfilled.push((error as Error).message);
      }
    }
    expect(unfilled, 'operations whose parameters the sweep cannot fill: teach FILL or sample').toEqual([]);
    // Reads first, then writes (which may delete U's records), the signed-in session last.
    const order = (call: Call) => (call.method === 'GET' ? 0 : call.method === 'DELETE' ? 2 : 1);
    calls.sort((a, b) => order(a) - order(b));
    for (const caller of [guest, withKey(), signedIn()]) {
      for (const call of calls) {
        // The export's leaks are asserted with the other exports below (they read the export documents).
        await sweep(call.url.startsWith('/api/export/') ? exportLeaks : leaks, caller, call);
      }
    }
    expect(leaks).toEqual([]);
    // The sweep read real rows: V's members through the API, without P.
    const membersOfV = await t.app.inject({ url: `/api/site/data/v1/members?le_le_id=${v.id}` });
    expect(membersOfV.json().data.length).toBeGreaterThan(0);
    // C cannot be bought, viewed, tracked or listed by its id.
    for (const [url, body] of [
      [`/api/purchases/users/${u.id}`, { object_id: c.id }],
      [`/api/browsing_history/users/${u.id}`, { object_id: c.id }],
    ] as const) {
      const response = await postJson(t.app, 'POST', url, body, { cookie: u.cookie, csrf: u.csrf });
      expect(response.statusCode, url).toBe(404);
    }
    // Nothing was charged for C: no profile bought, and an export is charged for the rows it
    // writes (an export of C alone, none, is free); the match call costs its queries (per query,
    // whatever it finds: ADR 0020).
    const charged = (await ledgerOfU()).filter((e) => !before.some((b) => b.id === e.id) && Number(e.delta) < 0);
    expect(charged.filter((e) => e.reason !== 'api' && e.reason !== 'export')).toEqual([]);
    for (const e of charged.filter((x) => x.reason === 'api')) expect(e.note).toMatch(/^match: \d+ queries/);
    for (const e of charged.filter((x) => x.reason === 'export'))
      expect(e.note).toMatch(/^companies: [1-9]\d* rows(, export #\d+)?$/);
  }, 120_000);

  it('the exports of a search that would include them and of V’s members, in every format, leave them out', async () => {
    // An exporter of their own: exports are charged for the rows they write, and only for those.
    const exporter = await createSignedInUser(t.db, 'takedown-sweep-exporter');
    await grantCredits(t.db, exporter.id, 1000);
    // With what the sweep of the operations found in /api/export/{section}.
    const leaks = exportLeaks;
    const as: Caller = { label: 'exporter', headers: { cookie: exporter.cookie } };
    const queries = [
      `q=${encodeURIComponent(c.name)}`,
      `ids=${c.id}&ids=${v.id}&scope=selected&sections=members|identifiers|names`,
      `company=${v.id}`,
    ];
    for (const format of ['csv', 'xlsx', 'json', 'xml']) {
      for (const [section, query] of [
        ['companies', queries[0]],
        ['companies', queries[1]],
        ['connections', queries[2]],
      ] as const) {
        const url = `/api/export/${section}?format=${format}&${query}`;
        expect(await sweep(leaks, as, { method: 'GET', url }), url).toBe(200);
      }
    }
    expect(leaks).toEqual([]);
    // The selected export of C and V was charged for one row (V's), not two.
    const notes = await t.db.kysely
      .selectFrom('credit_ledger')
      .select('note')
      .where('user_id', '=', exporter.id)
      .where('reason', '=', 'export')
      .execute();
    expect(notes.map((n) => n.note)).not.toContain('companies: 2 rows');
  }, 120_000);
});

/**
 * The sections a `:section` route is walked with: the companies, and connections (the record
 * section that copies members' names). Every record section reads through the same visibleRow
 * (takedown-everywhere.test.ts); walking all 22 would multiply the sweep by eleven.
 */
function recordSections(): string[] {
  return ['companies', 'connections'];
}

/** A `:field` (a filter's whole list of values): every list filter of the walked sections (another section's is a 404). */
function choiceFields(sections: string[]): string[] {
  const fields = sections.flatMap((id) =>
    (sectionById(id)?.filters ?? [])
      .filter((f) => f.kind === 'reference' || f.kind === 'enum' || f.kind === 'column_choice')
      .map((f) => f.field),
  );
  return [...new Set(fields)];
}

// ---------------------------------------------------------------------------------------------
// OpenAPI operations

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  $ref?: string;
  format?: string;
  minimum?: number;
};
type Operation = {
  method: string;
  path: string;
  operationId: string;
  parameters: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  body?: { contentType: string; schema: JsonSchema };
};
type Call = { method: string; url: string; payload?: unknown; headers?: Record<string, string> };

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        parameters?: Operation['parameters'];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      };
      const [contentType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        body: contentType ? { contentType, schema: content.schema } : undefined,
      });
    }
  }
  return out;
}

/**
 * The values of a query parameter that aim at C, V or P (each a call of its own), by name; an
 * optional parameter not named here is left out, a required one fails the sweep.
 */
function queryValues(op: Operation, name: string): string[] | undefined {
  const names = [c.name, p.name];
  const fill: Record<string, string[]> = {
    q: names,
    name: [p.name],
    le_le_id: [String(c.id), String(v.id)],
    company: [String(c.id), String(v.id)],
    id: op.operationId === 'reconcilePreview' ? [c.uri, v.uri] : [String(c.id)],
    ids: [String(c.id)],
    'identifiers[company_number]': c.identifiers,
    'identifiers[lei]': c.identifiers,
    prefix: names,
    queries: names.map((query) => JSON.stringify({ q0: { query }, q1: { query, type: 'company' } })),
    extend: [JSON.stringify({ ids: [c.uri, v.uri], properties: extendProperties.map((id) => ({ id })) })],
    since: [String(since)],
    tracking: [String(mine.existing_objects_tracking)],
    tracking_id: [String(mine.existing_objects_tracking)],
    webhook_id: [String(mine.webhooks)],
    list: [String(mine.listNumber)],
    hidden: ['true'],
    sections: ['le_legal_entities|le_names|le_identifiers|le_members|le_contacts|le_shares|le_addresses'],
    type: op.operationId === 'reconcileProposeProperties' ? ['company'] : [],
  };
  return fill[name];
}

/** The calls of an operation: its path filled, then one call per query value that aims at C, V or P. */
function callsOf(op: Operation, schemas: Record<string, JsonSchema>): Call[] {
  const resource = op.path.split('/')[2];
  let path = op.path;
  for (const parameter of op.parameters.filter((x) => x.in === 'path')) {
    let value: number | string | undefined;
    if (parameter.name === 'user_id') value = u.id;
    else if (parameter.name === 'section') value = 'companies';
    else if (parameter.name === 'id' && op.operationId === 'getKbTopic') value = kbRef.split('-').pop();
    // A company's ownership, asked of C (ADR 0038).
    else if (parameter.name === 'id' && op.operationId === 'getLegalEntityOwnership') value = c.id;
    else if (parameter.name === 'id') value = mine[resource];
    // No snapshot is built here: the download answers its 401/404 (bulk-data.test.ts sweeps the files).
    else if (parameter.name === 'snapshot') value = '2026-01-01';
    else if (parameter.name === 'file') value = 'companies.jsonl.gz';
    if (value === undefined) throw new Error(`path parameter ${parameter.name} of ${op.operationId}`);
    path = path.replace(`{${parameter.name}}`, String(value));
  }
  const query = op.parameters.filter((x) => x.in === 'query');
  // One call per value of the required parameters (suggest asks for C's name and for P's), each
  // then with one optional parameter more per value that aims at C, V or P.
  let bases = [new URLSearchParams()];
  for (const parameter of query.filter((x) => x.required)) {
    const values = queryValues(op, parameter.name);
    if (!values || values.length === 0)
      throw new Error(`required query parameter ${parameter.name} of ${op.operationId}`);
    bases = bases.flatMap((b) =>
      values.map((value) => {
        const q = new URLSearchParams(b);
        q.set(parameter.name, value);
        return q;
      }),
    );
  }
  const queries = [...bases];
  for (const parameter of query.filter((x) => !x.required)) {
    for (const value of queryValues(op, parameter.name) ?? []) {
      const q = new URLSearchParams(bases[0]);
      q.set(parameter.name, value);
      if (parameter.name === 'ids') q.set('scope', 'selected');
      queries.push(q);
    }
  }
  const bodies = bodiesOf(op, schemas);
  return queries.flatMap((q) => {
    const url = `${path}${q.size > 0 ? `?${q}` : ''}`;
    return bodies.map((body) => ({ method: op.method, url, ...body }));
  });
}

/** The bodies an operation is called with: a search body per filter aimed at C, V or P, else one sampled body. */
function bodiesOf(
  op: Operation,
  schemas: Record<string, JsonSchema>,
): { payload?: unknown; headers?: Record<string, string> }[] {
  if (!op.body) return [{}];
  if (op.body.contentType === 'application/x-www-form-urlencoded' || op.operationId === 'reconcileForm') {
    const forms = [
      ...(queryValues(op, 'queries') ?? []).map((queries) => ({ queries })),
      ...(queryValues(op, 'extend') ?? []).map((extend) => ({ extend })),
    ];
    return forms.map((form) => ({
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }));
  }
  const properties = resolve(op.body.schema, schemas).properties ?? {};
  if ('filter' in properties) {
    // A search body: its name query, and one filter leaf per value that aims at C, V or P.
    const bodies: unknown[] = [{}];
    if ('q' in properties) bodies.push(...[c.name, p.name].map((q) => ({ q })));
    for (const name of ['company', 'name', 'le_le_id']) {
      for (const value of queryValues(op, name) ?? []) bodies.push({ filter: { [name]: value } });
    }
    return bodies.map((payload) => ({ payload }));
  }
  return [{ payload: sample(op.body.schema, schemas, op.operationId, '') }];
}

function resolve(schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  return schema.$ref ? resolve(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas) : schema;
}

/** A valid body aimed at C: every property the sweep knows, C's id where a company's goes, U's ids where U's records go. */
function sample(raw: JsonSchema, schemas: Record<string, JsonSchema>, operationId: string, name: string): unknown {
  const schema = resolve(raw, schemas);
  if (schema.anyOf)
    return sample(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0], schemas, operationId, name);
  if (schema.enum) return schema.enum.includes('companies') ? 'companies' : schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  const ids: Record<string, number> = {
    object_id: c.id,
    object_ids: c.id,
    ids: c.id,
    list: mine.listNumber,
    watchlist_id: mine.watchlists,
    contact_ids: mine.contacts,
    order_ids: mine.orders,
    purchase_ids: mine.purchases,
    table_view_setting_ids: mine.table_view_settings,
    export_view_setting_ids: mine.export_view_settings,
    user_id: u.id,
  };
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        // Optional day ranges would only narrow what a call touches: leave them out.
        if (!schema.required?.includes(key) && (key === 'from' || key === 'to')) continue;
        out[key] = sample(property, schemas, operationId, key);
      }
      return out;
    }
    case 'array':
      return [sample(schema.items ?? {}, schemas, operationId, name)];
    case 'integer':
    case 'number':
      if (name in ids) return ids[name];
      if (name === 'results' || name === 'limit' || name === 'product_id' || name === 'tool_id') return 1;
      if (name === 'count') return 10;
      throw new Error(`the number ${name} of ${operationId}`);
    case 'string':
      if (schema.format === 'date-time' || name === 'created_at') return new Date(Date.now() - 60_000).toISOString();
      if (name === 'email') return uniqueEmail('sweep-body');
      if (name === 'password') return GOOD_PASSWORD;
      if (name === 'section') return 'companies';
      // An export job's search: C's name, as the export page's query string.
      if (name === 'search') return `q=${encodeURIComponent(c.name)}`;
      // A query U writes is U's own words: not one that names C (the history would repeat it).
      if (name === 'query') return '/companies/search/?q=sweep';
      if (name === 'tag' || name === 'tags') return 'sweep';
      if (name === 'company_refs') return c.uri;
      if (name === 'name' && operationId === 'matchCompanies') return c.name;
      if (['name', 'description', 'summary', 'message', 'body'].includes(name)) return `Sent by ${operationId}`;
      if (name === 'language') return 'en';
      if (name === 'contact') return 'sweep-two@example.com';
      if (name === 'amount') return '1.00';
      if (name === 'currency') return 'EUR';
      if (name === 'columns') return 'name';
      if (name === 'url') return 'https://hooks.example.com/other';
      if (name === 'offer_id') return 'credits-10';
      if (name === 'id' && operationId === 'matchCompanies') return 'row-1';
      if (name === 'registration_number' || name === 'lei') return c.identifiers[0];
      if (['vat', 'domain', 'country', 'address'].includes(name)) return 'x';
      if (
        name.startsWith('utm_') ||
        ['uid', 'user_agent', 'site_id', 'product_id', 'tool_id', 'tool_type'].includes(name)
      )
        return 'sweep';
      throw new Error(`the string ${name} of ${operationId}`);
    case 'boolean':
      return true;
    default:
      if (name === 'order_data' || name === 'fields') return undefined;
      throw new Error(`${JSON.stringify(schema).slice(0, 80)} (${name}) of ${operationId}`);
  }
}
