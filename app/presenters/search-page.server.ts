import { data } from 'react-router';
import { companyNames } from '../../core/companies/company-names.ts';
import { countCompaniesByJurisdiction } from '../../core/companies/count-companies.ts';
import { type CompanySearchResult, findCompanies } from '../../core/companies/find-companies.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { settleTogether } from '../../core/errors/settle-together.ts';
import {
  type FilterParam,
  MAX_YEAR,
  MIN_YEAR,
  type PathValueOf,
  printParams,
  toQueryString,
} from '../../core/filters/grammar.ts';
import { unprefixedPath } from '../../core/i18n/i18n.ts';
import { recordRowsFor } from '../../core/purchases/paywall.ts';
import {
  flagCodeOf,
  type Industry,
  industryPath,
  type Lang,
  type Reference,
  type RefItem,
} from '../../core/reference/reference-data.ts';
import { type Facet, facetCounts } from '../../core/search/facets.ts';
import { findRecords, type RecordRow } from '../../core/search/find-records.ts';
import {
  defaultSort,
  MAX_PAGE,
  parseSearchState,
  pathValues,
  printSearchState,
  type SearchState,
  sortKeys,
} from '../../core/search/search-state.ts';
import { enumValue, fieldColumn } from '../../core/sections/record-fields.ts';
import type { FilterDecl, SectionDecl } from '../../core/sections/section.ts';
import { SECTIONS, sectionById } from '../../core/sections/sections.ts';
import { staleReads } from '../../core/services.ts';
import type { AppServices } from '../services.ts';
import { type Cell, presenter } from './present.server.ts';
import { DEFAULT_TABLE_STYLE, TABLE_STYLES, type TableStyle, type TableView } from './table-view.server.ts';

/** The section of a `/{section}/…` page's URL (one route module serves every section); a 404 for another word. */
export function sectionOfUrl(url: URL): SectionDecl {
  const section = sectionById(unprefixedPath(url.pathname).split('/')[1]);
  if (!section) throw data({ message: 'Not found' }, { status: 404 });
  return section;
}

export type Option = { value: string; label: string; depth?: number };
export type PanelField =
  /**
   * A list of values to tick, several at once (OR). A long list shows its chosen values and a few
   * others, and `more` links to the page with all of them (ADR 0043).
   */
  | {
      kind: 'choices';
      name: string;
      label: string;
      values: string[];
      options: Option[];
      more?: { href: string; label: string };
    }
  | { kind: 'text'; name: string; label: string; value: string }
  | {
      kind: 'range';
      name: string;
      label: string;
      from: string;
      to: string;
      valueType: 'date' | 'number';
      /** Why a bound typed was left out of the search (the bound shows as typed). */
      problems?: { from?: string; to?: string };
    };

/** A result column; a sortable one's header links to its sort (ADR 0022). */
export type TableColumn = { key: string; label: string; sort?: ColumnSort };

/** A column header's sort: where its link leads, and how the results are sorted by it now (if they are). */
export type ColumnSort = { href: string; current: 'ascending' | 'descending' | null; action: string };

export type FacetView = {
  field: string;
  label: string;
  values: { label: string; count: string; href: string; selected: boolean; flag?: string }[];
};

export type SearchPage = {
  section: string;
  /** Every search section, for switching. */
  sections: { id: string; title: string; href: string }[];
  /** The advanced search with this search's parameters. */
  advancedHref: string;
  facets: FacetView[];
  /** Only the companies section has a name search. */
  hasQuery: boolean;
  /**
   * The profile to go straight to: the query is an identifier that exactly one company holds, no
   * other company matched and no filter is set (docs/decisions/0002-search-performance.md, "Identifiers").
   */
  goTo: string | null;
  q: string;
  sort: string;
  sortOptions: Option[];
  columns: TableColumn[];
  tableStyle: TableStyle;
  tableStyles: TableStyle[];
  columnChoices: { key: string; label: string; shown: boolean }[];
  rows: { id: number; cells: Record<string, Cell> }[];
  totalText: string;
  /** `total` is an estimate (shown as "About …"). */
  totalIsEstimate: boolean;
  /** How the name query was read when not as typed (corrected, or near names added); null otherwise. */
  notice: string | null;
  total: number;
  chips: { label: string; removeHref: string }[];
  panel: PanelField[];
  page: number;
  /** How many pages the results fill, when their count is exact (the last reachable page at most); null otherwise. */
  pages: number | null;
  prevHref: string | null;
  nextHref: string | null;
  clearHref: string;
  /** A bound typed in the panel was not a value of its field: the search ran without it (a 400). */
  invalidFilters: boolean;
  /** Canonical path of this search (without language prefix). */
  canonicalPath: string;
  title: string;
  description: string;
  /** What each form of the page carries along unchanged, as hidden fields. */
  carry: {
    search: [string, string][];
    sort: [string, string][];
    panel: [string, string][];
    view: [string, string][];
    /** The "go to page" form: the search and its sort, without page or cursor (ADR 0022). */
    jump: [string, string][];
  };
};

