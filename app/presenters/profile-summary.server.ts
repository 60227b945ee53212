import type { FactProvenance } from '../../core/companies/company-history.ts';
import { isActive } from '../../core/companies/company-status.ts';
import type { CompanyProfile } from '../../core/companies/get-company.ts';
import type { RecordList } from '../../core/companies/get-company-records.ts';
import type { LeiDetails } from '../../core/companies/lei-details.ts';
import { formatAddress, OWN_ADDRESS_TYPES } from '../../core/companies/parts/addresses.ts';
import { numberFormat } from '../../core/i18n/i18n.ts';
import type { Reference } from '../../core/reference/reference-data.ts';
import type { Presenter } from './present.server.ts';

// "Who is this company" in one screen (ADR 0022): the summary above the profile's detail, the
// revenue and profit by year, and the timeline of its dates, events, documents, filings and name
// changes — all from what the profile's loader has already read, plus the company's name changes.

/** One fact of the summary; `copy` marks a key identifier (a copy button beside its value). */
export type SummaryItem = {
  key: string;
  label: string;
  value: string;
  href?: string;
  /** A flag's ISO code, drawn before the value. */
  flag?: string;
  note?: string;
  /** Where the fact came from: the page lists the overview's sources once, below it. */
  fact?: FactProvenance;
  copy?: boolean;
};

export type FinancialYear = { year: number; revenue: number | null; profit: number | null };

/** Revenue and profit by year, in one currency, oldest year first: the profile's chart and its table. */
export type FinancialsView = {
  caption: string;
  /** The chart in words, for screen readers. */
  description: string;
  currency: string;
  years: (FinancialYear & { revenueText: string; profitText: string })[];
  /** Axis ticks: value and its short text (1.2M). */
  ticks: { value: number; text: string }[];
};

export type TimelineEntry = {
  key: string;
  /** yyyy-MM-dd, for `<time dateTime>`. */
  date: string;
  dateText: string;
  /** What kind of entry: Date, Event, Document, Financial statement, Name change. */
  kind: string;
  text: string;
  href?: string;
};

/** Types of identifier a reader looks for first, in this order (reference identifier_types uris). */
const KEY_IDENTIFIERS = ['company_number', 'lei', 'vat', 'business_number', 'tax_number'];
/** Date types that end a company: an inactive one is inactive since the first of them. */
const END_DATES = new Set(['dissolution', 'cancellation', 'termination', 'expiration']);
/** Entries the timeline shows at most (the sections below hold the rest). */
export const TIMELINE_ENTRIES = 12;

/** Whole years from `from` (yyyy-MM-dd) to `to`. */
export function yearsBetween(from: string, to: Date): number {
  const [y, m, d] = from.split('-').map(Number);
  let years = to.getUTCFullYear() - y;
  if (to.getUTCMonth() + 1 < m || (to.getUTCMonth() + 1 === m && to.getUTCDate() < d)) years--;
  return Math.max(0, years);
}

