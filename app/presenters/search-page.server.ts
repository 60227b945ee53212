import { countCompaniesByJurisdiction } from '../../core/companies/count-companies.ts';
import { findCompanies } from '../../core/companies/find-companies.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { type FilterParam, printParams } from '../../core/filters/grammar.ts';
import {
  type Industry,
  industryPath,
  type Lang,
  type Reference,
  type RefItem,
} from '../../core/reference/reference-data.ts';
import {
  defaultSort,
  parseSearchState,
  printSearchState,
  type SearchState,
  sortKeys,
} from '../../core/search/search-state.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import type { FilterDecl } from '../../core/sections/section.ts';
import type { AppServices } from '../services.ts';
import { type Cell, presenter } from './present.server.ts';

export type Option = { value: string; label: string; depth?: number };
export type PanelField =
  | { kind: 'select'; name: string; label: string; value: string; options: Option[] }
  | { kind: 'date-range'; name: string; label: string; from: string; to: string };

export type SearchPage = {
  q: string;
  sort: string;
  sortOptions: Option[];
  columns: { key: string; label: string }[];
  rows: { id: number; cells: Record<string, Cell> }[];
  totalText: string;
  total: number;
  chips: { label: string; removeHref: string }[];
  panel: PanelField[];
  page: number;
  prevHref: string | null;
  nextHref: string | null;
  clearHref: string;
  /** Canonical path of this search (without language prefix). */
  canonicalPath: string;
  title: string;
  description: string;
  /** What each form of the page carries along unchanged, as hidden fields. */
  carry: { search: [string, string][]; sort: [string, string][]; panel: [string, string][] };
};

const BASE = '/companies/search/';

/** Everything the companies search page shows, from its URL. Bad input throws AppError('bad_request'). */
export async function loadSearchPage(
  services: AppServices,
  lang: Lang,
  url: URL,
  splat: string | undefined,
): Promise<SearchPage> {
  const { reference } = services;
  const p = presenter(reference, lang);
  const segments = splat ? splat.split('/').filter(Boolean) : [];
  const parsed = parseSearchState(companiesSection, url.searchParams, segments);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new AppError('bad_request', first.message, { parameter: first.parameter, errors: parsed.errors });
  }
  const state = parsed.state;
  const result = await findCompanies(services.db, reference, state);
  const uriOf = uriResolver(reference);
  const href = (s: SearchState) => p.path(`${BASE}${printSearchState(companiesSection, s, uriOf)}`);

  const declOf = (field: string) => companiesSection.filters.find((f) => f.field === field) as FilterDecl;
  const chips = state.filters.map((f) => ({
    label: chipLabel(declOf(f.field), f, reference, p),
    removeHref: href({ ...state, filters: state.filters.filter((x) => x !== f), page: 1, after: undefined }),
  }));
  const filterSummary = chips.map((c) => c.label).join(', ');
  const totalText = result.totalIsLowerBound
    ? p.t('search.resultsAtLeast', { count: result.total })
    : p.t('search.results', { count: result.total });

  const nextHref = result.next ? href({ ...state, after: result.next, page: state.page + 1 }) : null;
  // Going back from a cursor page starts over at page 1 of the cursor chain when not reachable by offset.
  const prevHref = state.page > 1 ? href({ ...state, after: undefined, page: state.after ? 1 : state.page - 1 }) : null;
  const canonicalState = { ...state, after: undefined, page: state.after ? 1 : state.page };
  const sortOptions = sortKeys(companiesSection, state.q).map((key) => ({ value: key, label: p.t(`sort.${key}`) }));

  return {
    q: state.q,
    sort: state.sort,
    sortOptions,
    columns: companiesSection.columns.map((c) => ({ key: c.key, label: p.t(c.label) })),
    rows: result.rows.map((row) => ({ id: row.id, cells: p.companyCells(row) })),
    total: result.total,
    totalText,
    chips,
    panel: panelFields(state, reference, p, await countCompaniesByJurisdiction(services.db)),
    page: state.page,
    prevHref,
    nextHref,
    clearHref: p.path(BASE),
    canonicalPath: `${BASE}${printSearchState(companiesSection, canonicalState, uriOf)}`,
    title: filterSummary ? p.t('search.titleFiltered', { filters: filterSummary }) : p.t('search.title'),
    description: p.t('search.description', { count: result.total }),
    carry: carriedParams(state),
  };
}

function uriResolver(reference: Reference) {
  return (field: string, value: string) => {
    const decl = companiesSection.filters.find((f) => f.field === field);
    if (decl?.kind !== 'reference') return undefined;
    const list = reference[decl.ref] as { byId: Map<number, { uri: string }> };
    return list.byId.get(Number(value))?.uri;
  };
}

type P = ReturnType<typeof presenter>;