/** What a search page shows besides its filter side (panel, facets) and its results table: what is kept of its view model. */
export type SearchPageHead = Omit<SearchPage, 'facets' | 'panel' | 'rows' | 'columns'>;

/**
 * A search to skip: page 1 of a query that exactly names an identifier (not only its number
 * without the register's letters), one company found and no filter narrowing what was found.
 */
function onlyIdentifierHit(result: CompanySearchResult, state: SearchState): boolean {
  const [match] = result.identifierMatches ?? [];
  return (
    match?.hit === 'exact' &&
    result.total === 1 &&
    result.rows.length === 1 &&
    Number(result.rows[0].id) === match.id &&
    state.filters.length === 0 &&
    state.page === 1 &&
    !state.after
  );
}

/** Everything a section's search page shows, from its URL. Bad input throws AppError('bad_request'). */
export async function loadSearchPage(
  services: AppServices,
  lang: Lang,
  url: URL,
  splat: string | undefined,
  section: SectionDecl,
  view: TableView = { style: DEFAULT_TABLE_STYLE, columns: null },
  viewer?: number,
): Promise<SearchPage> {
  const { reference } = services;
  // Search is stale-tolerant: a replica's when there are some (ADR 0024).
  const reads = staleReads(services);
  const p = presenter(reference, lang);
  const BASE = `/${section.id}/search/`;
  const segments = splat ? splat.split('/').filter(Boolean) : [];
  const { state, typed } = parseWithPanel(section, url.searchParams, segments);
  const facetsPending = facetCounts(reads, reference, section, state);
  const searching = section.record
    ? findRecords(reads, reference, section, state).then(async (r) => ({
        ...r,
        // The gated values of companies the viewer did not buy are left out (ADR 0029).
        rows: (await recordRowsFor(services.db, viewer, section.baseTable, r.rows)).map((row) => ({
          id: row.id,
          cells: recordCells(section, row, p),
        })),
        notice: null as string | null,
        goTo: null as string | null,
      }))
    : findCompanies(reads, reference, state).then((r) => ({
        ...r,
        rows: r.rows.map((row) => ({ id: row.id, cells: p.companyCells(row) })),
        goTo: onlyIdentifierHit(r, state) ? p.path(`/companies/details/${encodeURIComponent(r.rows[0].uri)}/`) : null,
        notice: r.correctedQuery
          ? p.t('search.corrected', { typed: state.q, query: r.correctedQuery })
          : r.nearNames
            ? p.t('search.nearNames', { typed: state.q, count: r.nearNames })
            : null,
      }));
  const [{ rows, total, totalIsEstimate, next, notice, goTo }, facets] = await settleTogether(searching, facetsPending);
  const result = { total, totalIsEstimate, next };
  const pathValue = pathValues(section, reference);
  const href = (s: SearchState) => p.path(`${BASE}${printSearchState(section, s, pathValue)}`);

  const declOf = (field: string) => section.filters.find((f) => f.field === field) as FilterDecl;
  const namesOfCompanies = await companyNames(
    reads,
    state.filters.filter((f) => f.field === 'company' || f.field === 'group_of').flatMap((f) => f.values.map(Number)),
  );
  const chips = state.filters.map((f) => ({
    label: chipLabel(declOf(f.field), f, reference, p, namesOfCompanies),
    removeHref: href({ ...state, filters: state.filters.filter((x) => x !== f), page: 1, after: undefined }),
  }));
  const filterSummary = chips.map((c) => c.label).join(', ');
  const totalText = resultsText(p, section, result.total, result.totalIsEstimate);
  const sectionTitle = p.label(section.title);

  const nextHref = result.next ? href({ ...state, after: result.next, page: state.page + 1 }) : null;
  // Going back from a cursor page starts over at page 1 of the cursor chain when not reachable by offset.
  const prevHref = state.page > 1 ? href({ ...state, after: undefined, page: state.after ? 1 : state.page - 1 }) : null;
  const canonicalState = { ...state, after: undefined, page: state.after ? 1 : state.page };
  const sortOptions = sortKeys(section, state.q).map((key) => {
    const label = section.sorts.find((s) => s.key === key)?.label ?? `sort.${key}`;
    return { value: key, label: p.label(label) };
  });
  const companies = !section.record;

  return {
    section: section.id,
    sections: SECTIONS.map((s) => ({ id: s.id, title: p.label(s.title), href: p.path(`/${s.id}/search/`) })),
    advancedHref: p.path(
      `/${section.id}/search/advanced/${toQueryString([...(state.q ? [['q', state.q] as [string, string]] : []), ...printParams(state.filters)])}`,
    ),
    facets: presentFacets(section, state, facets, reference, p, href, pathValue),
    hasQuery: companies,
    goTo,
    q: state.q,
    sort: state.sort,
    sortOptions,
    columns: visibleColumns(section, state)
      .filter((c) => !view.columns || view.columns.includes(c.key))
      .map((c) => ({ key: c.key, label: p.label(c.label), sort: columnSort(section, state, c.key, href, p) })),
    tableStyle: view.style,
    tableStyles: [...TABLE_STYLES],
    columnChoices: section.columns.map((c) => ({
      key: c.key,
      label: p.label(c.label),
      shown: !view.columns || view.columns.includes(c.key),
    })),
    rows,
    total: result.total,
    totalText,
    totalIsEstimate: result.totalIsEstimate,
    notice,
    chips,
    panel: panelFields(section, state, reference, p, await countCompaniesByJurisdiction(reads), typed, {
      facets,
      href: (field) => p.path(`${BASE}choices/${field}/${toQueryString(searchParams(section, state))}`),
    }),
    page: state.page,
    pages: result.totalIsEstimate ? null : Math.min(MAX_PAGE, Math.max(1, Math.ceil(result.total / section.pageSize))),
    prevHref,
    nextHref,
    clearHref: p.path(BASE),
    invalidFilters: typed.size > 0,
    canonicalPath: `${BASE}${printSearchState(section, canonicalState, pathValue)}`,
    title: companies
      ? filterSummary
        ? p.t('search.titleFiltered', { filters: filterSummary })
        : p.t('search.title')
      : filterSummary
        ? p.t('search.recordTitleFiltered', { section: sectionTitle, filters: filterSummary })
        : p.t('search.recordTitle', { section: sectionTitle }),
    description: companies
      ? p.t('search.description', { count: result.total })
      : p.t('search.recordDescription', { section: sectionTitle }),
    carry: carriedParams(section, state),
  };
}

