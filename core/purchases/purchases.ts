import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { productCredits } from '../billing/catalogue.ts';
import { creditBalance, lockUser, spendCredits } from '../billing/ledger.ts';
import { isAdvancedCompany } from '../companies/advanced-profile.ts';
import { AppError } from '../errors/app-error.ts';
import { assertCompanyVisible } from '../takedowns/visible.ts';
import {
  COMPANY_REF_COLUMNS,
  COMPANY_REF_NAME,
  type CompanyRef,
  type CompanyRefRow,
  companyRefOf,
} from '../user-data/company-ref.ts';
import type { ListQuery, Page } from '../user-data/list-query.ts';
import { getOwned, listOwned, type OwnedResource, textIn, updateOwned } from '../user-data/owned-records.ts';
import { fieldProblem, notFound } from '../user-data/user-data-errors.ts';
import { revealOf, revealTotal } from './paywall.ts';

// Company profiles a user bought (spec §3 "purchases"; §7 purchases on users/{user_id}; the page
// /dashboard/history/purchases/profiles/companies/ shows Company, Jurisdiction, Purchased on).
// DESIGN.md: opening a company's full profile costs 1 credit (2 for an advanced profile) once per
// user and company, recorded as a purchase. Buying the same company again records nothing new.
// A purchase is a record of credits spent, so a user does not delete it: "deleting" hides it
// from the purchase history (hidden_at), and the company stays bought. The credits are spent in
// the same transaction as the purchase is recorded (core/billing/ledger.ts): with too few, neither
// happens (402).

/** Credits of a company's full profile (the catalogue's price). */
export const PROFILE_CREDITS = productCredits('profile');
/** Credits of an advanced profile (10 or more items in a related list, spec §9). */
export const ADVANCED_PROFILE_CREDITS = productCredits('advanced-profile');

export type Purchase = {
  id: number;
  /** The company's id. */
  object_id: number;
  credits: number;
  created_at: string;
  /** Hidden from the purchase history by the user (still bought). */
  hidden: boolean;
  /** The company as it is now; null when it no longer exists. */
  company: CompanyRef | null;
};

type PurchaseRow = {
  id: number;
  legal_entity_id: number;
  credits: number;
  created_at: Date;
  hidden_at: Date | null;
} & CompanyRefRow;

/** Purchases as a user's records (core/user-data/owned-records.ts); hidden ones only when asked. */
export const PURCHASES: OwnedResource<PurchaseRow, Purchase, { hidden?: boolean }> = {
  table: 'purchases',
  alias: 'p',
  noun: 'purchase',
  select: (db, userId) =>
    db.kysely
      .selectFrom('purchases as p')
      .leftJoin('legal_entities as b', 'b.id', 'p.legal_entity_id')
      .select(['p.id', 'p.legal_entity_id', 'p.credits', 'p.created_at', 'p.hidden_at', ...COMPANY_REF_COLUMNS])
      .where('p.user_id', '=', userId),
  itemOf: (row) => ({
    id: Number(row.id),
    object_id: Number(row.legal_entity_id),
    credits: Number(row.credits),
    created_at: new Date(row.created_at).toISOString(),
    hidden: row.hidden_at !== null,
    company: companyRefOf(row),
  }),
  search: textIn(COMPANY_REF_NAME),
  filters: (query) => (query.hidden ? [] : [sql<SqlBool>`p.hidden_at is null`]),
};

export function getPurchase(db: Db, userId: number, id: number): Promise<Purchase | null> {
  return getOwned(db, PURCHASES, userId, id);
}

