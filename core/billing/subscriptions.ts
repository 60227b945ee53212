import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { offerOf } from './catalogue.ts';
import { creditBalance } from './ledger.ts';
import type { PaymentProvider } from './payment-provider.ts';

// A user's subscriptions (spec §2 /dashboard/subscriptions/: Current plan, Started on, Credits
// left, Expires on, Next payment on; §6: a user with a subscription may cancel it). Cancelling
// takes effect at the end of the paid period: the provider is told not to renew, the period's
// credits stay, and the subscription reads as ending on that day. The credits of every period go
// to the one balance (core/billing/ledger.ts), so "credits left" is the balance.

export type Subscription = {
  id: number;
  plan_id: string;
  monthly_credits: number;
  /** active: renews; cancelled: ends at expires_at; ended: over. */
  status: 'active' | 'cancelled' | 'ended';
  started_at: string;
  period_start: string;
  period_end: string;
  /** When it ends (the period's end) once cancelled; null while it renews. */
  expires_at: string | null;
  /** The next payment (the period's end) while it renews; null once cancelled or ended. */
  next_payment_at: string | null;
  credits_left: number;
};

/** A user's subscriptions, newest first; a cancelled one whose period is over reads as ended. */
export async function listSubscriptions(db: Db, userId: number, now = new Date()): Promise<Subscription[]> {
  const rows = await db.kysely
    .selectFrom('subscriptions')
    .select(['id', 'plan_id', 'status', 'started_at', 'period_start', 'period_end', 'cancel_at_period_end'])
    .where('user_id', '=', userId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const balance = rows.length > 0 ? await creditBalance(db, userId) : 0;
  return rows.map((r) => {
    const end = new Date(r.period_end);
    const over = r.status === 'ended' || (r.cancel_at_period_end && end <= now);
    const status = over ? 'ended' : r.cancel_at_period_end ? 'cancelled' : 'active';
    return {
      id: Number(r.id),
      plan_id: r.plan_id,
      monthly_credits: offerOf(r.plan_id)?.credits ?? 0,
      status,
      started_at: new Date(r.started_at).toISOString(),
      period_start: new Date(r.period_start).toISOString(),
      period_end: end.toISOString(),
      expires_at: status === 'active' ? null : end.toISOString(),
      next_payment_at: status === 'active' ? end.toISOString() : null,
      credits_left: status === 'ended' ? 0 : balance,
    };
  });
}

/**
 * Whether a subscription of the user still runs: listSubscriptions' rule (not ended, and not
 * cancelled with its period over) as one indexed query, for the API's plan on every call.
 */
export async function hasRunningSubscription(db: Db, userId: number, now = new Date()): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '<>', 'ended')
    .where((eb) => eb.or([eb('cancel_at_period_end', '=', false), eb('period_end', '>', now)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The subscription that still runs (renewing or cancelled but not yet over), if any. */
export async function currentSubscription(db: Db, userId: number): Promise<Subscription | null> {
  return (await listSubscriptions(db, userId)).find((s) => s.status !== 'ended') ?? null;
}

/**
 * Cancels a user's subscription at the end of its period: the provider is asked not to renew it
 * first, then it is marked. Another user's id is a 404; one that is already cancelled or ended a 409.
 */
export async function cancelSubscription(
  db: Db,
  provider: PaymentProvider,
  userId: number,
  id: number,
): Promise<Subscription> {
  const row = await db.kysely
    .selectFrom('subscriptions')
    .select(['id', 'provider', 'provider_ref', 'status', 'cancel_at_period_end'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No subscription of yours has this id.');
  if (row.status !== 'active' || row.cancel_at_period_end) {
    throw new AppError('conflict', 'This subscription is already cancelled.', { status: row.status });
  }
  if (row.provider === provider.id) await provider.cancelSubscription(row.provider_ref);
  await db.kysely
    .updateTable('subscriptions')
    .set({ cancel_at_period_end: true, cancelled_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
  return (await listSubscriptions(db, userId)).find((s) => s.id === id)!;
}
