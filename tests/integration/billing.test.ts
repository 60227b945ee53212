// Credits through the payment provider (docs/decisions/0019-billing.md), end to end through the
// API and the webhook: an order of the catalogue, its payment as a signed Paddle-format webhook
// verified by the Paddle SDK, idempotent by event id, a failed payment with its reason, refunds
// and chargebacks taking credits back, subscriptions and their cancellation, and invoices.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_PACKS, exportCredits, PLANS } from '../../core/billing/catalogue.ts';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import {
  adjustmentEvent,
  completedEvent,
  paddleId,
  paddleSignature,
  paymentFailedEvent,
  type SandboxOrder,
} from '../../core/billing/paddle-events.ts';
import { createSandboxProvider } from '../../core/billing/payment-provider.ts';
import { renewSandboxSubscriptions } from '../../core/billing/sandbox-renewals.ts';
import { COUNT_CAP } from '../../core/search/count-matches.ts';
import { postJson } from '../support/accounts.ts';
import { parseStrictCsv } from '../support/export-readers.ts';
import { readPdf } from '../support/read-pdf.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

const SECRET = 'whsec-test-billing';
const provider = createSandboxProvider(SECRET);
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ payments: provider });
});
afterAll(() => t?.close());

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, user: TestUser) =>
  postJson(t.app, method, url, body, { cookie: user.cookie, csrf: user.csrf });
const get = (url: string, user?: TestUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });
const deliver = (body: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/sandbox',
    payload: body,
    headers: { 'content-type': 'application/json', 'paddle-signature': signature },
  });

/** Orders an offer through the API: the pending order, as a sandbox webhook would name it. */
async function order(user: TestUser, offerId: string): Promise<SandboxOrder & { number: number }> {
  const res = await send('POST', `/api/payments/users/${user.id}`, { offer_id: offerId }, user);
  expect(res.statusCode, res.body).toBe(201);
  const { order: o } = res.json();
  const offer = [...CREDIT_PACKS, ...PLANS].find((x) => x.id === offerId)!;
  return {
    orderId: o.id,
    number: o.number,
    userId: user.id,
    offer,
    amountMinor: offer.price.amount,
    currency: offer.price.currency,
    transactionId: paddleId('txn'),
  };
}

async function orderStatus(user: TestUser, id: number) {
  const list = (await get(`/api/orders/users/${user.id}`, user)).json();
  return list.data.find((o: { id: number }) => o.id === id);
}