/**
 * The search of a URL. A bound typed in the filter panel that is not a value of its field (a
 * date such as 2020-13-45 passes the input's own pattern) leaves the search without that bound,
 * its value kept to show in the field; any other bad parameter throws AppError('bad_request').
 */
function parseWithPanel(
  section: SectionDecl,
  query: URLSearchParams,
  segments: string[],
): { state: SearchState; typed: Map<string, string> } {
  const parsed = parseSearchState(section, query, segments);
  if (parsed.ok) return { state: parsed.state, typed: new Map() };
  const bounds = new Set(section.filters.flatMap((decl) => panelBounds(decl)));
  const typed = new Map(parsed.errors.map((e) => [e.parameter, query.get(e.parameter) ?? '']));
  const again = [...typed.keys()].every((name) => bounds.has(name))
    ? parseSearchState(section, new URLSearchParams([...query].filter(([name]) => !typed.has(name))), segments)
    : parsed;
  if (again.ok) return { state: again.state, typed };
  const first = parsed.errors[0];
  throw new AppError('bad_request', first.message, { parameter: first.parameter, errors: parsed.errors });
}

/** The name of a filter's range in the panel: a range, or a typed date range's registration bounds. */
function panelRangeName(decl: FilterDecl): string | null {
  if (decl.kind === 'range') return decl.field;
  if (decl.kind === 'typed_date_range' && decl.direct?.registration) return `${decl.field}[registration]`;
  return null;
}

