import { CREDIT_PACKS, type Money, PLANS, PRODUCTS, productCredits } from '../../core/billing/catalogue.ts';
import { creditBalance } from '../../core/billing/ledger.ts';
import { intlLocale } from '../../core/i18n/i18n.ts';
import { REVEAL_KINDS, type Reveal, revealOf, revealTotal } from '../../core/purchases/paywall.ts';
import { purchasedAt } from '../../core/purchases/purchases.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import type { Db } from '../../db/client.ts';
import type { Presenter } from './present.server.ts';

// What the pages of the money side share (docs/decisions/0019-billing.md): prices in the reader's
// language, credits counted in words, and the catalogue as the pricing page shows it.

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** A price in the page's language: 1990 EUR is "€19.90" in English, "19,90 €" in German and French. */
export function formatMoney(lang: Lang, money: Money): string {
  const key = `${lang}:${money.currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: money.currency });
    moneyFormats.set(key, format);
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amount / 10 ** digits);
}

/** "3 credits", in the page's language. */
export function creditsText(p: Presenter, count: number): string {
  return p.t('billing.credits', { count });
}

/** The catalogue as the pricing page lists it. */
export function presentCatalogue(p: Presenter) {
  return {
    packs: CREDIT_PACKS.map((o) => ({
      id: o.id,
      name: o.name[p.lang],
      credits: creditsText(p, o.credits),
      price: formatMoney(p.lang, o.price),
    })),
    plans: PLANS.map((o) => ({
      id: o.id,
      name: o.name[p.lang],
      credits: p.t('billing.pricing.monthlyCredits', { credits: creditsText(p, o.credits) }),
      price: p.t('billing.pricing.perMonth', { price: formatMoney(p.lang, o.price) }),
    })),
    products: PRODUCTS.map((product) => ({
      id: product.id,
      name: product.name[p.lang],
      credits: creditsText(p, product.credits),
      unit: product.unit[p.lang],
    })),
  };
}

/** A signed-in user's balance, or null for a guest. */
export async function balanceOf(db: Db, userId: number | undefined): Promise<number | null> {
  return userId === undefined ? null : creditBalance(db, userId);
}

const FAILURES = new Set([
  'declined',
  'insufficient_funds',
  'expired_card',
  'authentication_failed',
  'blocked_card',
  'canceled',
  'unknown',
  // Paid, but not the order's amount, currency or price (core/billing/payment-mismatch.ts).
  'amount_mismatch',
  'currency_mismatch',
  'price_mismatch',
  'transaction_mismatch',
]);

/** A payment provider's failure code in words; an unknown code is named as it came. */
export function failureText(p: Presenter, code: string): string {
  return FAILURES.has(code) ? p.t(`billing.failures.${code}`) : p.t('billing.failures.other', { code });
}

/** The full-profile offer of a profile page: its price, the balance after, or that it is bought (docs/decisions/0019-billing.md). */
export type ProfileOffer = {
  cost: number;
  costText: string;
  /** The signed-in user's; null for a guest. */
  balance: number | null;
  /** When this user bought it (a date in the page's language); null when not. */
  boughtOn: string | null;
  afterText: string;
  tooFewText: string;
  pricingHref: string;
  /** What buying reveals, counted in words ("2 emails, 1 phone number"); empty when there is nothing (ADR 0029). */
  revealText: string;
  /** Nothing to reveal: no price, no purchase offered. */
  nothingToBuy: boolean;
};

/** What a purchase reveals in words, each kind with its count ("2 emails, 1 phone number, 3 officers' emails"). */
export function revealText(p: Presenter, reveal: Reveal): string {
  return REVEAL_KINDS.filter((kind) => reveal[kind] > 0)
    .map((kind) => p.t(`billing.reveal.${kind}`, { count: reveal[kind] }))
    .join(', ');
}

export async function profileOffer(
  db: Db,
  p: Presenter,
  userId: number | undefined,
  companyId: number,
  advanced: boolean,
  /** What buying the company reveals, when the caller has it already (the same for every viewer). */
  known?: Reveal,
): Promise<ProfileOffer> {
  const cost = productCredits(advanced ? 'advanced-profile' : 'profile');
  const [balance, bought, reveal] = await Promise.all([
    balanceOf(db, userId),
    userId === undefined ? null : purchasedAt(db, userId, companyId),
    known ?? revealOf(db, companyId),
  ]);
  return {
    revealText: revealText(p, reveal),
    nothingToBuy: revealTotal(reveal) === 0,
    cost,
    costText: creditsText(p, cost),
    balance,
    boughtOn: bought ? p.date(bought.slice(0, 10)) : null,
    afterText: balance === null ? '' : p.t('billing.cost.after', { after: creditsText(p, balance - cost) }),
    tooFewText:
      balance === null
        ? ''
        : p.t('billing.cost.tooFew', { cost: creditsText(p, cost), balance: creditsText(p, balance) }),
    pricingHref: `${p.path('/info/pricing/')}?cost=${cost}`,
  };
}
