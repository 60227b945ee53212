// Paddle mode (docs/decisions/0019-billing.md): webhooks signed with the configured secret, as
// Paddle sends them. The order id travels in the transaction's custom data, which the buyer's
// browser hands to Paddle along with the price, so a signed transaction.completed proves only that
// Paddle took some money: an order is paid only by a transaction of its total, currency and price.
// A transaction that names the order but pays less, in another currency or another price leaves
// it unpaid — failed with the reason, flagged for review — and adds nothing. Better still, the
// server opens the order's transaction itself (the SDK's transactions.create, against a local
// stand-in of Paddle's API) and the checkout opens that one: the browser chooses no price, and only
// that transaction pays the order. Signatures dated ahead of our clock are refused as stale ones are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_PACKS, PLANS } from '../../core/billing/catalogue.ts';
import { creditBalance } from '../../core/billing/ledger.ts';
import { completedEvent, paddleId, paddleSignature, type SandboxOrder } from '../../core/billing/paddle-events.ts';
import { createPaddleProvider } from '../../core/billing/payment-provider.ts';
import { postJson, textOf } from '../support/accounts.ts';
import { FakePaddleApi } from '../support/fake-paddle-api.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

const SECRET = 'pdl_ntfset_test_secret';
const API_KEY = 'pdl_sdbx_apikey_test';
const PRICES: Record<string, string> = {
  'credits-10': 'pri_01credits10',
  'credits-50': 'pri_01credits50',
  'credits-200': 'pri_01credits200',
  'plan-basic': 'pri_01planbasic',
  'plan-pro': 'pri_01planpro',
};
const small = CREDIT_PACKS.find((p) => p.id === 'credits-10')!;
const large = CREDIT_PACKS.find((p) => p.id === 'credits-200')!;