export function profileSummary(
  company: CompanyProfile,
  lei: LeiDetails,
  p: Presenter,
  reference: Reference,
  options: {
    source: (field: string) => FactProvenance | undefined;
    today: Date;
    searchPath: (segment: string) => string;
  },
): SummaryItem[] {
  const { t } = p;
  const { source, searchPath } = options;
  const dateOfType = (uris: Set<string>) =>
    company.dates
      .filter((d) => uris.has(reference.dateTypes.byId.get(d.date_type_id)?.uri ?? ''))
      .map((d) => d.date)
      .sort()[0];
  const active = isActive(company.status_id);
  const since = active ? company.registered_on : dateOfType(END_DATES);
  // The status's own name (Dissolved, In liquidation), else active or not (spec §4).
  const status = p.name(reference.statuses.byId.get(company.status_id ?? -1)) || p.status(company.status_id).text;
  const items: SummaryItem[] = [
    {
      key: 'status',
      label: t('columns.status'),
      value: since ? t('profile.summary.statusSince', { status, date: p.date(since) }) : status,
      fact: source('status'),
    },
  ];
  const jurisdiction = p.jurisdiction(company.jurisdiction_id);
  const jurisdictionUri = reference.locations.byId.get(company.jurisdiction_id)?.uri ?? '';
  items.push({
    key: 'jurisdiction',
    label: t('columns.jurisdiction'),
    value: jurisdiction.text,
    flag: jurisdiction.flag,
    href: searchPath(`jurisdiction-${jurisdictionUri}-${company.jurisdiction_id}`),
    fact: source('jurisdiction'),
  });
  const kind = reference.kinds.byId.get(company.kind_id ?? -1);
  const form = lei.legalForm;
  const formName = form
    ? (form.names.find((n) => n.language === p.lang) ?? form.names.find((n) => n.language === 'en') ?? form.names[0])
        ?.name
    : undefined;
  if (kind || formName)
    items.push({
      key: 'legal-form',
      label: t('profile.kind'),
      value: kind ? p.name(kind) : (formName ?? ''),
      href: kind ? searchPath(`kind-${kind.uri}-${kind.id}`) : undefined,
      fact: source('legal_form'),
    });
  if (company.registered_on) {
    const years = yearsBetween(company.registered_on, options.today);
    items.push({
      key: 'age',
      label: t('profile.summary.age'),
      value: years === 0 ? t('profile.summary.underAYear') : t('profile.summary.years', { count: years }),
      note: t('profile.summary.registered', { date: p.date(company.registered_on) }),
      fact: source('registered_on'),
    });
  }
  const size = reference.sizes.byId.get(company.size_id ?? -1);
  const employees = reference.employees.byId.get(company.employees_id ?? -1);
  if (size || employees)
    items.push({
      key: 'size',
      label: t('columns.size'),
      value: size ? p.name(size) : p.name(employees),
      href: size ? searchPath(`size-${size.uri}`) : employees ? searchPath(`employees-${employees.uri}`) : undefined,
      note: size && employees ? p.name(employees) : undefined,
    });
  const primary = company.industries.find((i) => i.is_primary) ?? company.industries[0];
  const industry = primary ? reference.industries.byId.get(primary.industry_id) : undefined;
  if (industry)
    items.push({
      key: 'industry',
      label: t('profile.summary.industry'),
      value: p.name(industry),
      href: searchPath(`industry-${industry.uri}-${industry.id}`),
      note: industry.code ?? undefined,
      fact: source('industries'),
    });
  const address = OWN_ADDRESS_TYPES.map((uri) =>
    company.addresses.find((a) => reference.addressTypes.byId.get(a.address_type_id)?.uri === uri),
  ).find((a) => a !== undefined);
  if (address)
    items.push({
      key: 'address',
      label: t('profile.summary.address'),
      value: formatAddress(
        address,
        address.country_id ? p.name(reference.locations.byId.get(address.country_id)) : null,
      ),
    });
  const identifiers = KEY_IDENTIFIERS.flatMap((uri) => {
    const found = company.identifiers.find(
      (i) => reference.identifierTypes.byId.get(i.identifier_type_id)?.uri === uri,
    );
    return found ? [{ uri, type: reference.identifierTypes.byId.get(found.identifier_type_id), found }] : [];
  });
  for (const { uri, type, found } of identifiers)
    items.push({ key: `identifier-${uri}`, label: p.name(type), value: found.identifier, copy: true });
  const parent = company.members.find((m) => reference.positions.byId.get(m.position_id)?.uri === 'parent_company');
  if (parent)
    items.push({
      key: 'parent',
      label: t('profile.summary.parent'),
      value: parent.name,
      href: parent.company_uri ? p.companyHref(parent.company_uri) : undefined,
    });
  const people = new Set(
    company.members.filter((m) => m.company_id === null && m.name_type !== 'legal_entity').map((m) => m.member_id),
  ).size;
  items.push({
    key: 'people',
    label: t('profile.summary.people'),
    value: t('profile.summary.peopleCount', { count: people }),
    href: people > 0 ? '#members' : undefined,
  });
  return items;
}