/** The query names of a filter's panel bounds. */
function panelBounds(decl: FilterDecl): string[] {
  const name = panelRangeName(decl);
  return name ? [`${name}:from`, `${name}:to`] : [];
}

/** Why a bound typed for a range is not one, in the reader's language. */
function boundProblem(decl: FilterDecl, p: P): string {
  const type = decl.kind === 'range' ? decl.valueType : 'date';
  return type === 'date'
    ? p.t('search.invalidDate', { min: MIN_YEAR, max: MAX_YEAR })
    : p.t(type === 'year' ? 'search.invalidYear' : type === 'amount' ? 'search.invalidAmount' : 'search.invalidNumber');
}

/** Facet values as links that set the facet's filter to that value (keeping the others). */
function presentFacets(
  section: SectionDecl,
  state: SearchState,
  facets: Facet[],
  reference: Reference,
  p: P,
  href: (s: SearchState) => string,
  pathValue: PathValueOf,
): FacetView[] {
  return facets.map((facet) => {
    const decl = section.filters.find((f) => f.field === facet.field) as FilterDecl;
    const current = state.filters.find((f) => f.field === facet.field && f.op === 'eq');
    const values = facet.values.map((v) => {
      let value = String(v.id);
      let flag: string | undefined;
      if (decl.kind === 'enum') value = decl.values.find((e) => e.id === v.id)?.uri ?? value;
      if (decl.kind === 'reference' && decl.valueKey === 'uri') {
        value = (reference[decl.ref] as { byId: Map<number, RefItem> }).byId.get(v.id)?.uri ?? value;
      }
      if (decl.kind === 'reference' && decl.ref === 'locations') flag = flagCodeOf(reference, v.id);
      const filters = [
        ...state.filters.filter((f) => f.field !== facet.field),
        { field: facet.field, keys: [], op: 'eq' as const, values: [value] },
      ];
      return {
        label: valueLabel(decl, value, reference, p),
        count: v.estimate ? p.t('search.about', { count: v.count }) : p.number(v.count),
        href: href({ ...state, filters, page: 1, after: undefined }),
        // A filter holds an enumerated value as given (a path gives its id, a facet link its uri).
        selected: current?.values.some((c) => pathValue(facet.field, c)?.id === v.id) ?? false,
        flag,
      };
    });
    return { field: facet.field, label: p.label(decl.label), values };
  });
}

/**
 * A column header's sort, from the sorts the section declares for that column: the first one
 * declared, or, when the results are sorted by the column already, its other direction.
 */
function columnSort(
  section: SectionDecl,
  state: SearchState,
  column: string,
  href: (s: SearchState) => string,
  p: P,
): ColumnSort | undefined {
  const sorts = section.sorts.filter((s) => s.column === column);
  if (sorts.length === 0) return undefined;
  const now = sorts.find((s) => s.key === state.sort);
  const next = now ? (sorts.find((s) => s.by[0].direction !== now.by[0].direction) ?? now) : sorts[0];
  return {
    href: href({ ...state, sort: next.key, page: 1, after: undefined }),
    current: now ? (now.by[0].direction === 'asc' ? 'ascending' : 'descending') : null,
    action: p.t('searchUx.sortBy', { order: p.label(next.label) }),
  };
}

/** Declared columns; contacts filtered by type show only the chosen types' columns (spec §2). */
function visibleColumns(section: SectionDecl, state: SearchState) {
  const choice = section.record?.columnChoice;
  const chosen = choice && state.filters.find((f) => f.field === choice.field && f.op === 'eq');
  if (!choice || !chosen) return section.columns;
  const hidden = new Set(
    Object.entries(choice.columns)
      .filter(([type]) => !chosen.values.includes(type))
      .map(([, column]) => column),
  );
  return section.columns.filter((c) => !hidden.has(c.key));
}

