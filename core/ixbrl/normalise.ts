import type { FigureScope, Filing, NormalisedFigures, XbrlFact } from './types.ts';

// The headline figures of a filing, per period and scope (ADR 0037). Concepts are matched by
// namespace family (the FRC taxonomies of every year share local names; so do us-gaap's) and local
// name, in order of preference. Only facts with no dimension other than the one that says
// "consolidated" or "company only" are headline figures: a fact on a segment, a class of equity or
// a director is not the company's total.

type Family = 'frc' | 'ukgaap' | 'ifrs' | 'usgaap' | 'dei';
const FAMILY_OF: [RegExp, Family][] = [
  [/^http:\/\/xbrl\.frc\.org\.uk\//, 'frc'],
  [/^http:\/\/www\.xbrl\.org\/uk\//, 'ukgaap'],
  [/^https?:\/\/xbrl\.ifrs\.org\/taxonomy\/[^/]+\/ifrs-full$/, 'ifrs'],
  [/^http:\/\/fasb\.org\/us-gaap\//, 'usgaap'],
  [/^http:\/\/xbrl\.sec\.gov\/dei\//, 'dei'],
];
export function familyOf(namespace: string): Family | null {
  for (const [re, family] of FAMILY_OF) if (re.test(namespace)) return family;
  return null;
}

type Figure = Exclude<
  keyof NormalisedFigures,
  'periodStart' | 'periodEnd' | 'scope' | 'currency' | 'comparative' | 'concepts'
>;
type Source = `${Family}:${string}`;

/** Each figure's concepts, best first. Documented in ADR 0037. */
export const CONCEPT_MAP: Record<Figure, Source[]> = {
  revenue: [
    'frc:TurnoverRevenue',
    'ukgaap:TurnoverGrossOperatingRevenue',
    'ifrs:Revenue',
    'usgaap:Revenues',
    'usgaap:RevenueFromContractWithCustomerExcludingAssessedTax',
    'usgaap:RevenueFromContractWithCustomerIncludingAssessedTax',
    'usgaap:SalesRevenueNet',
  ],
  grossProfit: ['frc:GrossProfitLoss', 'ukgaap:GrossProfitLoss', 'ifrs:GrossProfit', 'usgaap:GrossProfit'],
  operatingProfit: [
    'frc:OperatingProfitLoss',
    'ukgaap:OperatingProfitLoss',
    'ifrs:ProfitLossFromOperatingActivities',
    'usgaap:OperatingIncomeLoss',
  ],
  profitBeforeTax: [
    'frc:ProfitLossOnOrdinaryActivitiesBeforeTax',
    'frc:ProfitLossBeforeTax',
    'ukgaap:ProfitLossOnOrdinaryActivitiesBeforeTax',
    'ifrs:ProfitLossBeforeTax',
    'usgaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
    'usgaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
    'usgaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic',
  ],
  profitAfterTax: [
    'frc:ProfitLoss',
    'frc:ProfitLossForPeriod',
    'ukgaap:ProfitLossForPeriod',
    'ifrs:ProfitLoss',
    'usgaap:NetIncomeLoss',
    'usgaap:ProfitLoss',
  ],
  totalAssets: ['frc:TotalAssets', 'ifrs:Assets', 'usgaap:Assets'],
  currentAssets: ['frc:CurrentAssets', 'ukgaap:CurrentAssets', 'ifrs:CurrentAssets', 'usgaap:AssetsCurrent'],
  cash: [
    'frc:CashBankOnHand',
    'frc:CashBankInHand',
    'ukgaap:CashBankInHand',
    'ifrs:CashAndCashEquivalents',
    'usgaap:CashAndCashEquivalentsAtCarryingValue',
    'usgaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents',
    'frc:CashCashEquivalents',
  ],
  totalLiabilities: ['frc:TotalLiabilities', 'ifrs:Liabilities', 'usgaap:Liabilities'],
  netAssets: [
    'frc:NetAssetsLiabilities',
    'frc:Equity',
    'ukgaap:NetAssetsLiabilitiesIncludingPensionAssetLiability',
    'ukgaap:ShareholderFunds',
    'ifrs:Equity',
    'usgaap:StockholdersEquity',
    'usgaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
  ],
  averageEmployees: [
    'frc:AverageNumberEmployeesDuringPeriod',
    'frc:EmployeesTotal',
    'ukgaap:AverageNumberEmployeesDuringPeriod',
    'dei:EntityNumberOfEmployees',
  ],
};
const FIGURES = Object.keys(CONCEPT_MAP) as Figure[];
/** Figures read over a period (the others are balances at its end). */
const DURATION_FIGURES = new Set<Figure>([
  'revenue',
  'grossProfit',
  'operatingProfit',
  'profitBeforeTax',
  'profitAfterTax',
  'averageEmployees',
]);

const SOURCE_INDEX = new Map<string, Figure[]>();
for (const figure of FIGURES) {
  for (const source of CONCEPT_MAP[figure]) {
    SOURCE_INDEX.set(source, [...(SOURCE_INDEX.get(source) ?? []), figure]);
  }
}

/**
 * The scope a fact's dimensions give: 'company' or 'consolidated', or null when it has another
 * dimension (not a headline figure). With no dimension: FRC and UK GAAP facts are the company's own
 * (group accounts tag the group's with GroupCompanyDataDimension = Consolidated); IFRS and SEC
 * statements are consolidated unless tagged separate / parent-company-only.
 */
export function scopeOf(fact: XbrlFact, family: Family): FigureScope | null {
  if (fact.dimensions.length === 0)
    return family === 'usgaap' || family === 'ifrs' || family === 'dei' ? 'consolidated' : 'company';
  if (fact.dimensions.length > 1) return null;
  const [d] = fact.dimensions;
  const axis = d.axis.localName;
  const member = d.member?.localName ?? '';
  if (axis === 'GroupCompanyDataDimension' || axis === 'ConsolidatedGroupCompanyDimension') {
    if (/^(Consolidated|Group)/.test(member)) return 'consolidated';
    if (/^(ParentEntity|Company|Parent|Separate)/.test(member)) return 'company';
    return null;
  }
  if (axis === 'ConsolidatedAndSeparateFinancialStatementsAxis') {
    if (member === 'ConsolidatedMember') return 'consolidated';
    if (member === 'SeparateMember') return 'company';
    return null;
  }
  if (axis === 'ConsolidatedEntitiesAxis' || axis === 'ConsolidationItemsAxis') {
    if (member === 'ParentCompanyMember') return 'company';
    if (member === 'ConsolidatedEntitiesMember') return 'consolidated';
    return null;
  }
  return null;
}

type Candidate = { fact: XbrlFact; figure: Figure; rank: number; scope: FigureScope; source: string };

const DAY = 86_400_000;
const days = (start: string, end: string) => (Date.parse(end) - Date.parse(start)) / DAY;
const isAnnual = (start: string, end: string) => {
  const n = days(start, end);
  return n >= 300 && n <= 400;
};

/**
 * One row per (period end, scope): the filing's own period and its prior-year column(s) (marked
 * `comparative`). Period ends are the filing's period end and the ends of the annual durations its
 * headline facts cover (a balance-sheet-only filing: the latest earlier balance date). Monetary
 * figures are kept in one currency per row (the first found); derived figures: total assets =
 * fixed + current assets and total liabilities = total assets − net assets when the filing
 * states no total (FRC), noted in `concepts` as "derived:…".
 */
export function normalise(filing: Filing): NormalisedFigures[] {
  const candidates: Candidate[] = [];
  const fixedAssets: Candidate[] = [];
  for (const fact of filing.facts) {
    if (!fact.numeric || fact.value === null || !/^-?\d+(\.\d+)?$/.test(fact.value)) continue;
    const family = familyOf(fact.concept.namespace);
    if (!family) continue;
    const source = `${family}:${fact.concept.localName}`;
    const figures = SOURCE_INDEX.get(source);
    const isFixed = (family === 'frc' || family === 'ukgaap') && fact.concept.localName === 'FixedAssets';
    if (!figures && !isFixed) continue;
    const scope = scopeOf(fact, family);
    if (!scope) continue;
    const concept = `${fact.concept.namespace}#${fact.concept.localName}`;
    if (isFixed) fixedAssets.push({ fact, figure: 'totalAssets', rank: 0, scope, source: concept });
    for (const figure of figures ?? []) {
      const durationWanted = DURATION_FIGURES.has(figure) && figure !== 'averageEmployees';
      const kind = fact.period.kind;
      // Flows are durations, balances instants; employees either (dei gives an instant).
      if (durationWanted && kind !== 'duration') continue;
      if (!DURATION_FIGURES.has(figure) && kind !== 'instant') continue;
      candidates.push({ fact, figure, rank: CONCEPT_MAP[figure].indexOf(source as Source), scope, source: concept });
    }
  }
  if (candidates.length === 0) return [];

  const endOf = (f: XbrlFact) =>
    f.period.kind === 'instant' ? f.period.date : f.period.kind === 'duration' ? f.period.end : '';
  // The period ends reported.
  const allEnds = [...new Set(candidates.map((c) => endOf(c.fact)))].sort();
  const current =
    filing.periodEnd && allEnds.includes(filing.periodEnd) ? filing.periodEnd : allEnds[allEnds.length - 1];
  const ends = new Set<string>([current]);
  for (const c of candidates) {
    const p = c.fact.period;
    if (p.kind === 'duration' && p.end < current && isAnnual(p.start, p.end)) ends.add(p.end);
  }
  if (ends.size === 1) {
    const earlier = allEnds.filter((e) => e < current);
    if (earlier.length > 0) ends.add(earlier[earlier.length - 1]);
  }

  const rows: NormalisedFigures[] = [];
  for (const end of [...ends].sort().reverse()) {
    for (const scope of ['company', 'consolidated'] as const) {
      const here = candidates.filter((c) => c.scope === scope && endOf(c.fact) === end);
      if (here.length === 0) continue;
      // The row's period: the longest headline duration ending here, at most ~13 months.
      const starts = here
        .map((c) => (c.fact.period.kind === 'duration' ? c.fact.period.start : null))
        .filter((s): s is string => s !== null && days(s, end) <= 400)
        .sort();
      const periodStart = starts[0] ?? null;
      const usable = here.filter((c) => c.fact.period.kind !== 'duration' || c.fact.period.start === periodStart);
      const currency = usable.find((c) => c.fact.currency)?.fact.currency ?? null;
      const row: NormalisedFigures = {
        periodStart,
        periodEnd: end,
        scope,
        currency,
        comparative: end < current,
        revenue: null,
        grossProfit: null,
        operatingProfit: null,
        profitBeforeTax: null,
        profitAfterTax: null,
        totalAssets: null,
        currentAssets: null,
        cash: null,
        totalLiabilities: null,
        netAssets: null,
        averageEmployees: null,
        concepts: {},
      };
      for (const figure of FIGURES) {
        const best = usable
          .filter((c) => c.figure === figure)
          .filter((c) => figure === 'averageEmployees' || c.fact.currency === currency)
          .sort((a, b) => a.rank - b.rank || Number(a.fact.hidden) - Number(b.fact.hidden))[0];
        if (best) {
          row[figure] = best.fact.value;
          row.concepts[figure] = best.source;
        }
      }
      if (row.totalAssets === null && row.currentAssets !== null) {
        const fixed = fixedAssets.find(
          (c) => c.scope === scope && endOf(c.fact) === end && c.fact.currency === currency,
        );
        row.totalAssets = addDecimals(row.currentAssets, fixed?.fact.value ?? '0');
        row.concepts.totalAssets = `derived:${fixed ? `${fixed.source}+` : ''}${row.concepts.currentAssets}`;
      }
      if (row.totalLiabilities === null && row.totalAssets !== null && row.netAssets !== null) {
        row.totalLiabilities = addDecimals(row.totalAssets, negate(row.netAssets));
        row.concepts.totalLiabilities = `derived:totalAssets-${row.concepts.netAssets}`;
      }
      rows.push(row);
    }
  }
  return rows;
}

function negate(d: string): string {
  return d.startsWith('-') ? d.slice(1) : d === '0' ? d : `-${d}`;
}

/** Exact sum of two decimal strings (BigInt on a common scale). */
export function addDecimals(a: string, b: string): string {
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  const big = (d: string) => {
    const negative = d.startsWith('-');
    const [i, f = ''] = d.replace('-', '').split('.');
    const v = BigInt(i + f.padEnd(scale, '0'));
    return negative ? -v : v;
  };
  const sum = big(a) + big(b);
  const negative = sum < 0n;
  const digits = (negative ? -sum : sum).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = scale ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
