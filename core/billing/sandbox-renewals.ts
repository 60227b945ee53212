import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { receiveWebhook } from './apply-payment-event.ts';
import { offerOf } from './catalogue.ts';
import { completedEvent, paddleId } from './paddle-events.ts';
import type { SandboxProvider } from './payment-provider.ts';

// The sandbox renews subscriptions as Paddle does (docs/decisions/0019-billing.md): when a period
// ends and the subscription was not cancelled, a `transaction.completed` of the subscription,
// signed and delivered through the same webhook path, pays the next period as a new order and
// adds its credits. The transaction id is derived from the subscription and the period, so two
// workers renewing at once (or one again after a crash) pay a period once (orders_provider_ref).

/** Periods renewed for one subscription in one run, at most (a server away for months catches up). */
const MAX_PERIODS = 12;

/** A Paddle-shaped id that is the same for the same subscription and period. */
function renewalId(subscriptionRef: string, periodEnd: Date): string {
  return paddleId('txn', createHash('sha256').update(`${subscriptionRef}:${periodEnd.toISOString()}`).digest());
}

/** Renews every sandbox subscription whose period is over and that was not cancelled; returns the periods paid. */
export async function renewSandboxSubscriptions(
  services: { db: Db; payments: SandboxProvider },
  now = new Date(),
): Promise<number> {
  const due = await services.db.kysely
    .selectFrom('subscriptions')
    .select(['user_id', 'plan_id', 'provider_ref', 'period_end'])
    .where('provider', '=', services.payments.id)
    .where('status', '=', 'active')
    .where('cancel_at_period_end', '=', false)
    .where('period_end', '<=', now)
    .execute();
  let renewed = 0;
  for (const sub of due) {
    const plan = offerOf(sub.plan_id);
    if (!plan) continue;
    // Paddle carries the first order's custom data onto renewals: that order, already paid.
    const first = await services.db.kysely
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', sub.user_id)
      .where('offer_id', '=', plan.id)
      .orderBy('id')
      .executeTakeFirst();
    let periodEnd = new Date(sub.period_end);
    for (let i = 0; i < MAX_PERIODS && periodEnd <= now; i++) {
      const event = completedEvent(
        {
          orderId: Number(first?.id ?? 0),
          userId: Number(sub.user_id),
          offer: plan,
          amountMinor: plan.price.amount,
          currency: plan.price.currency,
          transactionId: renewalId(sub.provider_ref, periodEnd),
        },
        sub.provider_ref,
        periodEnd,
      );
      const { body, signature } = services.payments.sign(event);
      await receiveWebhook(services, body, signature);
      renewed += 1;
      const next = new Date(periodEnd);
      next.setUTCMonth(next.getUTCMonth() + 1);
      periodEnd = next;
    }
  }
  return renewed;
}
