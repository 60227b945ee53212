import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import { exportJob } from '../../jobs/export.job.ts';
import { drainJobs } from '../../jobs/worker.ts';
import { postJson } from '../support/accounts.ts';
import { quietLog, testJobServices } from '../support/job-services.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The cross-user sweep: user A has data in every resource; user B, signed in with
// a valid session and CSRF token, calls EVERY signed-in route of the OpenAPI document with A's
// {user_id}, A's record ids and A's ids in the body — each must answer 403 or 404 and leave A's
// data exactly as it was. A guest gets 401 from every one of them. The routes come from
// /api/openapi.json, so a route added later is swept too: one the sweep cannot call (a new kind
// of parameter) fails this test until the sweep learns it.

let t: TestApp;
let a: TestUser;
let b: TestUser;
/** A's record ids, by the first path segment of the routes that take them as {id}. */
const recordOf: Record<string, number> = {};
/** Values of A's for body fields. */
const bodyIds: Record<string, number> = {};
let aTag = '';

type Operation = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  operationId: string;
  parameters: { name: string; in: string; required?: boolean }[];
  body?: JsonSchema;
};
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  $ref?: string;
  format?: string;
};

/**
 * Signed-in routes that take no user id, record id or id in the body: they only ever act on the
 * caller's own session, so there is nothing of A's to reach. Each needs its reason here.
 */
const SELF_ONLY: Record<string, string> = {
  getProfile: 'answers the caller’s own profile',
  signOut: 'ends the caller’s own session (calling it would sign B out)',
  listChanges:
    'the change feed is the same for every signed-in user; its `tracking` filter looks among the caller’s own trackings (change-feed-webhooks.test.ts: another user’s is a 404)',
  exportRecords:
    'downloads for the caller; a company list in its query is looked up among the caller’s own (export.test.ts: another user’s list is a 404)',
  listSupportTopics: 'lists the caller’s own support tickets (support.test.ts: another user’s ticket is a 404)',
  createSupportTopic: 'opens a ticket of the caller’s own',
  matchCompanies: 'matches public companies, spending the caller’s own credits (matching.test.ts)',
  startExport: 'starts an export of the caller’s own; a company list in it is looked up among the caller’s own',
  listExports: 'lists the caller’s own export jobs',
};

/** Public routes that take an {id} of content that is nobody's data. Each needs its reason here. */
const PUBLIC_BY_ID: Record<string, string> = {
  getKbTopic: 'a help topic is public content (knowledge-base.test.ts)',
  getLegalEntityOwnership:
    'a company’s ownership is public register data, like the rest of the data API (ownership.test.ts)',
};

let operations: Operation[] = [];
/** The document's named schemas, for a body that refers to one ($ref). */
let schemas: Record<string, JsonSchema> = {};