describe('paying an order by webhook', () => {
  it('credits a paid pack once, however many times the same webhook comes', async () => {
    const user = await createSignedInUser(t.db, 'billing-pack');
    const pack = CREDIT_PACKS[0];
    const o = await order(user, pack.id);
    expect(await orderStatus(user, o.orderId)).toMatchObject({ status: 'pending', amount: '9.00', currency: 'EUR' });
    // Paddle signs each delivery afresh (a retry has a new timestamp, valid for 5 s): the same
    // event, new signatures — 10 at once, then 90 one after the other.
    const event = completedEvent(o, null);
    const signed = () => {
      const { body, signature } = provider.sign(event);
      return deliver(body, signature);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, signed));
    for (let i = 0; i < 90; i++) answers.push(await signed());
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    expect(answers.filter((a) => a.json().duplicate === false).length).toBe(1);
    expect(await creditBalance(t.db, user.id)).toBe(pack.credits);
    expect(await orderStatus(user, o.orderId)).toMatchObject({ status: 'paid' });
    const payments = (await get(`/api/payments/users/${user.id}`, user)).json();
    expect(payments.data).toEqual([
      expect.objectContaining({ kind: 'paid', order_id: o.orderId, amount_minor: pack.price.amount, currency: 'EUR' }),
    ]);
    const balance = (await get(`/api/balances/users/${user.id}`, user)).json();
    expect(balance).toMatchObject({ balance: pack.credits, entries: [{ delta: pack.credits, reason: 'pack' }] });
  });

  it('reads nothing from a webhook whose signature is wrong, stale, missing or for another body', async () => {
    const user = await createSignedInUser(t.db, 'billing-forged');
    const o = await order(user, CREDIT_PACKS[1].id);
    const event = completedEvent(o, null);
    const body = JSON.stringify(event);
    const forged = [
      paddleSignature(body, 'not-the-secret'),
      paddleSignature(body, SECRET, new Date(Date.now() - 60_000)),
      '',
      'ts=1;h1=00',
      paddleSignature(JSON.stringify({ ...event, event_id: 'evt_other' }), SECRET),
    ];
    for (const signature of forged) {
      const res = await deliver(body, signature);
      expect(res.statusCode, signature).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
    expect(await creditBalance(t.db, user.id)).toBe(0);
    expect(await orderStatus(user, o.orderId)).toMatchObject({ status: 'pending' });
    // A provider that is not the configured one is not found.
    const other = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/paddle', payload: body });
    expect(other.statusCode).toBe(404);
  });

  it('leaves a failed order with the provider’s reason, which a later payment can still pay', async () => {
    const user = await createSignedInUser(t.db, 'billing-failed');
    const o = await order(user, CREDIT_PACKS[0].id);
    const failed = provider.sign(paymentFailedEvent(o, 'insufficient_funds'));
    expect((await deliver(failed.body, failed.signature)).statusCode).toBe(200);
    const row = await t.db.kysely
      .selectFrom('orders')
      .select(['status', 'failure_reason'])
      .where('id', '=', o.orderId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', failure_reason: 'insufficient_funds' });
    expect(await creditBalance(t.db, user.id)).toBe(0);
    const paid = provider.sign(completedEvent(o, null));
    await deliver(paid.body, paid.signature);
    expect(await orderStatus(user, o.orderId)).toMatchObject({ status: 'paid' });
    expect(await creditBalance(t.db, user.id)).toBe(CREDIT_PACKS[0].credits);
  });

  it('takes an order’s credits back on a refund or a chargeback, once', async () => {
    const user = await createSignedInUser(t.db, 'billing-refund');
    const a = await order(user, CREDIT_PACKS[0].id);
    const b = await order(user, CREDIT_PACKS[1].id);
    for (const o of [a, b]) {
      const paid = provider.sign(completedEvent(o, null));
      await deliver(paid.body, paid.signature);
    }
    expect(await creditBalance(t.db, user.id)).toBe(CREDIT_PACKS[0].credits + CREDIT_PACKS[1].credits);
    const refund = provider.sign(adjustmentEvent(a, 'refund'));
    for (let i = 0; i < 3; i++) await deliver(refund.body, refund.signature);
    // A second refund event of the same transaction (another event id) takes nothing more.
    const again = provider.sign(adjustmentEvent(a, 'refund'));
    await deliver(again.body, again.signature);
    expect(await creditBalance(t.db, user.id)).toBe(CREDIT_PACKS[1].credits);
    const chargeback = provider.sign(adjustmentEvent(b, 'chargeback'));
    await deliver(chargeback.body, chargeback.signature);
    expect(await creditBalance(t.db, user.id)).toBe(0);
    expect(await orderStatus(user, a.orderId)).toMatchObject({ status: 'refunded' });
    expect(await orderStatus(user, b.orderId)).toMatchObject({ status: 'refunded' });
    const kinds = (await get(`/api/payments/users/${user.id}`, user)).json().data.map((p: { kind: string }) => p.kind);
    expect(kinds.sort()).toEqual(['chargeback', 'paid', 'paid', 'refunded', 'refunded']);
  });
});

describe('subscriptions', () => {
  it('starts with its first payment, renews with the next, and cancels at the period’s end', async () => {
    const user = await createSignedInUser(t.db, 'billing-plan');
    const other = await createSignedInUser(t.db, 'billing-plan-other');
    const plan = PLANS[0];
    const o = await order(user, plan.id);
    const subscriptionId = paddleId('sub');
    const first = provider.sign(completedEvent(o, subscriptionId));
    await deliver(first.body, first.signature);
    let subs = (await get(`/api/subscriptions/users/${user.id}`, user)).json();
    expect(subs.count).toBe(1);
    const sub = subs.data[0];
    expect(sub).toMatchObject({ plan_id: plan.id, status: 'active', expires_at: null, credits_left: plan.credits });
    expect(sub.next_payment_at).toBe(sub.period_end);
    // Another plan while this one renews: 409.
    expect((await send('POST', `/api/payments/users/${user.id}`, { offer_id: PLANS[1].id }, user)).statusCode).toBe(
      409,
    );

    // The next month's payment: a transaction of the same subscription, no order of ours named.
    const renewal = provider.sign(completedEvent({ ...o, orderId: 0, transactionId: paddleId('txn') }, subscriptionId));
    await deliver(renewal.body, renewal.signature);
    expect(await creditBalance(t.db, user.id)).toBe(2 * plan.credits);
    const orders = (await get(`/api/orders/users/${user.id}`, user)).json();
    expect(orders.data.map((x: { status: string }) => x.status)).toEqual(['paid', 'paid']);

    expect((await send('POST', `/api/subscriptions/${sub.id}/cancel`, {}, other)).statusCode).toBe(404);
    const cancelled = await send('POST', `/api/subscriptions/${sub.id}/cancel`, {}, user);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', next_payment_at: null });
    expect(cancelled.json().expires_at).toBe(cancelled.json().period_end);
    expect((await send('POST', `/api/subscriptions/${sub.id}/cancel`, {}, user)).statusCode).toBe(409);
    subs = (await get(`/api/subscriptions/users/${user.id}`, user)).json();
    expect(subs.data[0].status).toBe('cancelled');
    // The credits stay until they are spent.
    expect(await creditBalance(t.db, user.id)).toBe(2 * plan.credits);
  });

  it('renews a sandbox subscription whose period is over, each period once, and not a cancelled one', async () => {
    const user = await createSignedInUser(t.db, 'billing-renewals');
    const plan = PLANS[1];
    const o = await order(user, plan.id);
    const subscriptionId = paddleId('sub');
    const first = provider.sign(completedEvent(o, subscriptionId));
    await deliver(first.body, first.signature);
    expect(await creditBalance(t.db, user.id)).toBe(plan.credits);
    // The server was away: the period ended two months and a day ago.
    const ended = new Date(Date.now() - 24 * 60 * 60 * 1000);
    ended.setUTCMonth(ended.getUTCMonth() - 1);
    await t.db.kysely
      .updateTable('subscriptions')
      .set({ period_end: ended })
      .where('provider_ref', '=', subscriptionId)
      .execute();
    // Two workers at once: each period is paid once.
    const runs = await Promise.all([
      renewSandboxSubscriptions({ db: t.db, payments: provider }),
      renewSandboxSubscriptions({ db: t.db, payments: provider }),
    ]);
    expect(runs.every((n) => n === 2)).toBe(true);
    expect(await creditBalance(t.db, user.id)).toBe(3 * plan.credits);
    const orders = (await get(`/api/orders/users/${user.id}`, user)).json();
    expect(orders.data.map((x: { status: string }) => x.status)).toEqual(['paid', 'paid', 'paid']);
    const [sub] = (await get(`/api/subscriptions/users/${user.id}`, user)).json().data;
    expect(new Date(sub.period_end).getTime()).toBeGreaterThan(Date.now());
    expect(await renewSandboxSubscriptions({ db: t.db, payments: provider })).toBe(0);
    // Cancelled: its period ends and nothing renews it.
    expect((await send('POST', `/api/subscriptions/${sub.id}/cancel`, {}, user)).statusCode).toBe(200);
    await t.db.kysely
      .updateTable('subscriptions')
      .set({ period_end: new Date(Date.now() - 1000) })
      .where('provider_ref', '=', subscriptionId)
      .execute();
    expect(await renewSandboxSubscriptions({ db: t.db, payments: provider })).toBe(0);
    expect(await creditBalance(t.db, user.id)).toBe(3 * plan.credits);
    expect((await get(`/api/subscriptions/users/${user.id}`, user)).json().data[0].status).toBe('ended');
  });
});

describe('catalogue and invoices', () => {
  it('lists offers and products with prices in minor units and names in every language', async () => {
    const user = await createSignedInUser(t.db, 'billing-products');
    const res = (await get(`/api/products/users/${user.id}`, user)).json();
    expect(res.offers.length).toBe(CREDIT_PACKS.length + PLANS.length);
    for (const offer of res.offers) expect(Number.isInteger(offer.price.amount)).toBe(true);
    expect(res.products.map((p: { id: string; credits: number }) => [p.id, p.credits])).toEqual([
      ['profile', 1],
      ['advanced-profile', 2],
      ['export-rows', 1],
      ['api-match', 1],
      ['enrichment-rows', 1],
    ]);
    expect(res.products[0].name).toEqual(expect.objectContaining({ de: expect.any(String), fr: expect.any(String) }));
    expect((await send('POST', `/api/payments/users/${user.id}`, { offer_id: 'free-money' }, user)).statusCode).toBe(
      400,
    );
  });

  it('makes a PDF invoice of a paid order only, for its owner only', async () => {
    const user = await createSignedInUser(t.db, 'billing-invoice');
    const other = await createSignedInUser(t.db, 'billing-invoice-other');
    const o = await order(user, CREDIT_PACKS[2].id);
    expect((await get(`/api/orders/${o.orderId}/invoice`, user)).statusCode).toBe(404);
    const paid = provider.sign(completedEvent(o, null));
    await deliver(paid.body, paid.signature);
    const res = await get(`/api/orders/${o.orderId}/invoice?lang=de`, user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await readPdf(new Uint8Array(res.rawPayload));
    const text = pdf.pages.map((p) => p.text).join('\n');
    expect(text).toContain('Rechnung');
    expect(text).toContain(CREDIT_PACKS[2].name.de);
    expect(text).toContain('129,00');
    expect((await get(`/api/orders/${o.orderId}/invoice`, other)).statusCode).toBe(404);
  });
});

describe('exports spend credits', () => {
  it('charges 1 credit per 100 rows (at least 1) before the download, and refuses with 402 when short', async () => {
    const user = await createSignedInUser(t.db, 'billing-export');
    const short = await get('/api/export/companies?format=csv&scope=first&count=150&lang=de', user);
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toMatchObject({ code: 'payment_required', details: { credits: 2, balance: 0 } });
    expect(short.json().error.message).toBe('Das kostet 2 Credits, Ihr Guthaben ist 0 Credits.');
    await grantCredits(t.db, user.id, 5);
    const one = await get('/api/export/companies?format=csv&scope=first&count=3', user);
    expect(one.statusCode).toBe(200);
    expect(await creditBalance(t.db, user.id)).toBe(4);
    const more = await get('/api/export/companies?format=csv&scope=first&count=150', user);
    expect(more.statusCode).toBe(200);
    expect(more.headers['x-export-rows']).toBe('150');
    expect(await creditBalance(t.db, user.id)).toBe(2);
    // Set off by another site's page: refused before anything is spent.
    const cross = await t.app.inject({
      method: 'GET',
      url: '/api/export/companies?format=csv&scope=first&count=3',
      headers: { cookie: user.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
    expect(await creditBalance(t.db, user.id)).toBe(2);
  });
  it('charges the rows written, not an estimated count, when a search matches more rows than are counted', async () => {
    // Copies of the template's transactions: more matches than the exact count reaches (COUNT_CAP),
    // so the search's total is an estimate ("about …") that an export must not be charged by.
    const columns = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_name = 'transactions' and table_schema = current_schema() order by ordinal_position`.execute(
        t.db.kysely,
      )
    ).rows.map((r) => r.name);
    const select = columns.map((c) => (c === 'id' ? sql`t.id + g::bigint * 100000000` : sql.ref(`t.${c}`)));
    await sql`insert into transactions (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(select)} from transactions t cross join generate_series(1, 7) g`.execute(t.db.kysely);
    const query = 'transaction_date:from=1900-01-02';
    const search = await get(`/api/site/data/v1/transactions?${query}`);
    expect(search.statusCode).toBe(200);
    expect(search.json().meta.total_is_estimate).toBe(true);
    const user = await createSignedInUser(t.db, 'billing-export-estimate');
    await grantCredits(t.db, user.id, 1_000);
    const response = await get(`/api/export/transactions?${query}&format=csv`, user);
    expect(response.statusCode).toBe(200);
    const rows = parseStrictCsv(response.body).length - 1;
    expect(rows).toBeGreaterThan(COUNT_CAP);
    expect(Number(response.headers['x-export-rows'])).toBe(rows);
    expect(await creditBalance(t.db, user.id)).toBe(1_000 - exportCredits(rows));
  });
});