/** Display cells of a record row: its own fields by type, then the company columns. */
export function recordCells(section: SectionDecl, row: RecordRow, p: P): Record<string, Cell> {
  const record = section.record!;
  const href = p.companyHref(row.company_uri);
  const currency = typeof row.currency_id === 'number' ? p.currencyCode(row.currency_id) : '';
  const cells: Record<string, Cell> = {};
  for (const f of record.fields) {
    const value = row[fieldColumn(f)];
    if (value === null || value === undefined) {
      cells[f.key] = { text: '' };
      continue;
    }
    switch (f.type) {
      case 'date':
        cells[f.key] = { text: p.date(String(value)) };
        break;
      case 'amount':
        cells[f.key] = { text: p.amount(Number(value), currency) };
        break;
      case 'number':
        cells[f.key] = { text: p.number(Number(value)) };
        break;
      case 'enum':
        cells[f.key] = { text: p.label(f.values?.find((v) => v.id === Number(value))?.label ?? String(value)) };
        break;
      case 'location':
        cells[f.key] = p.jurisdiction(Number(value));
        break;
      case 'currency':
        cells[f.key] = { text: p.currencyCode(Number(value)) };
        break;
      default:
        cells[f.key] = { text: String(value) };
    }
  }
  const company = p.companyCells({
    id: row.legal_entity_id,
    uri: row.company_uri,
    name: row.company_name,
    company_number: null,
    status_id: row.company_status_id,
    jurisdiction_id: row.company_jurisdiction_id,
    registered_on: null,
    primary_industry_id: row.company_industry_id,
    size_id: row.company_size_id,
    employees_id: row.company_employees_id,
    kind_id: null,
    town: null,
  });
  for (const [key, cell] of Object.entries(company)) cells[`company_${key}`] = cell;
  cells.company_legal_name = { text: row.company_name, href };
  // ---- people (ADR 0022): a connection's name leads to the people of that name ----
  if (section.id === 'connections' && cells.name?.text)
    cells.name = { ...cells.name, href: p.path(`/members/search/?q=${encodeURIComponent(cells.name.text)}`) };
  return cells;
}

type P = ReturnType<typeof presenter>;

function refItems(decl: Extract<FilterDecl, { kind: 'reference' }>, reference: Reference) {
  return (reference[decl.ref] as { items: { id: number; uri: string }[] }).items;
}

/** How many results a search found, as its page says it: "1,822 companies", "About 52,000 records". */
export function resultsText(p: P, section: SectionDecl | undefined, total: number, estimate: boolean): string {
  const noun = section?.record ? 'records' : 'results';
  return p.t(estimate ? `search.${noun}About` : `search.${noun}`, { count: total });
}

export function chipLabel(
  decl: FilterDecl,
  f: FilterParam,
  reference: Reference,
  p: P,
  companyNames: Map<string, string> = new Map(),
): string {
  const label =
    decl.kind === 'typed_date_range' && f.keys[0] === 'registration' && decl.field === 'dates'
      ? p.t('filters.registration')
      : p.label(decl.label);
  // A typed filter names its type (and address part) as the reader reads them: "Identifiers (LEI)".
  const typeItem =
    'types' in decl ? (reference[decl.types] as { byUri: Map<string, RefItem> }).byUri.get(f.keys[0]) : undefined;
  const typeNames = [
    ...(f.keys[0] === undefined ? [] : [p.name(typeItem) || f.keys[0]]),
    ...f.keys.slice(1).map((part) => p.t(`advanced.part.${part}`)),
  ];
  const typed = 'types' in decl && typeNames.length > 0 ? ` (${typeNames.join(', ')})` : '';
  if (f.op === 'is_known' || f.op === 'is_unknown') return `${label}${typed}: ${p.t(`search.${f.op}`)}`;
  const names = f.values.map((v) =>
    decl.kind === 'ids' && (decl.field === 'company' || decl.field === 'group_of')
      ? (companyNames.get(v) ?? v)
      : valueLabel(decl, v, reference, p),
  );
  if (f.op === 'from') return `${label}${typed} ≥ ${names[0]}`;
  if (f.op === 'to') return `${label}${typed} ≤ ${names[0]}`;
  return `${label}${typed}: ${names.join(' | ')}`;
}

/** How a filter value reads: reference and enumerated values by name, others as given. */
function valueLabel(decl: FilterDecl, v: string, reference: Reference, p: P): string {
  if (decl.kind === 'reference') {
    const list = reference[decl.ref] as unknown as { byId: Map<number, RefItem>; byUri: Map<string, RefItem> };
    return p.name(decl.valueKey === 'id' ? list.byId.get(Number(v)) : list.byUri.get(v)) || v;
  }
  if (decl.kind === 'enum') {
    const value = enumValue(decl.values, v);
    return value ? p.label(value.label) : v;
  }
  // The contact types a contacts search shows ("Email", not "email").
  if (decl.kind === 'column_choice') return p.name(reference.contactTypes.byUri.get(v)) || v;
  return v;
}