beforeAll(async () => {
  t = await buildTestApp({ pages: false });
  a = await createSignedInUser(t.db, 'sweep-a', { name: 'Alice Owner' });
  b = await createSignedInUser(t.db, 'sweep-b', { name: 'Bob Other' });
  const [c1, c2] = await someCompanies(t.db, 2, 20);
  const as = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown) =>
    postJson(t.app, method, url, body, { cookie: a.cookie, csrf: a.csrf });

  const list = (await as('POST', `/api/watchlists/users/${a.id}`, { name: 'A’s list', description: 'Private' })).json()
    .watchlist;
  await as('POST', `/api/watchlists/${list.id}/objects`, { object_ids: [c1.id, c2.id], tags: ['secret'] });
  const view = (await as('POST', `/api/browsing_history/users/${a.id}`, { object_id: c1.id })).json();
  const search = (
    await as('POST', `/api/search_history/users/${a.id}`, {
      section: 'companies',
      query: '/companies/search/?q=alice',
      results: 3,
    })
  ).json();
  const saved = (
    await as('POST', `/api/saved_searches/users/${a.id}`, {
      name: 'A’s search',
      section: 'companies',
      query: '/companies/search/?q=alice',
    })
  ).json();
  Object.assign(recordOf, {
    watchlists: list.id,
    browsing_history: view.id,
    search_history: search.id,
    saved_searches: saved.id,
  });
  Object.assign(bodyIds, { watchlist_id: list.id, object_id: c1.id, user_id: a.id });
  aTag = 'secret';
  // ---- export view settings ----
  const exportSetting = (
    await as('POST', `/api/export_view_settings/users/${a.id}`, { section: 'companies', format: 'xlsx', count: 7 })
  ).json();
  recordOf.export_view_settings = exportSetting.id;
  Object.assign(bodyIds, { export_view_setting_ids: exportSetting.id, count: 50 });

  // ---- contacts, orders, purchases, table view settings ----
  const contact = (
    await as('POST', `/api/contacts/users/${a.id}`, { type: 'email', contact: 'alice@example.com' })
  ).json();
  const order = (await as('POST', `/api/orders/users/${a.id}`, { amount: '9.99', currency: 'EUR' })).json();
  await grantCredits(t.db, a.id, 10);
  const purchase = (await as('POST', `/api/purchases/users/${a.id}`, { object_id: c1.id })).json().purchase;
  const tableView = (
    await as('POST', `/api/table_view_settings/users/${a.id}`, { section: 'companies', style: 'style-3' })
  ).json();
  Object.assign(recordOf, { orders: order.id, purchases: purchase.id, table_view_settings: tableView.id });
  // ---- an export job of A's (left queued) ----
  recordOf.exports = (
    await as('POST', '/api/exports', { section: 'companies', format: 'csv', scope: 'selected', ids: [c1.id] })
  ).json().id;
  // Written by the worker, so that its file is there to be refused to B.
  const services = testJobServices(t.db, t.reference);
  await drainJobs({ services, log: quietLog, definitions: [exportJob as never], daily: false, retryDelay: () => 0 });
  await services.mailer.close();
  // ---- billing: A's order is paid (it has an invoice), and A has a subscription (its cancel takes {id}) ----
  await t.db.kysely
    .updateTable('orders')
    .set({ status: 'paid', paid_at: new Date() })
    .where('id', '=', order.id)
    .execute();
  const subscription = await t.db.kysely
    .insertInto('subscriptions')
    .values({
      user_id: a.id,
      plan_id: 'plan-basic',
      provider: 'sandbox',
      provider_ref: 'sub_sweep_a',
      period_start: new Date(),
      period_end: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  recordOf.subscriptions = Number(subscription.id);
  // ---- monitoring ----
  const tracked = (await as('POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c1.id })).json()
    .tracking;
  const newTracking = (
    await as('POST', `/api/new_objects_tracking/users/${a.id}`, {
      name: 'A’s tracking',
      query: '/companies/search/?q=a',
    })
  ).json().tracking;
  Object.assign(recordOf, { existing_objects_tracking: tracked.id, new_objects_tracking: newTracking.id });
  // ---- webhooks and a delivery ----
  const webhook = (await as('POST', `/api/webhooks/users/${a.id}`, { url: 'https://example.com/alice' })).json()
    .webhook;
  const delivery = await t.db.kysely
    .insertInto('webhook_deliveries')
    .values({ user_id: a.id, webhook_id: webhook.id, payload: '{"changes":[]}', changes: 0, status: 'delivered' })
    .returning('id')
    .executeTakeFirstOrThrow();
  Object.assign(recordOf, { webhooks: webhook.id, webhook_deliveries: Number(delivery.id) });
  // ---- a support ticket (/api/public/support_topics/{id}: the resource segment is `public`) ----
  const ticket = (await as('POST', '/api/public/support_topics', { name: 'A’s question', message: 'Private' })).json()
    .support_topic;
  recordOf.public = ticket.id;
  Object.assign(bodyIds, {
    contact_ids: contact.id,
    order_ids: order.id,
    purchase_ids: purchase.id,
    table_view_setting_ids: tableView.id,
  });

  const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
  schemas = document.components?.schemas ?? {};
  operations = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        operationId: string;
        security?: unknown[];
        parameters?: Operation['parameters'];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      };
      // Signed-in routes take the cookie (or a key); the data routes take a key optionally (ADR 0020).
      if (!isSignedIn(op.security)) continue;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
});
afterAll(() => t?.close());

/** Whether an operation's security asks for a signed-in user (the cookie), not just an optional key. */
function isSignedIn(security: unknown): boolean {
  return Array.isArray(security) && security.some((s) => s && typeof s === 'object' && 'cookieAuth' in s);
}

/** Everything of A's, to compare before and after the sweep. */
async function snapshotOfA() {
  const k = t.db.kysely;
  const [user, lists, objects, views, searches, saved, sessions] = await Promise.all([
    k.selectFrom('users').select(['email', 'name', 'language', 'updated_at']).where('id', '=', a.id).execute(),
    k.selectFrom('watchlists').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('watchlist_objects').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('browsing_history').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('search_history').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('saved_searches').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', a.id).execute(),
  ]);
  const exportSettings = await k.selectFrom('export_view_settings').selectAll().where('user_id', '=', a.id).execute();
  const trackings = await k.selectFrom('existing_objects_tracking').selectAll().where('user_id', '=', a.id).execute();
  const newTrackings = await k.selectFrom('new_objects_tracking').selectAll().where('user_id', '=', a.id).execute();
  const webhooks = await k.selectFrom('webhooks').selectAll().where('user_id', '=', a.id).execute();
  const deliveries = await k.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', a.id).execute();
  const subscriptions = await k.selectFrom('subscriptions').selectAll().where('user_id', '=', a.id).execute();
  const ledger = await k.selectFrom('credit_ledger').selectAll().where('user_id', '=', a.id).orderBy('id').execute();
  const tickets = await k.selectFrom('support_topics').selectAll().where('user_id', '=', a.id).execute();
  const ticketMessages = await k
    .selectFrom('support_messages')
    .selectAll()
    .where('topic_id', 'in', tickets.length > 0 ? tickets.map((x) => x.id) : [-1])
    .orderBy('id')
    .execute();
  return {
    subscriptions,
    ledger,
    user,
    lists,
    objects,
    views,
    searches,
    saved,
    sessions,
    exportSettings,
    trackings,
    newTrackings,
    webhooks,
    deliveries,
    tickets,
    ticketMessages,
    ...(await accountDataOfA()),
  };
}

/** A's contacts, orders, purchases and table view settings. */
async function accountDataOfA() {
  const k = t.db.kysely;
  const [contacts, orders, purchases, tableViews] = await Promise.all([
    k.selectFrom('user_contacts').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('orders').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('purchases').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
    k.selectFrom('table_view_settings').selectAll().where('user_id', '=', a.id).orderBy('id').execute(),
  ]);
  return { contacts, orders, purchases, tableViews };
}

/** The URL of an operation with A's {user_id} and A's record {id}. */
function urlFor(op: Operation): string {
  const resource = op.path.split('/')[2];
  let url = op.path;
  for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
    let value: number | string | undefined;
    if (parameter.name === 'user_id') value = a.id;
    else if (parameter.name === 'section') value = 'companies';
    else if (parameter.name === 'id') value = recordOf[resource];
    if (value === undefined)
      throw new Error(`the sweep does not know path parameter ${parameter.name} of ${op.operationId}`);
    url = url.replace(`{${parameter.name}}`, String(value));
  }
  return url;
}

/** A valid body aimed at A's data: every property the sweep knows, A's ids where ids go. */
function bodyFor(op: Operation): unknown {
  if (!op.body) return undefined;
  return sample(op.body, op.operationId, '');
}

function sample(schema: JsonSchema, operationId: string, name: string): unknown {
  if (schema.$ref) return sample(schemas[schema.$ref.replace('#/components/schemas/', '')], operationId, name);
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0], operationId, name);
  if (schema.enum) return schema.enum.includes('companies') ? 'companies' : schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        // Optional day ranges would only narrow what a call touches: leave them out.
        if (!schema.required?.includes(key) && (key === 'from' || key === 'to')) continue;
        out[key] = sample(property, operationId, key);
      }
      return out;
    }
    case 'array':
      return [sample(schema.items ?? {}, operationId, name === 'object_ids' ? 'object_id' : name)];
    case 'integer':
    case 'number':
      if (name in bodyIds) return bodyIds[name];
      if (name === 'results' || (name === 'limit' && operationId === 'matchCompanies')) return 1;
      // An export job's companies and its company list (A's first list is number 1).
      if (name === 'ids') return bodyIds.object_id;
      if (name === 'list') return 1;
      throw new Error(`the sweep does not know the number ${name} of ${operationId}`);
    case 'string':
      if (schema.format === 'date-time' || name === 'created_at') return new Date(Date.now() - 60_000).toISOString();
      if (name === 'section') return 'companies';
      if (name === 'query') return '/companies/search/?q=bob';
      if (name === 'search') return 'q=bob';
      if (name === 'tag' || name === 'tags') return aTag;
      if (name === 'company_refs') return String(bodyIds.object_id);
      if (['name', 'description', 'summary'].includes(name)) return `Changed by ${operationId}`;
      if (name === 'language') return 'de';
      if (name === 'contact') return 'bob@example.com';
      if (name === 'amount') return '1.00';
      if (name === 'currency') return 'EUR';
      if (name === 'columns') return 'name';
      if (name === 'url') return 'https://example.com/bob';
      if (name === 'offer_id') return 'credits-10';
      // A match query: its own row id, and what describes the company.
      if (name === 'id' && operationId === 'matchCompanies') return 'row-1';
      if (['lei', 'registration_number', 'vat', 'domain', 'country', 'address'].includes(name)) return 'x';
      if (name === 'message' || name === 'body') return `Written by ${operationId}`;
      throw new Error(`the sweep does not know the string ${name} of ${operationId}`);
    case 'boolean':
      return true;
    default:
      throw new Error(`the sweep does not know ${JSON.stringify(schema)} (${name}) of ${operationId}`);
  }
}

