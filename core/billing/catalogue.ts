import type { Lang } from '../reference/reference-data.ts';

// What Registra sells and what things cost, in one place (DESIGN.md "Credits"; spec §3 products:
// id, credits, name and unit in every language): credit packs bought once, subscription plans
// that bring credits every month, and the products credits are spent on. Prices are integers in
// the currency's minor unit (cents), never floats (docs/decisions/0019-billing.md). Later paid
// features (API data calls, enrichment, monitoring) add their product here and read its price.

export type Translated = Record<Lang, string>;

/** An amount of money: an integer in the currency's minor unit (1990 EUR is 19.90 €). */
export type Money = { amount: number; currency: string };

/** What a user pays for through the checkout: a pack of credits once, or a plan every month. */
export type Offer =
  | { kind: 'pack'; id: string; credits: number; price: Money; name: Translated }
  | { kind: 'plan'; id: string; credits: number; price: Money; name: Translated };

/** What credits are spent on (spec §3 "products"): its price in credits, per unit. */
export type Product = { id: ProductId; credits: number; name: Translated; unit: Translated };

export type ProductId = 'profile' | 'advanced-profile' | 'export-rows' | 'api-match' | 'enrichment-rows';

const CURRENCY = 'EUR';

export const CREDIT_PACKS: readonly Extract<Offer, { kind: 'pack' }>[] = [
  {
    kind: 'pack',
    id: 'credits-10',
    credits: 10,
    price: { amount: 900, currency: CURRENCY },
    name: { en: 'Starter: 10 credits', de: 'Starter: 10 Credits', fr: 'Découverte : 10 crédits' },
  },
  {
    kind: 'pack',
    id: 'credits-50',
    credits: 50,
    price: { amount: 3900, currency: CURRENCY },
    name: { en: 'Team: 50 credits', de: 'Team: 50 Credits', fr: 'Équipe : 50 crédits' },
  },
  {
    kind: 'pack',
    id: 'credits-200',
    credits: 200,
    price: { amount: 12900, currency: CURRENCY },
    name: { en: 'Research: 200 credits', de: 'Recherche: 200 Credits', fr: 'Recherche : 200 crédits' },
  },
];

export const PLANS: readonly Extract<Offer, { kind: 'plan' }>[] = [
  {
    kind: 'plan',
    id: 'plan-basic',
    credits: 30,
    price: { amount: 2500, currency: CURRENCY },
    name: { en: 'Basic', de: 'Basis', fr: 'Essentiel' },
  },
  {
    kind: 'plan',
    id: 'plan-pro',
    credits: 150,
    price: { amount: 9900, currency: CURRENCY },
    name: { en: 'Professional', de: 'Professional', fr: 'Professionnel' },
  },
];

/** Rows of an enrichment (matched and completed) that one credit pays for. */
export const ENRICHMENT_ROWS_PER_CREDIT = 10;

/** Rows of an export that one credit pays for. */
export const EXPORT_ROWS_PER_CREDIT = 100;
/** Queries of a `POST /api/match` call that one credit pays for. */
export const MATCH_QUERIES_PER_CREDIT = 10;

export const PRODUCTS: readonly Product[] = [
  {
    id: 'profile',
    credits: 1,
    name: { en: 'Full company profile', de: 'Vollständiges Firmenprofil', fr: 'Profil complet d’entreprise' },
    unit: { en: 'company', de: 'Firma', fr: 'entreprise' },
  },
  {
    id: 'advanced-profile',
    credits: 2,
    name: {
      en: 'Advanced company profile (a list of 10 or more items)',
      de: 'Erweitertes Firmenprofil (eine Liste mit 10 oder mehr Einträgen)',
      fr: 'Profil d’entreprise avancé (une liste de 10 éléments ou plus)',
    },
    unit: { en: 'company', de: 'Firma', fr: 'entreprise' },
  },
  {
    id: 'export-rows',
    credits: 1,
    name: { en: 'Export', de: 'Export', fr: 'Export' },
    unit: {
      en: `${EXPORT_ROWS_PER_CREDIT} rows (at least 1 credit an export)`,
      de: `${EXPORT_ROWS_PER_CREDIT} Zeilen (mindestens 1 Credit je Export)`,
      fr: `${EXPORT_ROWS_PER_CREDIT} lignes (au moins 1 crédit par export)`,
    },
  },
  {
    id: 'api-match',
    credits: 1,
    name: { en: 'Match API', de: 'Abgleich-API', fr: 'API de rapprochement' },
    unit: {
      en: `${MATCH_QUERIES_PER_CREDIT} queries (at least 1 credit a call)`,
      de: `${MATCH_QUERIES_PER_CREDIT} Anfragen (mindestens 1 Credit je Aufruf)`,
      fr: `${MATCH_QUERIES_PER_CREDIT} requêtes (au moins 1 crédit par appel)`,
    },
  },
  {
    id: 'enrichment-rows',
    credits: 1,
    name: { en: 'Data enrichment', de: 'Datenanreicherung', fr: 'Enrichissement de données' },
    unit: {
      en: `${ENRICHMENT_ROWS_PER_CREDIT} rows of an uploaded file (at least 1 credit a file)`,
      de: `${ENRICHMENT_ROWS_PER_CREDIT} Zeilen einer hochgeladenen Datei (mindestens 1 Credit je Datei)`,
      fr: `${ENRICHMENT_ROWS_PER_CREDIT} lignes d’un fichier envoyé (au moins 1 crédit par fichier)`,
    },
  },
];

export const OFFERS: readonly Offer[] = [...CREDIT_PACKS, ...PLANS];

export function offerOf(id: string): Offer | undefined {
  return OFFERS.find((o) => o.id === id);
}

export function productCredits(id: ProductId): number {
  const product = PRODUCTS.find((p) => p.id === id);
  if (!product) throw new Error(`no product ${id}`);
  return product.credits;
}

/** Credits of `count` units sold `per` a product's price: one price per started `per`, at least one. */
function perStarted(product: ProductId, per: number, count: number): number {
  return Math.max(1, Math.ceil(count / per)) * productCredits(product);
}

/**
 * Credits of an export of this many rows: one per started hundred, at least one. An export with no
 * rows to write (e.g. of companies taken down since they were selected, ADR 0021) costs nothing.
 */
export const exportCredits = (rows: number) =>
  rows === 0 ? 0 : perStarted('export-rows', EXPORT_ROWS_PER_CREDIT, rows);

/** Credits of a match call of this many queries: one per started ten, at least one. */
export const matchCredits = (queries: number) => perStarted('api-match', MATCH_QUERIES_PER_CREDIT, queries);

/** Credits of an enrichment of this many rows: one per started ten, at least one. */
export const enrichmentCredits = (rows: number) => perStarted('enrichment-rows', ENRICHMENT_ROWS_PER_CREDIT, rows);

/** Exact decimal text of an amount in minor units ("19.90" for 1990 with 2 decimals). */
export function decimalAmount(minor: number, decimals = 2): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  return decimals === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Minor units of exact decimal text ("19.90" → 1990); the inverse of decimalAmount. */
export function minorAmount(decimal: string, decimals = 2): number {
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
}
