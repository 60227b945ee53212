// Provider webhooks and the published limits (ADR 0020): a payment or help-desk webhook is
// authenticated by its signature, so it counts in a per-address bucket of its own, never against
// the anonymous plan's 100 an hour — a provider's burst of signed events is all applied. A webhook
// whose signature is refused counts as anonymous: an unsigned flood is refused with 429 as any
// other anonymous one. And a 429's RateLimit-Reset and Retry-After are one clock.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LIMITS } from '../../core/api-keys/api-limits.ts';
import { CREDIT_PACKS } from '../../core/billing/catalogue.ts';
import { placeOfferOrder } from '../../core/billing/checkout.ts';
import { creditBalance } from '../../core/billing/ledger.ts';
import { completedEvent, paddleId } from '../../core/billing/paddle-events.ts';
import { createSandboxProvider } from '../../core/billing/payment-provider.ts';
import { API_PLAN_LIMITS } from '../../core/limits.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

const PAYMENT_SECRET = 'whsec-test-webhook-limits';
const ZAMMAD_SECRET = 'zammad-test-webhook-limits';
const provider = createSandboxProvider(PAYMENT_SECRET);
const pack = CREDIT_PACKS[0];
const EVENTS = 150;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    payments: provider,
    // The published limits, not the tests' high ones.
    apiLimits: API_LIMITS,
    helpDesk: {
      kind: 'zammad',
      // Never called: the tickets these webhooks name are not ours.
      url: 'http://127.0.0.1:9/',
      token: 'unused',
      group: 'Registra',
      timeoutMs: 400,
      webhookSecret: ZAMMAD_SECRET,
    },
  });
});
afterAll(() => t?.close());

let lastAddress = 0;
/** An address no other test has used (each has its own counts). */
const freshIp = () => `198.51.100.${++lastAddress}`;

const paymentHook = (ip: string, body: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/sandbox',
    remoteAddress: ip,
    payload: body,
    headers: { 'content-type': 'application/json', 'paddle-signature': signature },
  });

const zammadHook = (ip: string, body: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/support/webhooks/zammad',
    remoteAddress: ip,
    payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature': signature },
  });

/** Zammad's X-Hub-Signature of a body. */
const sign = (payload: string) => `sha1=${createHmac('sha1', ZAMMAD_SECRET).update(payload).digest('hex')}`;

type Answer = Awaited<ReturnType<typeof paymentHook>>;

/** A 429's two clocks agree: RateLimit-Reset is Retry-After. */
function expectOneClock(over: Answer) {
  expect(over.statusCode).toBe(429);
  const retryAfter = Number(over.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(Number(over.headers['ratelimit-reset'])).toBe(retryAfter);
  expect(over.json().error.details.retry_after_seconds).toBe(retryAfter);
}

describe('signed payment webhooks', () => {
  it(`applies ${EVENTS} signed events from one address, past the anonymous limit`, async () => {
    expect(EVENTS).toBeGreaterThan(API_PLAN_LIMITS.anonymous);
    const user = await createSignedInUser(t.db, 'webhook-burst');
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const order = await placeOfferOrder(t.db, provider, user.id, pack.id);
      const { body, signature } = provider.sign(
        completedEvent(
          {
            orderId: order.id,
            userId: user.id,
            offer: pack,
            amountMinor: pack.price.amount,
            currency: pack.price.currency,
            transactionId: paddleId('txn'),
          },
          null,
        ),
      );
      const res = await paymentHook(ip, body, signature);
      statuses.push(res.statusCode);
      if (i === EVENTS - 1) expect(res.headers['ratelimit-limit']).toBe(String(API_LIMITS.webhook));
    }
    expect(statuses).toEqual(Array(EVENTS).fill(200));
    expect(await creditBalance(t.db, user.id)).toBe(EVENTS * pack.credits);
  });

  it('refuses an unsigned flood past the anonymous limit, and still applies the signed events', async () => {
    const ip = freshIp();
    const body = JSON.stringify({ event_id: 'evt_forged', event_type: 'transaction.completed', data: {} });
    const statuses: number[] = [];
    let over: Answer | undefined;
    for (let i = 0; i < EVENTS; i++) {
      const res = await paymentHook(ip, body, `ts=${Math.floor(Date.now() / 1000)};h1=${'0'.repeat(64)}`);
      statuses.push(res.statusCode);
      over ??= res.statusCode === 429 ? res : undefined;
    }
    expect(statuses.slice(0, API_PLAN_LIMITS.anonymous)).toEqual(Array(API_PLAN_LIMITS.anonymous).fill(401));
    expect(statuses.slice(API_PLAN_LIMITS.anonymous)).toEqual(Array(EVENTS - API_PLAN_LIMITS.anonymous).fill(429));
    expectOneClock(over!);
    // A provider not configured here is no way around it.
    expect((await paymentHook(ip, body, '')).statusCode).toBe(429);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/paddle',
      remoteAddress: ip,
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(elsewhere.statusCode).toBe(429);
    // The same address's signed events are the provider's: still applied.
    const user = await createSignedInUser(t.db, 'webhook-after-flood');
    const order = await placeOfferOrder(t.db, provider, user.id, pack.id);
    const signed = provider.sign(
      completedEvent(
        {
          orderId: order.id,
          userId: user.id,
          offer: pack,
          amountMinor: pack.price.amount,
          currency: pack.price.currency,
          transactionId: paddleId('txn'),
        },
        null,
      ),
    );
    expect((await paymentHook(ip, signed.body, signed.signature)).statusCode).toBe(200);
    expect(await creditBalance(t.db, user.id)).toBe(pack.credits);
  });
});