function call(op: Operation, as: TestUser | { key: string } | null) {
  const url = urlFor(op);
  const headers =
    as === null
      ? {}
      : 'key' in as
        ? { authorization: `Bearer ${as.key}` }
        : { cookie: as.cookie, 'x-csrf-token': as.csrf };
  const body = bodyFor(op);
  return t.app.inject({
    method: op.method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

describe('the cross-user sweep', () => {
  it('finds the signed-in routes in the OpenAPI document, each either aimed at a user’s data or self-only', () => {
    const ids = operations.map((op) => op.operationId);
    // The routes of a user's data are all there (a renamed route must be renamed here too).
    for (const expected of [
      'updateUser',
      'listWatchlists',
      'createWatchlist',
      'getWatchlist',
      'updateWatchlist',
      'deleteWatchlist',
      'addWatchlistObjects',
      'deleteWatchlistObjects',
      'deleteWatchlistTag',
      'listBrowsingHistory',
      'addBrowsingHistory',
      'clearBrowsingHistory',
      'updateBrowsingHistory',
      'deleteBrowsingHistory',
      'listSearchHistory',
      'addSearchHistory',
      'clearSearchHistory',
      'updateSearchHistory',
      'deleteSearchHistory',
      'listSavedSearches',
      'saveSearch',
      'updateSavedSearch',
      'deleteSavedSearch',
      'listUserContacts',
      'addUserContact',
      'deleteUserContacts',
      'listOrders',
      'createOrder',
      'updateOrder',
      'deleteOrders',
      'listPurchases',
      'purchaseProfile',
      'updatePurchase',
      'deletePurchases',
      'listTableViewSettings',
      'saveTableViewSetting',
      'updateTableViewSetting',
      'deleteTableViewSettings',
      'listExistingObjectsTracking',
      'createExistingObjectsTracking',
      'getExistingObjectsTracking',
      'updateExistingObjectsTracking',
      'updateExistingObjectsTrackingStatus',
      'deleteExistingObjectsTracking',
      'listNewObjectsTracking',
      'createNewObjectsTracking',
      'getNewObjectsTracking',
      'updateNewObjectsTracking',
      'updateNewObjectsTrackingStatus',
      'deleteNewObjectsTracking',
      'listUpdateReports',
      'listNewCompaniesReports',
      'listWebhooks',
      'createWebhook',
      'getWebhook',
      'updateWebhook',
      'deleteWebhook',
      'listWebhookDeliveries',
      'replayWebhookDelivery',
      'listProducts',
      'getBalance',
      'listPayments',
      'createPayment',
      'listSubscriptions',
      'cancelSubscription',
      'getInvoice',
      'getSupportTopic',
      'createSupportMessage',
      'getSupportToken',
    ]) {
      expect(ids, expected).toContain(expected);
    }
    for (const op of operations) {
      const aimed = /\{(user_id|id)\}/.test(op.path) || JSON.stringify(op.body ?? {}).includes('_id');
      expect(aimed || op.operationId in SELF_ONLY, `${op.method} ${op.path} takes no id: list it in SELF_ONLY`).toBe(
        true,
      );
    }
  });

  it('routes that name a user or a record are all signed-in routes', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, { security?: unknown; operationId: string }>>,
    )) {
      if (!/\{(user_id|id)\}/.test(path)) continue;
      for (const [method, op] of Object.entries(methods)) {
        if (op.operationId in PUBLIC_BY_ID) continue;
        expect(isSignedIn(op.security), `${method.toUpperCase()} ${path} must need a signed-in user`).toBe(true);
      }
    }
  });

  it('refuses user B every route aimed at user A’s data (403 or 404), leaving A’s data unchanged', async () => {
    const before = await snapshotOfA();
    expect(before.lists).toHaveLength(1);
    expect(before.objects).toHaveLength(2);
    expect(before.views).toHaveLength(1);
    expect(before.searches).toHaveLength(1);
    expect(before.saved).toHaveLength(1);
    expect(before.trackings).toHaveLength(1);
    expect(before.newTrackings).toHaveLength(1);
    expect(before.tickets).toHaveLength(1);
    for (const mine of [before.contacts, before.orders, before.purchases, before.tableViews])
      expect(mine).toHaveLength(1);
    const answers: string[] = [];
    for (const op of operations) {
      if (op.operationId in SELF_ONLY) continue;
      const response = await call(op, b);
      answers.push(`${op.method} ${op.path} → ${response.statusCode}`);
      expect([403, 404], `${op.method} ${urlFor(op)} as B: ${response.body}`).toContain(response.statusCode);
      // Refused for being A's, not for B's session or token.
      const refusal = response.json().error;
      expect(refusal.code, `${op.method} ${op.path}`).toBe(response.statusCode === 403 ? 'forbidden' : 'not_found');
      if (response.statusCode === 403) expect(refusal.message).toBe('This belongs to another user.');
    }
    expect(answers.length).toBeGreaterThanOrEqual(23);
    expect(await snapshotOfA()).toEqual(before);
    // B's own calls still work (the refusals were about A's data, not B's session).
    const own = await t.app.inject({ url: `/api/watchlists/users/${b.id}`, headers: { cookie: b.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.json().count).toBe(0);
  });

  it('refuses B’s API key (read and manage) every route aimed at A’s data, leaving A’s data unchanged', async () => {
    const { key } = await createApiKey(t.db, b.id, { name: 'B’s script', scopes: ['read', 'manage'] });
    const before = await snapshotOfA();
    let refused = 0;
    for (const op of operations) {
      if (op.operationId in SELF_ONLY) continue;
      const response = await call(op, { key });
      expect([403, 404], `${op.method} ${urlFor(op)} with B’s key: ${response.body}`).toContain(response.statusCode);
      if (response.statusCode === 403) expect(response.json().error.message).toBe('This belongs to another user.');
      refused += 1;
    }
    expect(refused).toBeGreaterThanOrEqual(23);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('refuses A’s own read-only key every route of A’s own records (the manage scope), leaving them unchanged', async () => {
    const { key } = await createApiKey(t.db, a.id, { name: 'A’s reader', scopes: ['read'] });
    const before = await snapshotOfA();
    for (const op of operations) {
      // Signed-in routes of the read scope: they read public data for the caller (ADR 0020), an
      // export job as the export's download does (ADR 0031).
      const readScope = [
        'exportRecords',
        'matchCompanies',
        'startExport',
        'listExports',
        'getExport',
        'downloadExport',
      ];
      if (readScope.includes(op.operationId)) continue;
      const response = await call(op, { key });
      expect(response.statusCode, `${op.method} ${urlFor(op)} with a read-only key: ${response.body}`).toBe(403);
      expect(response.json().error.details.scope).toBe('manage');
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it('answers a guest 401 on every signed-in route, leaving A’s data unchanged', async () => {
    const before = await snapshotOfA();
    for (const op of operations) {
      const response = await call(op, null);
      expect(response.statusCode, `${op.method} ${urlFor(op)} as a guest: ${response.body}`).toBe(401);
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it('lets A reach every one of those records (the sweep aims at real data)', async () => {
    for (const op of operations.filter((o) => o.method === 'GET' && !(o.operationId in SELF_ONLY))) {
      const response = await t.app.inject({ url: urlFor(op), headers: { cookie: a.cookie } });
      expect(response.statusCode, `${op.path} as A`).toBe(200);
    }
  });
});
