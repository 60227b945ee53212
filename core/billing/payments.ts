import type { Db } from '../../db/client.ts';

// A user's payments (spec §7 "GET payments"): what the payment provider reported about their
// orders — paid, failed, refunded, charged back — newest first, one row per provider event.

export type Payment = {
  id: number;
  kind: 'paid' | 'failed' | 'refunded' | 'chargeback' | 'subscription';
  provider: string;
  event_type: string;
  /** The order it is about (its id), if any. */
  order_id: number | null;
  /** In the currency's minor unit (a refund is negative); null when the event has no amount. */
  amount_minor: number | null;
  currency: string | null;
  /** A failure's reason code, or what was done. */
  detail: string | null;
  created_at: string;
};

export async function listPayments(db: Db, userId: number, count = 50): Promise<Payment[]> {
  const rows = await db.kysely
    .selectFrom('payments')
    .select(['id', 'kind', 'provider', 'event_type', 'order_id', 'amount_minor', 'currency', 'detail', 'created_at'])
    .where('user_id', '=', userId)
    .where('kind', '!=', 'ignored')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as Payment['kind'],
    provider: r.provider,
    event_type: r.event_type,
    order_id: r.order_id === null ? null : Number(r.order_id),
    amount_minor: r.amount_minor === null ? null : Number(r.amount_minor),
    currency: r.currency,
    detail: r.detail,
    created_at: new Date(r.created_at).toISOString(),
  }));
}
