import { describe, expect, it } from 'vitest';
import { signatureTimestamp } from '../../core/billing/paddle-events.ts';
import { paymentMismatch } from '../../core/billing/payment-mismatch.ts';

// What pays an order (docs/decisions/0019-billing.md): its total, its currency, and one item of
// the provider's price of its offer, quantity 1; anything else is held for review.

const expected = { amountMinor: 12900, currency: 'EUR', priceId: 'pri_200', transactionId: 'txn_opened' };
const exact = {
  transactionId: 'txn_opened',
  amountMinor: 12900,
  currency: 'EUR',
  items: [{ priceId: 'pri_200', quantity: 1 }],
};

describe('paymentMismatch', () => {
  it('accepts the order’s total, currency and price, and nothing else', () => {
    expect(paymentMismatch(exact, expected)).toBeNull();
    expect(paymentMismatch({ ...exact, amountMinor: 1 }, expected)).toBe('amount_mismatch');
    expect(paymentMismatch({ ...exact, amountMinor: 12901 }, expected)).toBe('amount_mismatch');
    expect(paymentMismatch({ ...exact, amountMinor: Number.NaN }, expected)).toBe('amount_mismatch');
    expect(paymentMismatch({ ...exact, currency: 'USD' }, expected)).toBe('currency_mismatch');
    expect(paymentMismatch({ ...exact, items: [{ priceId: 'pri_10', quantity: 1 }] }, expected)).toBe('price_mismatch');
    expect(paymentMismatch({ ...exact, items: [{ priceId: 'pri_200', quantity: 2 }] }, expected)).toBe(
      'price_mismatch',
    );
    expect(paymentMismatch({ ...exact, items: [] }, expected)).toBe('price_mismatch');
    expect(paymentMismatch({ ...exact, items: [{ priceId: null, quantity: 1 }] }, expected)).toBe('price_mismatch');
    expect(paymentMismatch({ ...exact, items: [...exact.items, { priceId: 'pri_10', quantity: 1 }] }, expected)).toBe(
      'price_mismatch',
    );
    // No price configured for the offer: no transaction can be shown to be the order's.
    expect(paymentMismatch(exact, { ...expected, priceId: null })).toBe('price_mismatch');
    // The server opened the checkout's transaction: only it pays the order.
    expect(paymentMismatch({ ...exact, transactionId: 'txn_other' }, expected)).toBe('transaction_mismatch');
    // It opened none (the sandbox, or an order from before): any transaction of the order's price.
    expect(paymentMismatch({ ...exact, transactionId: 'txn_other' }, { ...expected, transactionId: null })).toBeNull();
  });
});

describe('signatureTimestamp', () => {
  it('reads one ts= and refuses none, two, or one that is not a number', () => {
    expect(signatureTimestamp('ts=1671552777;h1=eb4d')).toBe(1671552777);
    expect(signatureTimestamp('h1=eb4d;ts=1671552777')).toBe(1671552777);
    expect(signatureTimestamp('h1=eb4d')).toBeNull();
    expect(signatureTimestamp('ts=1;ts=2;h1=eb4d')).toBeNull();
    expect(signatureTimestamp('ts=1e9;h1=eb4d')).toBeNull();
    expect(signatureTimestamp('')).toBeNull();
  });
});
