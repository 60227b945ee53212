import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../errors/app-error.ts';

// The credits ledger (docs/decisions/0019-billing.md): every change of a user's credits is a row
// (migration 0021 forbids changing or deleting one), and the balance is their sum. A spend locks
// the user's row, reads the balance and appends its row in one transaction, so that concurrent
// spends queue on the lock and each sees the balance the one before it left: N credits let exactly
// N one-credit spends through. Credits come from paid orders and subscription periods; refunds and
// chargebacks reverse an order's credits (the balance may then go below zero, and nothing more can
// be spent until it is above the price again).

export type LedgerReason = Database['credit_ledger']['reason'];
type Tx = Kysely<Database>;
/**
 * What credits are spent on (a negative row): a full profile, an export, a data API call, an
 * enrichment (ADR 0020); the other reasons bring credits or reverse them.
 */
export type SpendReason = 'profile' | 'export' | 'api' | 'enrichment';
const SPEND_REASONS: SpendReason[] = ['profile', 'export', 'api', 'enrichment'];

export type LedgerEntry = {
  id: number;
  delta: number;
  reason: LedgerReason;
  order_id: number | null;
  purchase_id: number | null;
  note: string | null;
  created_at: string;
};

/** A user's balance: the sum of their ledger. */
export async function creditBalance(db: Db | Tx, userId: number): Promise<number> {
  const kysely = 'kysely' in db ? db.kysely : db;
  const row = await kysely
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(sum(delta), 0)::int`.as('balance'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}

/**
 * Takes the user's row lock: spends and grants of one user run one after the other. A transaction
 * that writes a row referring to the user (a purchase) takes it first: the reference's key-share
 * lock, taken before, would deadlock two such transactions.
 */
export async function lockUser(tx: Tx, userId: number): Promise<void> {
  const row = await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No user has this id.');
}

/** The refusal of a spend the balance does not cover: 402 with the cost and the balance. */
export function tooFewCredits(credits: number, balance: number): AppError {
  return new AppError(
    'payment_required',
    `This costs ${credits} credit${credits === 1 ? '' : 's'} and your balance is ${balance}: buy credits on /info/pricing/.`,
    { credits, balance, pricing: '/info/pricing/' },
  );
}

/**
 * Spends credits inside the caller's transaction (which must hold nothing that another spend of
 * the user holds first): refuses with 402 when the balance is short. Returns the balance after.
 */
export async function spendCredits(
  tx: Tx,
  userId: number,
  credits: number,
  reason: SpendReason,
  refs: { purchaseId?: number; note?: string } = {},
): Promise<number> {
  if (!Number.isInteger(credits) || credits <= 0) throw new Error(`a spend is a positive whole number, not ${credits}`);
  await lockUser(tx, userId);
  const balance = await creditBalance(tx, userId);
  if (balance < credits) throw tooFewCredits(credits, balance);
  await tx
    .insertInto('credit_ledger')
    .values({
      user_id: userId,
      delta: -credits,
      reason,
      purchase_id: refs.purchaseId ?? null,
      note: refs.note ?? null,
    })
    .execute();
  return balance - credits;
}

/** Appends a grant (positive) or a reversal (negative) of credits inside the caller's transaction. */
export async function recordCredits(
  tx: Tx,
  userId: number,
  delta: number,
  reason: Exclude<LedgerReason, SpendReason>,
  refs: { orderId?: number; note?: string } = {},
): Promise<void> {
  if (!Number.isInteger(delta) || delta === 0)
    throw new Error(`a ledger entry is a non-zero whole number, not ${delta}`);
  await lockUser(tx, userId);
  await tx
    .insertInto('credit_ledger')
    .values({ user_id: userId, delta, reason, order_id: refs.orderId ?? null, note: refs.note ?? null })
    .execute();
}

/** Spends credits in a transaction of its own: an export's or an API call's charge. Returns the balance after. */
export function chargeCredits(
  db: Db,
  userId: number,
  credits: number,
  reason: SpendReason,
  note?: string,
): Promise<number> {
  return db.kysely.transaction().execute((tx) => spendCredits(tx, userId, credits, reason, { note }));
}

/** The credits a user spent since a moment (the dashboard's "used this month"): spends only, not reversals. */
export async function creditsSpentSince(db: Db, userId: number, since: Date): Promise<number> {
  const row = await db.kysely
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(-sum(delta), 0)::int`.as('spent'))
    .where('user_id', '=', userId)
    .where('reason', 'in', SPEND_REASONS)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** A user's ledger, newest first (the balances call shows the latest entries). */
export async function listLedger(db: Db, userId: number, count = 50): Promise<LedgerEntry[]> {
  const rows = await db.kysely
    .selectFrom('credit_ledger')
    .select(['id', 'delta', 'reason', 'order_id', 'purchase_id', 'note', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    delta: Number(r.delta),
    reason: r.reason,
    order_id: r.order_id === null ? null : Number(r.order_id),
    purchase_id: r.purchase_id === null ? null : Number(r.purchase_id),
    note: r.note,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** Grants credits outside any order (support's goodwill, tests, the CLI): a ledger row of its own. */
export function grantCredits(db: Db, userId: number, credits: number, note?: string): Promise<void> {
  if (credits <= 0) throw new Error('a grant is positive');
  return db.kysely.transaction().execute((tx) => recordCredits(tx, userId, credits, 'grant', { note }));
}
