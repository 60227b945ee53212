import { createHmac, randomBytes } from 'node:crypto';
import { type EventEntity, EventName, NodeRuntime, Webhooks } from '@paddle/paddle-node-sdk';
import { AppError } from '../errors/app-error.ts';
import type { Offer } from './catalogue.ts';

// Paddle's webhook format, both ways (docs/decisions/0019-billing.md). Reading: a webhook is
// verified and parsed by the official SDK (`Webhooks.unmarshal`: HMAC-SHA256 of `ts:body` in the
// Paddle-Signature header, at most 5 s old, and — our own check — at most 5 s ahead of our clock)
// before anything in it is read, and the SDK's event is
// turned into one of the few billing events Registra acts on. Writing: the sandbox provider makes
// the same events, signed the same way, so that one verified path serves both providers.

/** What Registra acts on, whoever the provider. Amounts in minor units. */
export type BillingEvent = { eventId: string; eventType: string } & (
  | {
      type: 'paid';
      transactionId: string;
      orderId: number | null;
      userId: number | null;
      subscriptionId: string | null;
      period: { start: Date; end: Date } | null;
      amountMinor: number;
      currency: string;
      /** The transaction's items: the provider's price id of each, and its quantity. */
      items: { priceId: string | null; quantity: number }[];
    }
  | { type: 'failed'; transactionId: string; orderId: number | null; userId: number | null; reason: string }
  | {
      type: 'reversed';
      kind: 'refunded' | 'chargeback';
      transactionId: string;
      amountMinor: number;
      currency: string;
    }
  | { type: 'subscription_ended'; subscriptionId: string }
  | { type: 'ignored' }
);

/** Seconds a signature may be dated ahead of our clock (the SDK refuses those more than 5 s old). */
export const SIGNATURE_FUTURE_TOLERANCE_SECONDS = 5;

/**
 * The `ts=` of a Paddle-Signature header, in seconds; null when there is none, more than one (the
 * SDK would read the last: a header must not show us one time and the SDK another) or not a number.
 */
export function signatureTimestamp(signature: string): number | null {
  const values = signature
    .split(';')
    .map((part) => part.split('='))
    .filter(([key]) => key === 'ts')
    .map(([, value]) => value ?? '');
  return values.length === 1 && /^\d{1,12}$/.test(values[0]) ? Number(values[0]) : null;
}

/**
 * Verifies a Paddle-format webhook with the SDK and reads it; a bad, stale or future-dated
 * signature is a 401. The SDK only refuses old signatures: one dated ahead would stay valid until
 * that time plus 5 s, so a signature captured then (or made with a clock that runs ahead) could be
 * replayed for as long as it was dated ahead.
 */
export async function verifyPaddleWebhook(
  rawBody: string,
  secret: string,
  signature: string,
  now = new Date(),
): Promise<BillingEvent> {
  const refused = () =>
    new AppError(
      'unauthorized',
      'The webhook signature is missing, wrong, too old or dated ahead (Paddle-Signature).',
      {
        parameter: 'paddle-signature',
      },
    );
  const ts = signatureTimestamp(signature);
  if (ts === null || ts * 1000 > now.getTime() + SIGNATURE_FUTURE_TOLERANCE_SECONDS * 1000) throw refused();
  let event: EventEntity;
  // The SDK computes the HMAC with the runtime's crypto, which `new Paddle()` sets up; a webhook
  // may arrive before any API call made one (and the sandbox never makes one).
  NodeRuntime.initialize();
  try {
    event = await new Webhooks().unmarshal(rawBody, secret, signature);
  } catch {
    throw refused();
  }
  return billingEventOf(event);
}

function idOf(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** The SDK's event as a billing event; events Registra does not act on are `ignored`. */
export function billingEventOf(event: EventEntity): BillingEvent {
  const base = { eventId: event.eventId, eventType: event.eventType as string };
  switch (event.eventType) {
    case EventName.TransactionCompleted: {
      const tx = event.data;
      const custom = (tx.customData ?? {}) as Record<string, unknown>;
      const period = tx.billingPeriod
        ? { start: new Date(tx.billingPeriod.startsAt), end: new Date(tx.billingPeriod.endsAt) }
        : null;
      return {
        ...base,
        type: 'paid',
        transactionId: tx.id,
        orderId: idOf(custom.order_id),
        userId: idOf(custom.user_id),
        subscriptionId: tx.subscriptionId,
        period,
        amountMinor: Number(tx.details?.totals?.total ?? 0),
        currency: tx.currencyCode,
        items: tx.items.map((item) => ({ priceId: item.price?.id ?? null, quantity: item.quantity })),
      };
    }
    case EventName.TransactionPaymentFailed: {
      const tx = event.data;
      const custom = (tx.customData ?? {}) as Record<string, unknown>;
      const attempt = tx.payments.find((p) => p.errorCode) ?? tx.payments[0];
      return {
        ...base,
        type: 'failed',
        transactionId: tx.id,
        orderId: idOf(custom.order_id),
        userId: idOf(custom.user_id),
        reason: attempt?.errorCode ?? 'unknown',
      };
    }
    case EventName.AdjustmentCreated:
    case EventName.AdjustmentUpdated: {
      const adjustment = event.data;
      const kind =
        adjustment.action === 'refund' ? 'refunded' : adjustment.action === 'chargeback' ? 'chargeback' : null;
      // A refund waits for Paddle's approval (pending_approval); only an approved one moves money.
      if (!kind || adjustment.status !== 'approved') return { ...base, type: 'ignored' };
      return {
        ...base,
        type: 'reversed',
        kind,
        transactionId: adjustment.transactionId,
        amountMinor: Number(adjustment.totals?.total ?? 0),
        currency: adjustment.currencyCode,
      };
    }
    case EventName.SubscriptionCanceled:
      return { ...base, type: 'subscription_ended', subscriptionId: event.data.id };
    default:
      return { ...base, type: 'ignored' };
  }
}

/** A Paddle-Signature header for a body: `ts=<seconds>;h1=<HMAC-SHA256 of "ts:body">`. */
export function paddleSignature(rawBody: string, secret: string, now = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000);
  const h1 = createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
}