const paddleApi = new FakePaddleApi(
  API_KEY,
  Object.fromEntries([...CREDIT_PACKS, ...PLANS].map((offer) => [PRICES[offer.id], offer])),
);
let t: TestApp;
beforeAll(async () => {
  await paddleApi.start();
  t = await buildTestApp({
    pages: 'build',
    payments: createPaddleProvider({
      apiKey: API_KEY,
      clientToken: 'test_client_token',
      webhookSecret: SECRET,
      environment: 'sandbox',
      prices: PRICES,
      apiUrl: paddleApi.url,
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await paddleApi.stop();
});

/** A Paddle-format event, signed with the configured secret at `at` (now unless given), delivered. */
function deliver(event: unknown, at = new Date()) {
  const body = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/paddle',
    payload: body,
    headers: { 'content-type': 'application/json', 'paddle-signature': paddleSignature(body, SECRET, at) },
  });
}

/** Orders an offer through the API; the transaction the server opened for it, as exactly paid. */
async function order(user: TestUser, offerId: string): Promise<SandboxOrder> {
  const res = await postJson(
    t.app,
    'POST',
    `/api/payments/users/${user.id}`,
    { offer_id: offerId },
    { cookie: user.cookie, csrf: user.csrf },
  );
  expect(res.statusCode, res.body).toBe(201);
  const { order: o, checkout } = res.json();
  // What the browser is given: the transaction the server opened with the order's price and custom data.
  expect(checkout).toMatchObject({
    provider: 'paddle',
    priceId: PRICES[offerId],
    customData: { order_id: String(o.id) },
    transactionId: expect.stringMatching(/^txn_/),
  });
  expect(paddleApi.transactions.get(checkout.transactionId)).toMatchObject({
    priceId: PRICES[offerId],
    orderId: o.id,
    userId: user.id,
  });
  const offer = [...CREDIT_PACKS, ...PLANS].find((x) => x.id === offerId)!;
  return {
    orderId: o.id,
    userId: user.id,
    offer,
    amountMinor: offer.price.amount,
    currency: offer.price.currency,
    transactionId: checkout.transactionId,
    priceId: PRICES[offerId],
  };
}

async function orderRow(id: number) {
  return t.db.kysely
    .selectFrom('orders')
    .select(['status', 'failure_reason', 'review_reason', 'review_ref', 'provider_ref'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('a paid transaction must be the order’s', () => {
  const cases: [string, (o: SandboxOrder) => SandboxOrder, string][] = [
    // The attack as reported: 1 cent at the 10-credit price, naming the 200-credit order.
    [
      '1 cent at the 10-credit price',
      (o) => ({ ...o, amountMinor: 1, priceId: PRICES['credits-10'] }),
      'amount_mismatch',
    ],
    ['an underpaid total at the order’s price', (o) => ({ ...o, amountMinor: o.amountMinor - 1 }), 'amount_mismatch'],
    ['the order’s total in another currency', (o) => ({ ...o, currency: 'USD' }), 'currency_mismatch'],
    ['the order’s total at another offer’s price', (o) => ({ ...o, priceId: PRICES['credits-10'] }), 'price_mismatch'],
    ['a price no offer has', (o) => ({ ...o, priceId: 'pri_01unknown' }), 'price_mismatch'],
    // The order's total and price, in a transaction the browser opened itself (not the checkout's).
    [
      'another transaction at the order’s price',
      (o) => ({ ...o, transactionId: paddleId('txn') }),
      'transaction_mismatch',
    ],
  ];

  for (const [name, change, reason] of cases) {
    it(`leaves the order unpaid, failed for review, on ${name}`, async () => {
      const user = await createSignedInUser(t.db, 'paddle-mismatch');
      const o = await order(user, large.id);
      const wrong = change(o);
      const res = await deliver(completedEvent(wrong, null));
      // Received (Paddle must not retry it), but nothing paid.
      expect(res.statusCode, res.body).toBe(200);
      expect(await creditBalance(t.db, user.id)).toBe(0);
      expect(await orderRow(o.orderId)).toEqual({
        status: 'failed',
        failure_reason: reason,
        review_reason: reason,
        review_ref: wrong.transactionId,
        provider_ref: null,
      });
      // The user sees it failed, with the reason, in their orders and payments.
      const orders = (
        await t.app.inject({ method: 'GET', url: `/api/orders/users/${user.id}`, headers: { cookie: user.cookie } })
      ).json();
      expect(orders.data).toEqual([
        expect.objectContaining({ id: o.orderId, status: 'failed', failure_reason: reason }),
      ]);
      const payments = (
        await t.app.inject({ method: 'GET', url: `/api/payments/users/${user.id}`, headers: { cookie: user.cookie } })
      ).json();
      expect(payments.data).toEqual([expect.objectContaining({ kind: 'failed', order_id: o.orderId, detail: reason })]);
    });
  }

  it('pays the order exactly once when the transaction is right, even after a wrong one', async () => {
    const user = await createSignedInUser(t.db, 'paddle-exact');
    const o = await order(user, large.id);
    await deliver(completedEvent({ ...o, amountMinor: 1, transactionId: paddleId('txn') }, null));
    expect(await creditBalance(t.db, user.id)).toBe(0);
    const right = completedEvent(o, null);
    const answers = [];
    // The same event again (Paddle retries, signed afresh), and another event of the same transaction.
    for (let i = 0; i < 3; i++) answers.push(await deliver(right));
    answers.push(await deliver({ ...right, event_id: paddleId('evt') }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.json().duplicate)).toEqual([false, true, true, false]);
    expect(await creditBalance(t.db, user.id)).toBe(large.credits);
    // Paid by the right transaction; the wrong one is still there for a person to settle.
    expect(await orderRow(o.orderId)).toMatchObject({
      status: 'paid',
      failure_reason: null,
      provider_ref: o.transactionId,
      review_reason: 'amount_mismatch',
    });
  });

  it('pays a pack when Paddle completes the transaction the checkout opened', async () => {
    const user = await createSignedInUser(t.db, 'paddle-small');
    const o = await order(user, small.id);
    // The checkout page opens that transaction; the browser is given no price to choose.
    const page = await t.app.inject({
      method: 'GET',
      url: '/dashboard/orders/1/checkout/',
      headers: { cookie: user.cookie },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(`data-transaction="${o.transactionId}"`);
    expect(page.body).not.toContain('data-price');
    // Every visit opens the same one.
    await t.app.inject({ method: 'GET', url: '/dashboard/orders/1/checkout/', headers: { cookie: user.cookie } });
    expect([...paddleApi.transactions.values()].filter((x) => x.orderId === o.orderId)).toHaveLength(1);
    // Paddle's own event of it: price, total and custom data as our server opened it.
    expect((await deliver(paddleApi.completedEvent(o.transactionId))).statusCode).toBe(200);
    expect(await creditBalance(t.db, user.id)).toBe(small.credits);
    expect(await orderRow(o.orderId)).toMatchObject({
      status: 'paid',
      provider_ref: o.transactionId,
      review_reason: null,
    });
  });

  it('answers 503 when Paddle cannot open the transaction, and opens it on the next visit', async () => {
    const user = await createSignedInUser(t.db, 'paddle-down');
    paddleApi.failing = true;
    try {
      const res = await postJson(
        t.app,
        'POST',
        `/api/payments/users/${user.id}`,
        { offer_id: small.id },
        { cookie: user.cookie, csrf: user.csrf },
      );
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('unavailable');
    } finally {
      paddleApi.failing = false;
    }
    const page = await t.app.inject({
      method: 'GET',
      url: '/dashboard/orders/1/checkout/',
      headers: { cookie: user.cookie },
    });
    expect(page.statusCode).toBe(200);
    const opened = /data-transaction="(txn_[a-z0-9]+)"/.exec(page.body)?.[1];
    expect(opened && paddleApi.transactions.get(opened)).toMatchObject({ priceId: PRICES[small.id], userId: user.id });
    expect(textOf(page.body)).toContain('Pay');
  });

  it('does not renew a subscription with a transaction of another amount', async () => {
    const user = await createSignedInUser(t.db, 'paddle-renewal');
    const plan = PLANS[0];
    const o = await order(user, plan.id);
    const subscriptionId = paddleId('sub');
    await deliver(completedEvent(o, subscriptionId));
    expect(await creditBalance(t.db, user.id)).toBe(plan.credits);
    // The next period's transaction (no order of ours in it), paid at a tenth of the price.
    const renewal = { ...o, orderId: 0, transactionId: paddleId('txn'), amountMinor: plan.price.amount / 10 };
    expect((await deliver(completedEvent(renewal, subscriptionId))).statusCode).toBe(200);
    expect(await creditBalance(t.db, user.id)).toBe(plan.credits);
    const rows = await t.db.kysely
      .selectFrom('orders')
      .select(['status', 'failure_reason', 'review_ref'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { status: 'paid', failure_reason: null, review_ref: null },
      { status: 'failed', failure_reason: 'amount_mismatch', review_ref: renewal.transactionId },
    ]);
    // The right amount renews it.
    await deliver(
      completedEvent({ ...renewal, transactionId: paddleId('txn'), amountMinor: plan.price.amount }, subscriptionId),
    );
    expect(await creditBalance(t.db, user.id)).toBe(2 * plan.credits);
  });
});

describe('the signature’s time', () => {
  it('refuses a signature dated more than 5 seconds ahead, as it refuses a stale one', async () => {
    const user = await createSignedInUser(t.db, 'paddle-future');
    const o = await order(user, small.id);
    const event = completedEvent(o, null);
    for (const aheadMs of [60_000, 3_600_000, 10_000]) {
      const res = await deliver(event, new Date(Date.now() + aheadMs));
      expect(res.statusCode, String(aheadMs)).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    }
    expect((await deliver(event, new Date(Date.now() - 60_000))).statusCode).toBe(401);
    expect(await creditBalance(t.db, user.id)).toBe(0);
    // Two timestamps in one header: the SDK would read the last, so the header is refused.
    const body = JSON.stringify(event);
    const ahead = paddleSignature(body, SECRET, new Date(Date.now() + 60_000));
    const twoTimes = `ts=${Math.floor(Date.now() / 1000)};${ahead}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/paddle',
      payload: body,
      headers: { 'content-type': 'application/json', 'paddle-signature': twoTimes },
    });
    expect(res.statusCode).toBe(401);
    // A clock a little ahead of ours (within 5 s) is still Paddle's.
    expect((await deliver(event, new Date(Date.now() + 2_000))).statusCode).toBe(200);
    expect(await creditBalance(t.db, user.id)).toBe(small.credits);
  });
});
