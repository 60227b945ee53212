// The shared contract of the inline XBRL reader (ADR 0037): what core/ixbrl's parser hands the
// importers. Additions are fine; nothing here changes incompatibly.
//
// `parseInlineXbrl(html, { kind, sourceName }): Filing` is SYNCHRONOUS (a filing is a few MB at most
// and is parsed whole); files and zips are opened by core/imports/open-file.ts;
// `normalise(filing): NormalisedFigures[]` gives one row per (period, scope).

export type QName = { namespace: string; localName: string }; // resolved by namespace URI, never by prefix
export type XbrlPeriod =
  | { kind: 'instant'; date: string } // ISO yyyy-mm-dd (XBRL end-of-day instants as given)
  | { kind: 'duration'; start: string; end: string }
  | { kind: 'forever' };
export type XbrlDimension = { axis: QName; member: QName | null; typedValue: string | null };
export type XbrlFact = {
  concept: QName;
  numeric: boolean;
  value: string | null; // numeric: canonical decimal string after format, scale and sign ("-1234500", "0.5");
  // non-numeric: the text (continuations joined, exclusions removed); null when nil
  decimals: number | 'INF' | null;
  unit: string | null; // e.g. "iso4217:GBP", "xbrli:pure", "xbrli:shares", "iso4217:USD/xbrli:shares"
  currency: string | null; // ISO 4217 code when the unit is a single currency, else null
  period: XbrlPeriod;
  dimensions: XbrlDimension[]; // [] for the default (no segment/scenario)
  contextId: string;
  hidden: boolean; // inside ix:hidden
  factId: string | null; // the id attribute, when any
};
export type Filing = {
  kind: 'ch-accounts' | 'sec-ixbrl';
  sourceName: string; // file name (inside a zip: the entry name)
  entityScheme: string | null; // the contexts' identifier scheme
  entityIdentifier: string | null;
  companyNumber: string | null; // Companies House number normalised: 8 chars, leading zeros restored, SC/NI/OC… kept
  cik: string | null; // SEC CIK, 10 digits zero-padded
  name: string | null; // the filing's own entity name
  periodEnd: string | null; // the balance sheet / DocumentPeriodEndDate, ISO
  dormant: boolean | null;
  facts: XbrlFact[];
  /** What was read past: facts skipped (a value no format reads, a missing context) or formats not implemented. */
  warnings?: string[];
};
export type FigureScope = 'company' | 'consolidated';
export type NormalisedFigures = {
  periodStart: string | null;
  periodEnd: string;
  scope: FigureScope;
  currency: string | null;
  comparative: boolean; // true when taken from the prior-year column of this filing
  revenue: string | null;
  grossProfit: string | null;
  operatingProfit: string | null;
  profitBeforeTax: string | null;
  profitAfterTax: string | null;
  totalAssets: string | null;
  currentAssets: string | null;
  cash: string | null;
  totalLiabilities: string | null;
  netAssets: string | null;
  averageEmployees: string | null;
  concepts: Record<string, string>; // figure name -> the concept (namespace#localName) it came from
};

/** One file to read: a file on disk or an entry of a zip archive, read on demand. */