/** Whether a user has bought a company's profile (hidden or not). */
export async function hasPurchased(db: Db, userId: number, companyId: number): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('purchases')
    .select('id')
    .where('user_id', '=', userId)
    .where('legal_entity_id', '=', companyId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A user's purchases, newest first: `q` looks in company names, `from`/`to` at the day. Hidden
 * purchases only with `hidden: true`.
 */
export function listPurchases(
  db: Db,
  userId: number,
  query: ListQuery & { hidden?: boolean } = {},
): Promise<Page<Purchase>> {
  return listOwned(db, PURCHASES, userId, query);
}

/** The credits a company's full profile costs: more for an advanced profile (advanced-profile.ts). */
export async function profileCredits(db: Db, companyId: number): Promise<number> {
  return (await isAdvancedCompany(db, companyId)) ? ADVANCED_PROFILE_CREDITS : PROFILE_CREDITS;
}

/**
 * Buys a company's full profile, once per user and company: the company must exist and be visible; its price
 * (1 credit, 2 for an advanced profile) is spent from the balance in the same transaction, and a
 * short balance is a 402 that records nothing. Buying it again spends nothing and answers the first
 * purchase (shown again if it was hidden) with `created: false`. `balance` is the balance after.
 */
export async function purchaseProfile(
  db: Db,
  userId: number,
  companyId: number,
): Promise<{ purchase: Purchase; created: boolean; balance: number }> {
  // A company taken down cannot be bought: a 404 before anything is charged (ADR 0021).
  await assertCompanyVisible(db, companyId, 'object_id');
  // A company with no contact details has nothing to unlock: nothing is sold, a 409 before
  // anything is charged (ADR 0029). One already bought is answered below, as always.
  if (!(await hasPurchased(db, userId, companyId)) && revealTotal(await revealOf(db, companyId)) === 0) {
    throw new AppError(
      'conflict',
      'object_id: this company has no contact details to unlock, so there is nothing to buy',
      {
        parameter: 'object_id',
        reason: 'nothing_to_unlock',
      },
    );
  }
  const credits = await profileCredits(db, companyId);
  const bought = await db.kysely.transaction().execute(async (tx) => {
    await lockUser(tx, userId);
    // The unique (user_id, legal_entity_id) makes a second buyer of the same company wait for the
    // first and then find it bought: one charge.
    const row = await tx
      .insertInto('purchases')
      .values({ user_id: userId, legal_entity_id: companyId, credits })
      .onConflict((oc) => oc.columns(['user_id', 'legal_entity_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    const balance = await spendCredits(tx, userId, credits, 'profile', {
      purchaseId: Number(row.id),
      note: `company ${companyId}`,
    });
    return { id: Number(row.id), balance };
  });
  if (bought) {
    return { purchase: (await getPurchase(db, userId, bought.id))!, created: true, balance: bought.balance };
  }
  const existing = await db.kysely
    .updateTable('purchases')
    .set({ hidden_at: null })
    .where('user_id', '=', userId)
    .where('legal_entity_id', '=', companyId)
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    purchase: (await getPurchase(db, userId, Number(existing.id)))!,
    created: false,
    balance: await creditBalance(db, userId),
  };
}

/** Hides a purchase from the purchase history or shows it again (the API's PATCH). */
export function setPurchaseHidden(db: Db, userId: number, id: number, hidden: boolean): Promise<Purchase> {
  return updateOwned(db, PURCHASES, userId, id, { hidden_at: hidden ? sql<Date>`coalesce(hidden_at, now())` : null });
}

/**
 * Removes purchases from the purchase history (hides them: the companies stay bought), all or
 * none: an id that is not the caller's is a 404. Returns how many were removed.
 */
export async function hidePurchases(db: Db, userId: number, ids: readonly number[]): Promise<number> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw fieldProblem('purchase_ids', 'required', 'Give the ids of the purchases to remove.');
  return db.kysely.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('purchases')
      .set({ hidden_at: sql<Date>`coalesce(hidden_at, now())` })
      .where('user_id', '=', userId)
      .where('id', 'in', unique)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== unique.length) throw notFound('purchase');
    return unique.length;
  });
}

/** Removes every purchase from the purchase history (hides them: the companies stay bought). Returns how many. */
export async function clearPurchaseHistory(db: Db, userId: number): Promise<number> {
  const result = await db.kysely
    .updateTable('purchases')
    .set({ hidden_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** When a user bought a company's full profile (ISO 8601), or null when they have not. */
export async function purchasedAt(db: Db, userId: number, companyId: number): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('purchases')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('legal_entity_id', '=', companyId)
    .executeTakeFirst();
  return row ? new Date(row.created_at).toISOString() : null;
}