/** Option lists per reference data and language, sorted once (the per-request work is filtering). */
const optionCache = new WeakMap<Reference, Map<string, Option[]>>();

function cachedOptions(reference: Reference, key: string, build: () => Option[]): Option[] {
  let byKey = optionCache.get(reference);
  if (!byKey) {
    byKey = new Map();
    optionCache.set(reference, byKey);
  }
  let options = byKey.get(key);
  if (!options) {
    options = build();
    byKey.set(key, options);
  }
  return options;
}

/** A search's parameters as a query (the path's filters as parameters): what a page about it carries. */
function searchParams(section: SectionDecl, state: SearchState): [string, string][] {
  return [
    ...(state.q ? [['q', state.q] as [string, string]] : []),
    ...printParams(state.filters),
    ...(state.sort === defaultSort(section, state.q) ? [] : [['sort', state.sort] as [string, string]]),
  ];
}

/** A list longer than this shows its chosen values and a few others, with a link to all of them (ADR 0043). */
export const LONG_LIST = 24;
/** How many values a long list shows besides the chosen ones (and an industry's drill-down). */
export const SHORT_LIST = 8;

/** The jurisdictions with the most companies first (per counts map: they are counted once a process). */
const byCompanies = new WeakMap<Map<number, number>, string[]>();
function jurisdictionsByCompanies(counts: Map<number, number>): string[] {
  let order = byCompanies.get(counts);
  if (!order) {
    order = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => String(id));
    byCompanies.set(counts, order);
  }
  return order;
}

/**
 * A long list as the panel shows it: the chosen values, an industry's drill-down, and the first
 * SHORT_LIST of `preferred` that the list holds (then the list's own first ones), in the list's order.
 */
function shortChoices(options: Option[], selected: Set<string>, preferred: Iterable<string>[]): Option[] {
  const offered = new Set(options.map((o) => o.value));
  const keep = new Set<string>();
  for (const values of preferred)
    for (const value of values) {
      if (keep.size >= SHORT_LIST) break;
      if (offered.has(value)) keep.add(value);
    }
  for (const o of options) {
    if (keep.size >= SHORT_LIST) break;
    if (!o.depth) keep.add(o.value);
  }
  return options.filter((o) => keep.has(o.value) || selected.has(o.value) || (o.depth ?? 0) > 0);
}

/** Filters the simple panel shows: plain ones; typed sub-filters live in the advanced search. */
function inPanel(decl: FilterDecl): boolean {
  return (
    decl.kind === 'reference' ||
    decl.kind === 'enum' ||
    decl.kind === 'range' ||
    decl.kind === 'text' ||
    decl.kind === 'column_choice'
  );
}

/**
 * The simple filter form: lists as boxes to tick (several values, OR), text and ranges as fields;
 * typed filters come through the URL (the advanced search).
 * Jurisdictions are offered when some company is registered there.
 */
