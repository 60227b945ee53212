import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { insertNumbered } from '../user-data/owned-records.ts';
import { offerOf } from './catalogue.ts';
import { findOfferOrder, offerOrderValues } from './checkout.ts';
import { lockUser, recordCredits } from './ledger.ts';
import type { BillingEvent } from './paddle-events.ts';
import { type PaymentMismatch, paymentMismatch } from './payment-mismatch.ts';
import type { PaymentProvider } from './payment-provider.ts';

// What a verified provider event does (docs/decisions/0019-billing.md), once: the event is kept
// in `payments` under its (provider, event id), and a second delivery of the same event finds it
// there and changes nothing. The rest happens in the same transaction, under the user's lock:
// - paid: the pending (or failed) order becomes paid and its credits are added; a plan's order
//   starts or renews its subscription; a renewal's transaction is a new paid order of the plan —
//   but only when the transaction pays exactly the order (payment-mismatch.ts): else the order is
//   failed with the reason and flagged for review (review_reason, review_ref), and nothing is added;
// - failed: a pending order becomes failed, with the provider's reason;
// - reversed (refund, chargeback): the paid order becomes refunded and its credits are taken back
//   (once: the ledger's unique (order_id, reason));
// - subscription_ended: the subscription has ended.

export type AppliedEvent = {
  duplicate: boolean;
  kind: Database['payments']['kind'];
  orderId: number | null;
  /** Set when a paid transaction did not match its order: the order is flagged for review. */
  review: PaymentMismatch | null;
};

type Tx = Kysely<Database>;

/** The provider as applying its events needs it: its id, and its price id of each offer. */
export type EventProvider = Pick<PaymentProvider, 'id' | 'priceIdOf'>;

export async function applyPaymentEvent(db: Db, payments: EventProvider, event: BillingEvent): Promise<AppliedEvent> {
  const provider = payments.id;
  return db.kysely.transaction().execute(async (tx) => {
    const userId = await eventUser(tx, provider, event);
    // The user's lock first: everything below writes rows that refer to the user (ledger.ts).
    if (userId !== null) await lockUser(tx, userId);
    const kept = await tx
      .insertInto('payments')
      .values({
        provider,
        event_id: event.eventId,
        event_type: event.eventType,
        user_id: userId,
        kind: 'ignored',
      })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!kept) return { duplicate: true, kind: 'ignored', orderId: null, review: null };
    const outcome = userId === null ? null : await apply(tx, payments, userId, event);
    await tx
      .updateTable('payments')
      .set({
        kind: outcome?.kind ?? 'ignored',
        order_id: outcome?.orderId ?? null,
        amount_minor: outcome?.amountMinor ?? null,
        currency: outcome?.currency ?? null,
        detail: outcome?.detail ?? null,
      })
      .where('id', '=', kept.id)
      .execute();
    return {
      duplicate: false,
      kind: outcome?.kind ?? 'ignored',
      orderId: outcome?.orderId ?? null,
      review: outcome?.review ?? null,
    };
  });
}

type Outcome = {
  kind: Database['payments']['kind'];
  orderId: number | null;
  amountMinor?: number;
  currency?: string;
  detail?: string;
  review?: PaymentMismatch;
};

/** The user an event is about: named in a checkout's custom data, or the owner of its transaction or subscription. */
async function eventUser(tx: Tx, provider: string, event: BillingEvent): Promise<number | null> {
  if ((event.type === 'paid' || event.type === 'failed') && event.userId !== null) {
    const user = await tx.selectFrom('users').select('id').where('id', '=', event.userId).executeTakeFirst();
    if (user) return Number(user.id);
  }
  if (event.type === 'paid' && event.subscriptionId) {
    const sub = await subscriptionByRef(tx, provider, event.subscriptionId);
    if (sub) return sub.user_id;
  }
  if (event.type === 'reversed') {
    const order = await tx
      .selectFrom('orders')
      .select('user_id')
      .where('provider', '=', provider)
      .where('provider_ref', '=', event.transactionId)
      .executeTakeFirst();
    return order ? Number(order.user_id) : null;
  }
  if (event.type === 'subscription_ended') {
    const sub = await subscriptionByRef(tx, provider, event.subscriptionId);
    return sub ? sub.user_id : null;
  }
  return null;
}

