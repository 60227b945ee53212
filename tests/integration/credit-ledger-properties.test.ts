// The credits ledger's invariants as properties (docs/decisions/0019-billing.md): for any sequence
// of grants, spends, paid orders, replayed webhooks and refunds, on a real database —
// the balance is the sum of the ledger; a spend goes through exactly when the balance covers it
// and never takes the balance below zero; a paid order's credits come once however often its
// webhook comes, and a refund takes them back once.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyPaymentEvent } from '../../core/billing/apply-payment-event.ts';
import { CREDIT_PACKS } from '../../core/billing/catalogue.ts';
import { placeOfferOrder } from '../../core/billing/checkout.ts';
import { chargeCredits, creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { type BillingEvent, paddleId } from '../../core/billing/paddle-events.ts';
import { createSandboxProvider } from '../../core/billing/payment-provider.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser } from '../support/users.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t?.db.close());

const provider = createSandboxProvider();

type Step =
  | { kind: 'grant'; credits: number }
  | { kind: 'spend'; credits: number }
  | { kind: 'order'; pack: number; deliveries: number }
  | { kind: 'refund'; which: number; deliveries: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), credits: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('spend' as const), credits: fc.integer({ min: 1, max: 15 }) }),
  fc.record({
    kind: fc.constant('order' as const),
    pack: fc.integer({ min: 0, max: CREDIT_PACKS.length - 1 }),
    deliveries: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('refund' as const),
    which: fc.nat({ max: 5 }),
    deliveries: fc.integer({ min: 1, max: 3 }),
  }),
);

let run = 0;

it('keeps the balance the sum of the ledger, never spends what is not there, and counts each event once', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const user = await createSignedInUser(t.db, `ledger-property-${run++}`);
      let expected = 0;
      const paid: { transactionId: string; credits: number; refunded: boolean }[] = [];
      for (const s of steps) {
        if (s.kind === 'grant') {
          await grantCredits(t.db, user.id, s.credits);
          expected += s.credits;
        } else if (s.kind === 'spend') {
          const before = await creditBalance(t.db, user.id);
          const result = await chargeCredits(t.db, user.id, s.credits, 'export').then(
            (after) => ({ ok: true as const, after }),
            (error: { code?: string }) => ({ ok: false as const, code: error.code }),
          );
          if (before >= s.credits) {
            expect(result).toEqual({ ok: true, after: before - s.credits });
            expected -= s.credits;
          } else {
            expect(result).toEqual({ ok: false, code: 'payment_required' });
          }
        } else if (s.kind === 'order') {
          const pack = CREDIT_PACKS[s.pack];
          const order = await placeOfferOrder(t.db, provider, user.id, pack.id);
          const event: BillingEvent = {
            eventId: paddleId('evt'),
            eventType: 'transaction.completed',
            type: 'paid',
            transactionId: paddleId('txn'),
            orderId: order.id,
            userId: user.id,
            subscriptionId: null,
            period: null,
            amountMinor: pack.price.amount,
            currency: pack.price.currency,
            items: [{ priceId: provider.priceIdOf(pack), quantity: 1 }],
          };
          for (let i = 0; i < s.deliveries; i++) await applyPaymentEvent(t.db, provider, event);
          paid.push({ transactionId: event.transactionId, credits: pack.credits, refunded: false });
          expected += pack.credits;
        } else if (paid.length > 0) {
          const target = paid[s.which % paid.length];
          // Each delivery is a new refund event of the same transaction: its credits go back once.
          for (let i = 0; i < s.deliveries; i++) {
            await applyPaymentEvent(t.db, provider, {
              eventId: paddleId('evt'),
              eventType: 'adjustment.created',
              type: 'reversed',
              kind: 'refunded',
              transactionId: target.transactionId,
              amountMinor: 100,
              currency: 'EUR',
            });
          }
          if (!target.refunded) expected -= target.credits;
          target.refunded = true;
        }
        const balance = await creditBalance(t.db, user.id);
        expect(balance).toBe(expected);
      }
      const rows = await t.db.kysely
        .selectFrom('credit_ledger')
        .select(['delta', 'reason'])
        .where('user_id', '=', user.id)
        .execute();
      // The balance is the ledger's sum, and spends alone never took it below zero.
      expect(rows.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(await creditBalance(t.db, user.id));
      const spendsOnly = rows.filter((r) => r.reason !== 'refund');
      expect(spendsOnly.reduce((sum, r) => sum + Number(r.delta), 0)).toBeGreaterThanOrEqual(0);
    }),
    { numRuns: 20 },
  );
  // Each run is a dozen transactions on a real database: minutes on a loaded machine.
}, 240_000);