/** A Paddle-style id: a prefix and 26 lower-case letters and digits, from `bytes` (random unless given). */
export function paddleId(prefix: string, bytes: Uint8Array = randomBytes(26)): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `${prefix}_${[...bytes.subarray(0, 26)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export type SandboxOrder = {
  orderId: number;
  userId: number;
  offer: Offer;
  amountMinor: number;
  currency: string;
  transactionId: string;
  /** The price id of its item; the sandbox's price of the offer unless given. */
  priceId?: string;
};

/** The sandbox's price id of an offer (Paddle's are configured: PADDLE_PRICES). */
export function sandboxPriceId(offerId: string): string {
  return `pri_sandbox_${offerId}`;
}

function transactionData(order: SandboxOrder, status: string, at: string, extra: Record<string, unknown>) {
  const amount = String(order.amountMinor);
  return {
    id: order.transactionId,
    status,
    customer_id: null,
    address_id: null,
    business_id: null,
    custom_data: { order_id: String(order.orderId), user_id: String(order.userId) },
    currency_code: order.currency,
    origin: 'web',
    subscription_id: null,
    invoice_id: null,
    invoice_number: null,
    collection_mode: 'automatic',
    discount_id: null,
    billing_details: null,
    billing_period: null,
    items: [
      {
        price: {
          id: order.priceId ?? sandboxPriceId(order.offer.id),
          product_id: `pro_sandbox_${order.offer.id}`,
          description: order.offer.name.en,
          type: 'standard',
          name: order.offer.name.en,
          billing_cycle: order.offer.kind === 'plan' ? { interval: 'month', frequency: 1 } : null,
          trial_period: null,
          tax_mode: 'account_setting',
          unit_price: { amount, currency_code: order.currency },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          status: 'active',
          custom_data: null,
          import_meta: null,
          created_at: at,
          updated_at: at,
        },
        quantity: 1,
        proration: null,
      },
    ],
    details: {
      tax_rates_used: [],
      totals: {
        subtotal: amount,
        tax: '0',
        discount: '0',
        total: amount,
        grand_total: amount,
        fee: null,
        earnings: null,
        currency_code: order.currency,
        credit: '0',
        credit_to_balance: '0',
        balance: '0',
      },
      adjusted_totals: null,
      payout_totals: null,
      adjusted_payout_totals: null,
      line_items: [],
    },
    payments: [],
    checkout: { url: null },
    created_at: at,
    updated_at: at,
    billed_at: at,
    revised_at: null,
    ...extra,
  };
}

function envelope(eventType: string, data: unknown, now: Date) {
  return {
    event_id: paddleId('evt'),
    event_type: eventType,
    occurred_at: now.toISOString(),
    notification_id: paddleId('ntf'),
    data,
  };
}

/** `transaction.completed` as Paddle sends it for a paid order (a plan's also opens its subscription period). */
export function completedEvent(order: SandboxOrder, subscriptionId: string | null, now = new Date()) {
  const at = now.toISOString();
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const attempt = {
    payment_attempt_id: paddleId('pay'),
    stored_payment_method_id: paddleId('paymtd'),
    payment_method_id: null,
    amount: String(order.amountMinor),
    status: 'captured',
    error_code: null,
    method_details: null,
    created_at: at,
    captured_at: at,
  };
  return envelope(
    'transaction.completed',
    transactionData(order, 'completed', at, {
      subscription_id: subscriptionId,
      billing_period: subscriptionId ? { starts_at: at, ends_at: end.toISOString() } : null,
      payments: [attempt],
    }),
    now,
  );
}

/** `transaction.payment_failed` with Paddle's error code (declined, insufficient_funds, …). */
export function paymentFailedEvent(order: SandboxOrder, errorCode: string, now = new Date()) {
  const at = now.toISOString();
  const attempt = {
    payment_attempt_id: paddleId('pay'),
    stored_payment_method_id: paddleId('paymtd'),
    payment_method_id: null,
    amount: String(order.amountMinor),
    status: 'error',
    error_code: errorCode,
    method_details: null,
    created_at: at,
    captured_at: null,
  };
  return envelope('transaction.payment_failed', transactionData(order, 'ready', at, { payments: [attempt] }), now);
}

/** An approved `adjustment.created` reversing a whole transaction: a refund or a chargeback. */
export function adjustmentEvent(
  order: Pick<SandboxOrder, 'transactionId' | 'amountMinor' | 'currency'>,
  action: 'refund' | 'chargeback',
  now = new Date(),
) {
  const at = now.toISOString();
  const amount = String(order.amountMinor);
  return envelope(
    'adjustment.created',
    {
      id: paddleId('adj'),
      action,
      type: 'full',
      transaction_id: order.transactionId,
      subscription_id: null,
      customer_id: paddleId('ctm'),
      reason: action === 'refund' ? 'requested by the customer' : 'disputed with the bank',
      credit_applied_to_balance: null,
      currency_code: order.currency,
      status: 'approved',
      items: [],
      totals: { subtotal: amount, tax: '0', total: amount, fee: '0', earnings: '0', currency_code: order.currency },
      payout_totals: null,
      created_at: at,
      updated_at: at,
    },
    now,
  );
}