async function subscriptionByRef(tx: Tx, provider: string, ref: string) {
  const row = await tx
    .selectFrom('subscriptions')
    .select(['id', 'user_id', 'plan_id'])
    .where('provider', '=', provider)
    .where('provider_ref', '=', ref)
    .executeTakeFirst();
  return row ? { id: Number(row.id), user_id: Number(row.user_id), plan_id: row.plan_id } : null;
}

async function apply(tx: Tx, payments: EventProvider, userId: number, event: BillingEvent): Promise<Outcome> {
  const provider = payments.id;
  switch (event.type) {
    case 'paid':
      return applyPaid(tx, payments, userId, event);
    case 'failed': {
      const order = event.orderId === null ? null : await findOfferOrder(tx, { userId, id: event.orderId });
      if (!order) return { kind: 'ignored', orderId: null, detail: 'no such order' };
      if (order.status === 'pending') {
        await tx
          .updateTable('orders')
          .set({ status: 'failed', failure_reason: event.reason, updated_at: sql<Date>`now()` })
          .where('user_id', '=', userId)
          .where('id', '=', order.id)
          .execute();
      }
      return { kind: 'failed', orderId: order.id, detail: event.reason };
    }
    case 'reversed': {
      const order = await tx
        .selectFrom('orders')
        .select(['id', 'status', 'credits'])
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .where('provider_ref', '=', event.transactionId)
        .executeTakeFirst();
      if (!order) return { kind: 'ignored', orderId: null, detail: 'no such transaction' };
      const orderId = Number(order.id);
      const reason = event.kind === 'refunded' ? 'refund' : 'chargeback';
      if (order.status === 'paid') {
        await tx
          .updateTable('orders')
          .set({ status: 'refunded', updated_at: sql<Date>`now()` })
          .where('user_id', '=', userId)
          .where('id', '=', orderId)
          .execute();
        if (order.credits) {
          await recordCredits(tx, userId, -Number(order.credits), reason, { orderId, note: event.transactionId });
        }
      }
      return { kind: event.kind, orderId, amountMinor: -event.amountMinor, currency: event.currency };
    }
    case 'subscription_ended': {
      await tx
        .updateTable('subscriptions')
        .set({ status: 'ended' })
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .where('provider_ref', '=', event.subscriptionId)
        .execute();
      return { kind: 'subscription', orderId: null, detail: 'ended' };
    }
    case 'ignored':
      return { kind: 'ignored', orderId: null };
  }
}

