import type { Database } from '../../db/schema.ts';

// Whether a provider's paid transaction pays exactly the order it names (docs/decisions/0019-billing.md).
// The order id travels in the transaction's custom data, which the buyer's browser hands to the
// provider's checkout along with the price: a signed `transaction.completed` proves that the
// provider took *some* money, not that it took the order's. So before an order is paid, its total,
// currency and items must be the order's: one item, of the price the provider has for the order's
// offer, quantity 1 — and when the server opened the checkout's transaction itself (Paddle:
// transactions.create), it must be that transaction. The catalogue's prices are what the customer
// pays (tax included): a discount, another price, another quantity or a tax added on top all make
// the totals differ.

/** Why a paid transaction is not the order's; the order's failure reason and review flag. */
export type PaymentMismatch = NonNullable<Database['orders']['review_reason']>;

/** What a paid transaction says it paid. Amounts in minor units. */
export type PaidTransaction = {
  transactionId: string;
  amountMinor: number;
  currency: string;
  items: readonly { priceId: string | null; quantity: number }[];
};

/**
 * What the order expects: its amount, currency, the provider's price of its offer (null: none
 * configured), and the transaction opened for its checkout (null: the browser's checkout made it).
 */
export type ExpectedPayment = {
  amountMinor: number;
  currency: string;
  priceId: string | null;
  transactionId: string | null;
};

/** The first way the transaction differs from the order, or null when it pays it exactly. */
export function paymentMismatch(paid: PaidTransaction, expected: ExpectedPayment): PaymentMismatch | null {
  if (paid.currency !== expected.currency) return 'currency_mismatch';
  if (!Number.isSafeInteger(paid.amountMinor) || paid.amountMinor !== expected.amountMinor) return 'amount_mismatch';
  const [item, ...others] = paid.items;
  if (
    expected.priceId === null ||
    !item ||
    others.length > 0 ||
    item.priceId !== expected.priceId ||
    item.quantity !== 1
  ) {
    return 'price_mismatch';
  }
  if (expected.transactionId !== null && paid.transactionId !== expected.transactionId) return 'transaction_mismatch';
  return null;
}