/** Revenue and profit by year from the company's latest financial statements; null when it has none with either. */
export function profileFinancials(statements: RecordList | undefined, p: Presenter): FinancialsView | null {
  const rows = (statements?.rows ?? []).filter((r) => r.revenue !== null || r.profit !== null);
  if (rows.length === 0) return null;
  // One currency: the latest statement's (the list is newest first); a year once, its latest statement.
  const currencyId = rows[0].currency_id;
  const byYear = new Map<number, FinancialYear>();
  // Filed accounts give a year's company-only and consolidated figures apart (ADR 0037): the
  // group's are the headline, so a year's consolidated statement comes first.
  const ordered = rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => Number(b.r.scope_id === 2) - Number(a.r.scope_id === 2) || a.i - b.i)
    .map(({ r }) => r);
  for (const r of ordered) {
    if (r.currency_id !== currencyId) continue;
    const year = r.report_year === null ? Number(String(r.period_end).slice(0, 4)) : Number(r.report_year);
    if (!Number.isFinite(year) || byYear.has(year)) continue;
    byYear.set(year, {
      year,
      revenue: r.revenue === null ? null : Number(r.revenue),
      profit: r.profit === null ? null : Number(r.profit),
    });
  }
  const currency = currencyId === null ? '' : p.currencyCode(Number(currencyId));
  const money = (n: number | null) => (n === null ? '—' : p.amount(n, currency));
  const years = [...byYear.values()]
    .sort((a, b) => a.year - b.year)
    .map((y) => ({ ...y, revenueText: money(y.revenue), profitText: money(y.profit) }));
  const values = years.flatMap((y) => [y.revenue ?? 0, y.profit ?? 0]);
  const [low, high] = [Math.min(0, ...values), Math.max(0, ...values)];
  const compact = numberFormat(p.lang, { notation: 'compact', maximumFractionDigits: 1 });
  const ticks = niceTicks(low, high).map((value) => ({ value, text: compact.format(value) }));
  return {
    caption: p.t('profile.financials.caption', { currency }),
    description: years
      .map((y) => p.t('profile.financials.yearText', { year: y.year, revenue: y.revenueText, profit: y.profitText }))
      .join('; '),
    currency,
    years,
    ticks,
  };
}

/** About four round tick values covering [low, high], zero among them. */
export function niceTicks(low: number, high: number): number[] {
  const span = high - low || 1;
  const raw = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = Math.floor(low / step) * step; v <= high + step * 1e-9; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  if (ticks[ticks.length - 1] < high) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** A name change as the company's change history recorded it. */
export type NameChange = { old_value: unknown; new_value: unknown; date: string };

/**
 * The company's life newest first: its dates (registration, dissolution …), events, documents,
 * financial statements and name changes, each kind labelled and each code by its translation.
 */
export function profileTimeline(
  company: CompanyProfile,
  lists: Map<string, RecordList>,
  nameChanges: NameChange[],
  p: Presenter,
  reference: Reference,
): TimelineEntry[] {
  const { t } = p;
  const entries: TimelineEntry[] = [];
  const add = (key: string, date: unknown, kind: string, text: string, href?: string) => {
    const day =
      typeof date === 'string' ? date.slice(0, 10) : date instanceof Date ? date.toISOString().slice(0, 10) : '';
    if (/^\d{4}-\d{2}-\d{2}$/.test(day)) entries.push({ key, date: day, dateText: p.date(day), kind, text, href });
  };
  for (const d of company.dates)
    add(
      `date-${d.date_type_id}`,
      d.date,
      t('profile.timeline.date'),
      p.name(reference.dateTypes.byId.get(d.date_type_id)),
    );
  for (const e of lists.get('events')?.rows ?? [])
    add(
      `event-${e.id}`,
      e.event_date,
      t('profile.timeline.event'),
      labelled(p.code('profile.eventType', String(e.event_type)), e.description),
      '#records-events',
    );
  for (const d of lists.get('documents')?.rows ?? [])
    add(
      `document-${d.id}`,
      d.filed_on,
      t('profile.timeline.document'),
      labelled(p.code('profile.documentType', String(d.document_type)), d.title),
      '#records-documents',
    );
  const periods = new Set<string>();
  for (const f of lists.get('financial-statements')?.rows ?? []) {
    // One entry a period (filed accounts give company-only and consolidated statements of it).
    if (periods.has(String(f.period_end))) continue;
    periods.add(String(f.period_end));
    add(
      `filing-${f.id}`,
      f.period_end,
      t('profile.timeline.filing'),
      t('profile.timeline.statement', { year: f.report_year ?? String(f.period_end).slice(0, 4) }),
      '#records-financial-statements',
    );
  }
  nameChanges.forEach((c, i) => {
    add(
      `name-${i}`,
      c.date,
      t('profile.timeline.nameChange'),
      typeof c.old_value === 'string' && c.old_value
        ? t('profile.timeline.renamed', { from: c.old_value, to: String(c.new_value ?? '') })
        : String(c.new_value ?? ''),
    );
  });
  return entries
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.key.localeCompare(b.key)))
    .slice(0, TIMELINE_ENTRIES);
}

/** A type's label and a record's own words, the label left out when the words start with it. */
function labelled(label: string, words: unknown): string {
  const text = typeof words === 'string' ? words.trim() : '';
  if (!text) return label;
  return text.toLowerCase().startsWith(label.toLowerCase()) ? text : `${label} · ${text}`;
}

/** The date a change took effect as the profile shows it: the source's own date, else when it was seen. */
export function changeDate(change: FactProvenance): string {
  return (change.source_date ?? change.observed_at).toISOString().slice(0, 10);
}