describe('signed help-desk webhooks', () => {
  it(`receives ${EVENTS} signed webhooks from one address, and refuses an unsigned flood`, async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      // A ticket that is not ours: received, nothing to read from Zammad.
      const body = JSON.stringify({ ticket: { id: 900_000 + i } });
      const res = await zammadHook(ip, body, sign(body));
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual(Array(EVENTS).fill(200));
    const forged = JSON.stringify({ ticket: { id: 1 } });
    const refused: number[] = [];
    let over: Answer | undefined;
    for (let i = 0; i < EVENTS; i++) {
      const res = await zammadHook(ip, forged, 'sha1=0000');
      refused.push(res.statusCode);
      over ??= res.statusCode === 429 ? res : undefined;
    }
    expect(refused.slice(0, API_PLAN_LIMITS.anonymous)).toEqual(Array(API_PLAN_LIMITS.anonymous).fill(401));
    expect(refused.slice(API_PLAN_LIMITS.anonymous)).toEqual(Array(EVENTS - API_PLAN_LIMITS.anonymous).fill(429));
    expectOneClock(over!);
  });
});

describe('the anonymous limit', () => {
  it('answers its 429 with RateLimit-Reset equal to Retry-After', async () => {
    const ip = freshIp();
    let over: Answer | undefined;
    for (let i = 0; i <= API_PLAN_LIMITS.anonymous && !over; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/languages', remoteAddress: ip });
      if (res.statusCode === 429) over = res;
      else expect(res.statusCode).toBe(200);
    }
    expectOneClock(over!);
    // The signed webhooks of this address are not refused by it.
    const body = JSON.stringify({ ticket: { id: 999_999 } });
    expect((await zammadHook(ip, body, sign(body))).statusCode).toBe(200);
  });
});

describe('the webhooks’ own bound', () => {
  it('refuses a flood of signed webhooks past it, with one clock', async () => {
    const small = await buildTestApp({
      payments: provider,
      apiLimits: { ...API_LIMITS, webhook: 5 },
      helpDesk: {
        kind: 'zammad',
        url: 'http://127.0.0.1:9/',
        token: 'unused',
        group: 'R',
        timeoutMs: 400,
        webhookSecret: ZAMMAD_SECRET,
      },
    });
    try {
      const statuses: number[] = [];
      let over: Answer | undefined;
      for (let i = 0; i < 8; i++) {
        const body = JSON.stringify({ ticket: { id: 800_000 + i } });
        const res = await small.app.inject({
          method: 'POST',
          url: '/api/support/webhooks/zammad',
          remoteAddress: '203.0.113.50',
          payload: body,
          headers: { 'content-type': 'application/json', 'x-hub-signature': sign(body) },
        });
        statuses.push(res.statusCode);
        over ??= res.statusCode === 429 ? res : undefined;
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(over?.json().error.details).toMatchObject({ plan: 'webhook', limit: 5 });
      expectOneClock(over!);
    } finally {
      await small.close();
    }
  });
});