function refItems(decl: Extract<FilterDecl, { kind: 'reference' }>, reference: Reference) {
  return (reference[decl.ref] as { items: { id: number; uri: string }[] }).items;
}

function chipLabel(decl: FilterDecl, f: FilterParam, reference: Reference, p: P): string {
  const label =
    decl.kind === 'typed_date_range' && f.keys[0] === 'registration' ? p.t('filters.registration') : p.t(decl.label);
  if (f.op === 'is_known' || f.op === 'is_unknown')
    return `${label} ${f.keys.join(' ')}: ${f.op === 'is_known' ? '✓' : '∅'}`;
  if (decl.kind === 'reference') {
    const list = reference[decl.ref] as unknown as { byId: Map<number, RefItem>; byUri: Map<string, RefItem> };
    const names = f.values.map(
      (v) => p.name(decl.valueKey === 'id' ? list.byId.get(Number(v)) : list.byUri.get(v)) || v,
    );
    return `${label}: ${names.join(' | ')}`;
  }
  const bound = f.op === 'from' ? `≥ ${f.values[0]}` : f.op === 'to' ? `≤ ${f.values[0]}` : f.values.join(' | ');
  return `${label}${decl.kind === 'typed_date_range' ? '' : ` [${f.keys.join('][')}]`}: ${bound}`;
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

/**
 * The simple filter form (one value per filter); lists and other filters come through the URL.
 * Jurisdictions are offered when some company is registered there.
 */
function panelFields(
  state: SearchState,
  reference: Reference,
  p: P,
  jurisdictionCounts: Map<number, number>,
): PanelField[] {
  const selectedValue = (field: string) => {
    const f = state.filters.find((x) => x.field === field && x.op === 'eq' && x.keys.length === 0);
    return f?.values.length === 1 ? f.values[0] : '';
  };
  const fields: PanelField[] = [];
  for (const decl of companiesSection.filters) {
    if (decl.kind === 'reference') {
      const selected = selectedValue(decl.field);
      let options = cachedOptions(reference, `${p.lang}:${decl.field}`, () => {
        const items = refItems(decl, reference);
        if (decl.ref === 'industries') {
          return reference.industries.items
            .filter((i) => i.level === 1)
            .map((i) => ({ value: String(i.id), label: p.name(i), depth: 0 }));
        }
        const all = items.map((i) => ({
          value: decl.valueKey === 'id' ? String(i.id) : i.uri,
          label: p.name(i as never),
        }));
        return decl.ref === 'locations' ? all.sort((a, b) => a.label.localeCompare(b.label, p.lang)) : all;
      });
      if (decl.ref === 'locations') {
        options = options.filter((o) => jurisdictionCounts.has(Number(o.value)) || o.value === selected);
      }
      const chosen = decl.ref === 'industries' ? reference.industries.byId.get(Number(selected)) : undefined;
      if (chosen) {
        // Drill-down: the chosen industry under its sector, with its ancestors and its children.
        const path = industryPath(reference, chosen.id);
        const option = (i: Industry) => ({ value: String(i.id), label: p.name(i), depth: i.level - 1 });
        const below = [
          ...path.slice(1).map(option),
          ...chosen.children.map((id) => option(reference.industries.byId.get(id)!)),
        ];
        const at = options.findIndex((o) => o.value === String(path[0].id)) + 1;
        options = [...options.slice(0, at), ...below, ...options.slice(at)];
      }
      fields.push({ kind: 'select', name: decl.field, label: p.t(decl.label), value: selected, options });
    } else if (decl.kind === 'typed_date_range' && decl.direct?.registration) {
      const bound = (op: 'from' | 'to') =>
        state.filters.find((f) => f.field === decl.field && f.keys[0] === 'registration' && f.op === op)?.values[0] ??
        '';
      fields.push({
        kind: 'date-range',
        name: `${decl.field}[registration]`,
        label: p.t('filters.registration'),
        from: bound('from'),
        to: bound('to'),
      });
    }
  }
  return fields;
}

/**
 * The search box changes the query and keeps every filter; the sort form changes the sort; the
 * filter panel changes the filters it shows and keeps the query, the sort and the others.
 */
function carriedParams(state: SearchState): SearchPage['carry'] {
  const inPanel = (f: FilterParam) =>
    (f.keys.length === 0 && f.op === 'eq' && f.values.length === 1) ||
    (f.field === 'dates' && f.keys[0] === 'registration' && (f.op === 'from' || f.op === 'to'));
  const filters = printParams(state.filters);
  const q: [string, string][] = state.q ? [['q', state.q]] : [];
  const sort: [string, string][] = state.sort === defaultSort(companiesSection, state.q) ? [] : [['sort', state.sort]];
  return {
    search: filters,
    sort: [...q, ...filters],
    panel: [...q, ...sort, ...printParams(state.filters.filter((f) => !inPanel(f)))],
  };
}