async function applyPaid(
  tx: Tx,
  payments: EventProvider,
  userId: number,
  event: Extract<BillingEvent, { type: 'paid' }>,
): Promise<Outcome> {
  const provider = payments.id;
  // What the transaction says it paid, as kept in `payments` (an amount that is no integer is kept as none).
  const money = {
    amountMinor: Number.isSafeInteger(event.amountMinor) ? event.amountMinor : undefined,
    currency: /^[A-Z]{3}$/.test(event.currency) ? event.currency : undefined,
  };
  // The same transaction twice (transaction.paid then .completed, or a resent event): paid once.
  const already = await tx
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('provider_ref', '=', event.transactionId)
    .executeTakeFirst();
  if (already) return { kind: 'paid', orderId: Number(already.id), ...money, detail: 'already paid' };
  let order = event.orderId === null ? null : await findOfferOrder(tx, { userId, id: event.orderId });
  if (order && order.status !== 'pending' && order.status !== 'failed') order = null;
  let orderId: number;
  let credits: number;
  let offerId: string;
  if (order) {
    const review = paymentMismatch(event, {
      amountMinor: order.amount_minor,
      currency: order.currency,
      priceId: payments.priceIdOf(order.offer),
      transactionId: order.checkout_ref,
    });
    if (review) {
      await flagForReview(tx, userId, order.id, review, event.transactionId);
      return { kind: 'failed', orderId: order.id, ...money, detail: review, review };
    }
    orderId = order.id;
    credits = order.credits;
    offerId = order.offer.id;
    await tx
      .updateTable('orders')
      .set({
        status: 'paid',
        provider_ref: event.transactionId,
        paid_at: sql<Date>`now()`,
        failure_reason: null,
        updated_at: sql<Date>`now()`,
      })
      .where('user_id', '=', userId)
      .where('id', '=', orderId)
      .execute();
  } else {
    // A subscription's next period: a new paid order of its plan.
    const sub = event.subscriptionId ? await subscriptionByRef(tx, provider, event.subscriptionId) : null;
    const plan = sub ? offerOf(sub.plan_id) : undefined;
    if (!sub || !plan) return { kind: 'ignored', orderId: null, ...money, detail: 'no pending order' };
    const review = paymentMismatch(event, {
      amountMinor: plan.price.amount,
      currency: plan.price.currency,
      priceId: payments.priceIdOf(plan),
      // A renewal's transaction is the provider's own, opened by no checkout.
      transactionId: null,
    });
    if (review) {
      // The renewal is an order of the plan all the same, failed, so that the user sees it.
      const failedId = await insertNumbered({ kysely: tx }, 'orders', userId, {
        ...offerOrderValues(plan, provider, { renewal: true }),
        status: sql`'failed'::text`,
      });
      await flagForReview(tx, userId, failedId, review, event.transactionId);
      return { kind: 'failed', orderId: failedId, ...money, detail: review, review };
    }
    orderId = await insertNumbered({ kysely: tx }, 'orders', userId, {
      ...offerOrderValues(plan, provider, { renewal: true }),
      status: sql`'paid'::text`,
      provider_ref: sql`${event.transactionId}::text`,
      paid_at: sql`now()`,
    });
    credits = plan.credits;
    offerId = plan.id;
  }
  const offer = offerOf(offerId);
  await recordCredits(tx, userId, credits, offer?.kind === 'plan' ? 'subscription' : 'pack', {
    orderId,
    note: event.transactionId,
  });
  if (offer?.kind === 'plan' && event.subscriptionId) {
    const now = new Date();
    const period = event.period ?? { start: now, end: new Date(now.getTime() + 30 * 86_400_000) };
    await tx
      .insertInto('subscriptions')
      .values({
        user_id: userId,
        plan_id: offer.id,
        provider,
        provider_ref: event.subscriptionId,
        period_start: period.start,
        period_end: period.end,
      })
      .onConflict((oc) =>
        oc.columns(['provider', 'provider_ref']).doUpdateSet({
          period_start: period.start,
          period_end: period.end,
        }),
      )
      .execute();
  }
  return { kind: 'paid', orderId, ...money };
}

/** A transaction that named the order but did not pay it: the order fails with the reason, for a person to settle. */
async function flagForReview(tx: Tx, userId: number, orderId: number, review: PaymentMismatch, transactionId: string) {
  await tx
    .updateTable('orders')
    .set({
      status: 'failed',
      failure_reason: review,
      review_reason: review,
      review_ref: transactionId,
      updated_at: sql<Date>`now()`,
    })
    .where('user_id', '=', userId)
    .where('id', '=', orderId)
    .execute();
}

/**
 * A webhook as the provider sent it: verified (the provider's SDK, before anything is read), then
 * applied once. The webhook route and the sandbox checkout both deliver through here.
 */
export async function receiveWebhook(
  services: { db: Db; payments: PaymentProvider },
  body: string,
  signature: string,
): Promise<AppliedEvent> {
  const event = await services.payments.verifyWebhook(body, signature);
  return applyPaymentEvent(services.db, services.payments, event);
}