function panelFields(
  section: SectionDecl,
  state: SearchState,
  reference: Reference,
  p: P,
  jurisdictionCounts: Map<number, number>,
  typed: Map<string, string> = new Map(),
  /**
   * Long lists shortened: the values this search's facets found most come first among the few
   * shown, and `href` is the page with a list's every value. Without it, every list is whole.
   */
  short?: { facets: Facet[]; href: (field: string) => string },
): PanelField[] {
  /** A long list shortened (the facet's values, then for places the jurisdictions with most companies). */
  const shorten = (
    decl: FilterDecl,
    label: string,
    values: string[],
    options: Option[],
  ): Extract<PanelField, { kind: 'choices' }> => {
    const whole = { kind: 'choices' as const, name: decl.field, label, values, options };
    if (!short || options.length <= LONG_LIST) return whole;
    const facet = short.facets.find((f) => f.field === decl.field);
    const preferred: string[] = [];
    for (const v of facet?.values ?? []) {
      if (decl.kind === 'reference' && decl.valueKey === 'uri') {
        const uri = (reference[decl.ref] as { byId: Map<number, RefItem> }).byId.get(v.id)?.uri;
        if (uri) preferred.push(uri);
      } else preferred.push(String(v.id));
    }
    const places = decl.kind === 'reference' && decl.ref === 'locations';
    return {
      ...whole,
      options: shortChoices(options, new Set(values), [
        preferred,
        places ? jurisdictionsByCompanies(jurisdictionCounts) : [],
      ]),
      more: { href: short.href(decl.field), label: p.t('search.moreChoices', { count: options.length }) },
    };
  };
  const selectedValues = (field: string) =>
    state.filters.find((x) => x.field === field && x.op === 'eq' && x.keys.length === 0)?.values ?? [];
  const selectedValue = (field: string) => {
    const values = selectedValues(field);
    return values.length === 1 ? values[0] : '';
  };
  const bound = (field: string, op: 'from' | 'to', key?: string) =>
    state.filters.find((f) => f.field === field && f.op === op && (key === undefined || f.keys[0] === key))
      ?.values[0] ?? '';
  const fields: PanelField[] = [];
  for (const decl of section.filters) {
    const label = p.label(decl.label);
    if (decl.kind === 'reference') {
      const selected = new Set(selectedValues(decl.field));
      let options = cachedOptions(reference, `${p.lang}:${decl.ref}:${decl.valueKey}`, () => {
        if (decl.ref === 'industries') {
          return reference.industries.items
            .filter((i) => i.level === 1)
            .map((i) => ({ value: String(i.id), label: p.name(i), depth: 0 }));
        }
        const all = refItems(decl, reference).map((i) => ({
          value: decl.valueKey === 'id' ? String(i.id) : i.uri,
          label: decl.ref === 'currencies' ? i.uri.toUpperCase() : p.name(i as never),
        }));
        return decl.ref === 'locations' || decl.ref === 'currencies'
          ? all.sort((a, b) => a.label.localeCompare(b.label, p.lang))
          : all;
      });
      if (decl.ref === 'locations') {
        // Company jurisdictions: those with companies; record locations: countries.
        options = decl.column.includes('jurisdiction')
          ? options.filter((o) => jurisdictionCounts.has(Number(o.value)) || selected.has(o.value))
          : options.filter(
              (o) => reference.locations.byId.get(Number(o.value))?.location_type_id === 1 || selected.has(o.value),
            );
      }
      if (decl.ref === 'industries') options = industryDrillDown(options, selected, reference, p);
      fields.push(shorten(decl, label, [...selected], options));
    } else if (decl.kind === 'enum' || decl.kind === 'column_choice') {
      const options =
        decl.kind === 'enum'
          ? decl.values.map((v) => ({ value: v.uri, label: p.label(v.label) }))
          : Object.keys(decl.columns).map((type) => ({
              value: type,
              label: p.name(reference.contactTypes.byUri.get(type)) || type,
            }));
      // A path filter may give the id; the form offers uris.
      const values = selectedValues(decl.field).map((v) =>
        decl.kind === 'enum' ? (enumValue(decl.values, v)?.uri ?? v) : v,
      );
      fields.push(shorten(decl, label, values, options));
    } else if (decl.kind === 'text') {
      fields.push({ kind: 'text', name: decl.field, label, value: selectedValue(decl.field) });
    } else {
      const name = panelRangeName(decl);
      if (!name) continue;
      const key = decl.kind === 'typed_date_range' ? 'registration' : undefined;
      const side = (op: 'from' | 'to') => {
        const value = typed.get(`${name}:${op}`);
        return value === undefined ? { value: bound(decl.field, op, key) } : { value, problem: boundProblem(decl, p) };
      };
      const [from, to] = [side('from'), side('to')];
      fields.push({
        kind: 'range',
        name,
        label: key ? p.t('filters.registration') : label,
        from: from.value,
        to: to.value,
        valueType: decl.kind === 'range' && decl.valueType !== 'date' ? 'number' : 'date',
        ...(from.problem || to.problem ? { problems: { from: from.problem, to: to.problem } } : {}),
      });
    }
  }
  return fields;
}

/**
 * Industries as the panel offers them: the sectors, and under the sector of each chosen industry
 * its ancestors and its children (a drill-down that works by ticking, one level at a time).
 */
