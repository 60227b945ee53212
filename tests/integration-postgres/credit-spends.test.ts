// Money is never made up (docs/decisions/0019-billing.md): on PostgreSQL, with a pool of real
// connections, 100 concurrent spends against a balance of N credits let exactly N through, and 100
// concurrent purchases of the same company charge once. The ledger refuses to be changed.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chargeCredits, creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { purchaseProfile } from '../../core/purchases/purchases.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  if (!t.db.pool) throw new Error('tests/integration-postgres/ run only in the integration-postgres project');
});
afterAll(() => t?.db.close());

it('lets exactly N of 100 concurrent one-credit spends through a balance of N', async () => {
  const user = await createSignedInUser(t.db, 'spend-race');
  const N = 37;
  await grantCredits(t.db, user.id, N);
  const results = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) => chargeCredits(t.db, user.id, 1, 'export', `race ${i}`)),
  );
  const through = results.filter((r) => r.status === 'fulfilled');
  const refused = results.filter((r) => r.status === 'rejected');
  expect(through.length).toBe(N);
  expect(refused.every((r) => (r as PromiseRejectedResult).reason.code === 'payment_required')).toBe(true);
  // Each spend saw the balance the one before it left: the balances after are N-1 … 0, each once.
  expect(through.map((r) => (r as PromiseFulfilledResult<number>).value).sort((a, b) => a - b)).toEqual(
    Array.from({ length: N }, (_, i) => i),
  );
  expect(await creditBalance(t.db, user.id)).toBe(0);
});

it('charges once for 100 concurrent purchases of the same profile, and N for 100 different ones', async () => {
  const user = await createSignedInUser(t.db, 'purchase-race');
  await grantCredits(t.db, user.id, 10);
  const [company] = await someCompanies(t.db, 1, 300);
  const same = await Promise.all(Array.from({ length: 100 }, () => purchaseProfile(t.db, user.id, company.id)));
  expect(same.filter((r) => r.created).length).toBe(1);
  const price = same.find((r) => r.created)!.purchase.credits;
  expect(await creditBalance(t.db, user.id)).toBe(10 - price);

  const other = await createSignedInUser(t.db, 'purchase-race-many');
  const companies = await someCompanies(t.db, 100, 0);
  const prices = new Map<number, number>();
  await grantCredits(t.db, other.id, 25);
  const results = await Promise.allSettled(companies.map((c) => purchaseProfile(t.db, other.id, c.id)));
  for (const r of results)
    if (r.status === 'fulfilled') prices.set(r.value.purchase.object_id, r.value.purchase.credits);
  const spent = [...prices.values()].reduce((a, b) => a + b, 0);
  const balance = await creditBalance(t.db, other.id);
  expect(balance).toBeGreaterThanOrEqual(0);
  expect(spent + balance).toBe(25);
  // What is left pays for no profile (a plain one costs 1, an advanced one 2).
  expect(balance).toBeLessThan(2);
  const bought = await t.db.kysely
    .selectFrom('purchases')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', other.id)
    .executeTakeFirstOrThrow();
  expect(bought.n).toBe(prices.size);
});

it('refuses to change or delete a ledger row', async () => {
  const user = await createSignedInUser(t.db, 'ledger-append-only');
  await grantCredits(t.db, user.id, 3);
  await expect(
    sql`update credit_ledger set delta = 1000 where user_id = ${user.id}`.execute(t.db.kysely),
  ).rejects.toThrow(/append-only/);
  await expect(sql`delete from credit_ledger where user_id = ${user.id}`.execute(t.db.kysely)).rejects.toThrow(
    /append-only/,
  );
  expect(await creditBalance(t.db, user.id)).toBe(3);
});
