import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import { getOrder, type Order } from '../orders/orders.ts';
import { insertNumbered } from '../user-data/owned-records.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';
import { decimalAmount, minorAmount, type Offer, offerOf } from './catalogue.ts';
import type { CheckoutView, PaymentProvider } from './payment-provider.ts';

// An order of the catalogue and its checkout (docs/decisions/0019-billing.md): the order is made
// pending with the offer's price, credits and the provider; the provider takes the payment and
// says so by webhook (core/billing/apply-payment-event.ts). The order's amount is the catalogue's,
// never the client's.

export type CheckoutOrderRow = {
  id: number;
  number: number;
  user_id: number;
  status: Order['status'];
  offer: Offer;
  amount_minor: number;
  currency: string;
  provider: string | null;
  provider_ref: string | null;
  /** The provider's transaction opened for this order's checkout (openTransaction); only it pays the order. */
  checkout_ref: string | null;
  credits: number;
};

/** Values of a new order of an offer (also a subscription's renewal). */
export function offerOrderValues(offer: Offer, provider: string, extra: Record<string, unknown> = {}) {
  return {
    amount: sql`${decimalAmount(offer.price.amount)}::numeric`,
    currency: sql`${offer.price.currency}::text`,
    order_data: sql`${JSON.stringify({ offer_id: offer.id, kind: offer.kind, credits: offer.credits, ...extra })}::jsonb`,
    offer_id: sql`${offer.id}::text`,
    credits: sql`${offer.credits}::int`,
    provider: sql`${provider}::text`,
  };
}

/** Places a pending order of a catalogue offer for the user, to be paid through `provider`. */
export async function placeOfferOrder(
  db: Db,
  provider: PaymentProvider,
  userId: number,
  offerId: string,
): Promise<Order> {
  const offer = offerOf(offerId);
  if (!offer) throw fieldProblem('offer_id', 'invalid', 'offer_id must be one of the offers on /info/pricing/.');
  if (offer.kind === 'plan') {
    const active = await db.kysely
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .where('cancel_at_period_end', '=', false)
      .executeTakeFirst();
    if (active) {
      throw new AppError('conflict', 'You already have a subscription: cancel it first to change plans.', {
        parameter: 'offer_id',
      });
    }
  }
  const id = await insertNumbered(db, 'orders', userId, offerOrderValues(offer, provider.id));
  return (await getOrder(db, userId, id))!;
}

/** One of the user's orders of an offer, with what a checkout and the webhooks need; null when not theirs. */
export async function findOfferOrder(
  db: Db | Kysely<Database>,
  where: { userId: number; id?: number; number?: number },
): Promise<CheckoutOrderRow | null> {
  const kysely = 'kysely' in db ? db.kysely : db;
  let query = kysely
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'user_id',
      'status',
      'offer_id',
      'amount',
      'currency',
      'provider',
      'provider_ref',
      'checkout_ref',
      'credits',
    ])
    .where('user_id', '=', where.userId)
    .where('offer_id', 'is not', null);
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  if (where.number !== undefined) query = query.where('number', '=', where.number);
  const row = await query.executeTakeFirst();
  const offer = row?.offer_id ? offerOf(row.offer_id) : undefined;
  if (!row || !offer) return null;
  return {
    id: Number(row.id),
    number: Number(row.number),
    user_id: Number(row.user_id),
    status: row.status,
    offer,
    amount_minor: minorAmount(String(row.amount)),
    currency: row.currency,
    provider: row.provider,
    provider_ref: row.provider_ref,
    checkout_ref: row.checkout_ref,
    credits: Number(row.credits ?? offer.credits),
  };
}

/**
 * What the checkout page shows for a pending order: the provider's view; a paid or closed order
 * has none (409). A provider that opens transactions (Paddle) opens the order's once, with its
 * price and custom data, and every visit of the checkout opens that one.
 */
export async function checkoutOf(
  db: Db,
  provider: PaymentProvider,
  user: { id: number; email: string },
  number: number,
): Promise<{ order: CheckoutOrderRow; view: CheckoutView }> {
  const order = await findOfferOrder(db, { userId: user.id, number });
  if (!order) throw new AppError('not_found', 'No order of yours has this number.');
  if (order.status !== 'pending' && order.status !== 'failed') {
    throw new AppError('conflict', `Order #${order.number} is ${order.status}: there is nothing to pay.`, {
      status: order.status,
    });
  }
  if (provider.openTransaction && order.checkout_ref === null && provider.priceIdOf(order.offer) !== null) {
    const opened = await provider.openTransaction({ id: order.id, userId: user.id, offer: order.offer });
    // Two visits at once may both open one: the first kept is the order's, the other is never shown.
    await db.kysely
      .updateTable('orders')
      .set({ checkout_ref: opened })
      .where('user_id', '=', user.id)
      .where('id', '=', order.id)
      .where('checkout_ref', 'is', null)
      .execute();
    order.checkout_ref = (await findOfferOrder(db, { userId: user.id, id: order.id }))?.checkout_ref ?? opened;
  }
  const view = provider.checkout({
    id: order.id,
    number: order.number,
    userId: user.id,
    email: user.email,
    offer: order.offer,
    transactionId: order.checkout_ref,
  });
  return { order, view };
}