function industryDrillDown(sectors: Option[], chosen: Set<string>, reference: Reference, p: P): Option[] {
  const option = (i: Industry) => ({ value: String(i.id), label: p.name(i), depth: i.level - 1 });
  const below = new Map<string, Option[]>();
  const shown = new Set(sectors.map((o) => o.value));
  for (const value of chosen) {
    const industry = reference.industries.byId.get(Number(value));
    if (!industry) continue;
    const path = industryPath(reference, industry.id);
    const sector = String(path[0].id);
    const under = below.get(sector) ?? [];
    for (const i of [
      ...path.slice(1),
      ...industry.children.map((id) => reference.industries.byId.get(id)!).filter(Boolean),
    ]) {
      if (shown.has(String(i.id))) continue;
      shown.add(String(i.id));
      under.push(option(i));
    }
    below.set(sector, under);
  }
  return sectors.flatMap((o) => [o, ...(below.get(o.value) ?? [])]);
}

/**
 * The search box changes the query and keeps every filter; the sort form changes the sort; the
 * filter panel changes the filters it shows and keeps the query, the sort and the others.
 */
function carriedParams(section: SectionDecl, state: SearchState): SearchPage['carry'] {
  const shownInPanel = (f: FilterParam) => {
    const decl = section.filters.find((d) => d.field === f.field);
    if (!decl) return false;
    if (decl.kind === 'typed_date_range') return !!decl.direct?.[f.keys[0]] && (f.op === 'from' || f.op === 'to');
    if (!inPanel(decl)) return false;
    if (decl.kind === 'range') return f.op === 'from' || f.op === 'to';
    // Lists are ticked boxes (every value shown); a text field holds one value.
    return f.op === 'eq' && (decl.kind !== 'text' || f.values.length === 1);
  };
  const filters = printParams(state.filters);
  const q: [string, string][] = state.q ? [['q', state.q]] : [];
  const sort: [string, string][] = state.sort === defaultSort(section, state.q) ? [] : [['sort', state.sort]];
  return {
    search: filters,
    sort: [...q, ...filters],
    panel: [...q, ...sort, ...printParams(state.filters.filter((f) => !shownInPanel(f)))],
    view: [
      ...q,
      ...filters,
      ...sort,
      ...(state.after ? [['after', state.after] as [string, string]] : []),
      ...(state.page > 1 ? [['page', String(state.page)] as [string, string]] : []),
    ],
    jump: [...q, ...filters, ...sort],
  };
}

/** The page with every value of one long filter list (ADR 0043): what the panel's "All N choices" opens. */
export type ChoicesPage = {
  section: string;
  field: Extract<PanelField, { kind: 'choices' }>;
  title: string;
  /** The search this list belongs to, as it is now (the way back). */
  searchHref: string;
  /** Where the list's form goes: the section's search. */
  action: string;
  /** The rest of the search, kept by the form: the query, the sort and every other filter. */
  carry: [string, string][];
  path: string;
};

/**
 * Every value of a filter list of a section's panel, for the search of a URL's parameters. Null
 * when the section's panel has no list of that name. Bad parameters throw AppError('bad_request').
 */
export async function loadChoicesPage(
  services: AppServices,
  lang: Lang,
  url: URL,
  section: SectionDecl,
  fieldName: string,
): Promise<ChoicesPage | null> {
  const { reference } = services;
  const p = presenter(reference, lang);
  const decl = section.filters.find((d) => d.field === fieldName);
  if (!decl || !(decl.kind === 'reference' || decl.kind === 'enum' || decl.kind === 'column_choice')) return null;
  const { state } = parseWithPanel(section, url.searchParams, []);
  const jurisdictions = await countCompaniesByJurisdiction(staleReads(services));
  const field = panelFields({ ...section, filters: [decl] }, state, reference, p, jurisdictions)[0];
  if (field?.kind !== 'choices') return null;
  const BASE = `/${section.id}/search/`;
  const others = {
    ...state,
    filters: state.filters.filter((f) => !(f.field === decl.field && f.op === 'eq' && f.keys.length === 0)),
  };
  return {
    section: section.id,
    field,
    title: p.t('search.choicesTitle', { filter: field.label }),
    searchHref: p.path(`${BASE}${printSearchState(section, state, pathValues(section, reference))}`),
    action: p.path(BASE),
    carry: searchParams(section, others),
    path: `${BASE}choices/${decl.field}/`,
  };
}
