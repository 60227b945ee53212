import { AppError } from '../../core/errors/app-error.ts';
import { paramName, printParams } from '../../core/filters/grammar.ts';
import type { Lang, Reference, RefList } from '../../core/reference/reference-data.ts';
import { filterParameters, type ParameterControl } from '../../core/search/parameters.ts';
import { parseSearchState, printSearchState } from '../../core/search/search-state.ts';
import type { FilterDecl, SectionDecl } from '../../core/sections/section.ts';
import type { AppServices } from '../services.ts';
import { presenter } from './present.server.ts';
import { chipLabel, type Option } from './search-page.server.ts';

export type AdvancedParam = {
  name: string;
  label: string;
  control: ParameterControl;
  /** The current value (values joined by |), '' when the parameter is not in the search. */
  value: string;
  active: boolean;
  options?: Option[];
  /** What this parameter's form carries: the rest of the search (selects also keep their own values). */
  carry: [string, string][];
};

export type AdvancedGroup = { id: string; label: string; params: AdvancedParam[] };

export type AdvancedSearchPage = {
  section: string;
  title: string;
  find: string;
  chips: { label: string; name: string; removeHref: string }[];
  /** The search's parameters, carried by the find form. */
  current: [string, string][];
  groups: AdvancedGroup[];
  parameterCount: number;
  resultsHref: string;
  action: string;
  canonicalPath: string;
};

/** Parameters that belong to the page, not to the search. */
const PAGE_PARAMS = new Set(['find']);

/** The advanced search of a section: every parameter it accepts, grouped, with the search's current values. */
export function loadAdvancedSearch(
  services: AppServices,
  lang: Lang,
  url: URL,
  section: SectionDecl,
): AdvancedSearchPage {
  const { reference } = services;
  const p = presenter(reference, lang);
  const query = new URLSearchParams([...url.searchParams].filter(([k]) => !PAGE_PARAMS.has(k)));
  const parsed = parseSearchState(section, query);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new AppError('bad_request', first.message, { parameter: first.parameter, errors: parsed.errors });
  }
  const state = { ...parsed.state, page: 1, after: undefined };
  const current = new Map(printParams(state.filters));
  const base = `/${section.id}/search/advanced/`;
  const withParams = (pairs: [string, string][]) =>
    `${base}${pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''}`;
  const all = [...(state.q ? [['q', state.q] as [string, string]] : []), ...current];

  const groups = new Map<string, AdvancedGroup>();
  let parameterCount = 0;
  for (const decl of section.filters) {
    const filterLabel = p.label(decl.label);
    for (const param of filterParameters(decl, reference)) {
      parameterCount++;
      const typeLabel = param.typeUri ? typeName(decl, param.typeUri, reference, p.name) : '';
      const part = param.keys.length > 1 ? param.keys[1].replaceAll('_', ' ') : '';
      const op = param.op === 'eq' ? '' : p.t(`advanced.op.${param.op}`);
      const label = [filterLabel, typeLabel, part].filter(Boolean).join(' › ') + (op ? ` (${op})` : '');
      const value = current.get(param.name) ?? '';
      const group = groups.get(decl.group) ?? {
        id: decl.group,
        label: p.t(`advanced.group.${decl.group}`),
        params: [],
      };
      groups.set(decl.group, group);
      group.params.push({
        name: param.name,
        label,
        control: param.control,
        value,
        active: current.has(param.name),
        options: param.control === 'select' ? options(decl, reference, p) : undefined,
        // A select adds one more value to an active list (OR); other inputs replace the value.
        carry: param.control === 'select' ? all : all.filter(([k]) => k !== param.name),
      });
    }
  }
  const chips = state.filters.map((f) => {
    const name = paramName(f);
    const decl = section.filters.find((d) => d.field === f.field) as FilterDecl;
    return {
      name,
      label: chipLabel(decl, f, reference, p),
      removeHref: p.path(withParams(all.filter(([k]) => k !== name))),
    };
  });
  const find = url.searchParams.get('find')?.slice(0, 100) ?? '';
  return {
    section: section.id,
    title: p.t('advanced.title', { section: p.label(section.title) }),
    find,
    chips,
    current: all,
    groups: [...groups.values()],
    parameterCount,
    resultsHref: p.path(`/${section.id}/search/${printSearchState(section, state)}`),
    action: p.path(base),
    canonicalPath: base,
  };
}

function typeName(decl: FilterDecl, uri: string, reference: Reference, name: (item: never) => string): string {
  if (!('types' in decl)) return uri;
  const item = (reference[decl.types] as RefList).byUri.get(uri);
  return item ? name(item as never) || uri : uri;
}

const optionCache = new WeakMap<Reference, Map<string, Option[]>>();

/** Values a select parameter offers (industries down to their second level; states under countries). */
function options(decl: FilterDecl, reference: Reference, p: ReturnType<typeof presenter>): Option[] {
  let byKey = optionCache.get(reference);
  if (!byKey) {
    byKey = new Map();
    optionCache.set(reference, byKey);
  }
  const key = `${p.lang}:${decl.kind}:${decl.field}`;
  const cached = byKey.get(key);
  if (cached) return cached;
  let out: Option[] = [];
  if (decl.kind === 'enum') out = decl.values.map((v) => ({ value: v.uri, label: p.label(v.label) }));
  else if (decl.kind === 'column_choice') {
    out = Object.keys(decl.columns).map((uri) => ({
      value: uri,
      label: p.name(reference.contactTypes.byUri.get(uri)) || uri,
    }));
  } else if (decl.kind === 'reference') {
    const value = (item: { id: number; uri: string }) => (decl.valueKey === 'id' ? String(item.id) : item.uri);
    if (decl.ref === 'industries') {
      out = reference.industries.items
        .filter((i) => i.level <= 2)
        .map((i) => ({ value: value(i), label: p.name(i), depth: i.level - 1 }));
    } else if (decl.ref === 'locations') {
      const countries = reference.locations.items
        .filter((l) => l.location_type_id === 1)
        .sort((a, b) => p.name(a).localeCompare(p.name(b), p.lang));
      for (const c of countries) {
        out.push({ value: value(c), label: p.name(c), depth: 0 });
        for (const s of reference.locations.items.filter((l) => l.parent_id === c.id)) {
          out.push({ value: value(s), label: p.name(s), depth: 1 });
        }
      }
    } else {
      out = (reference[decl.ref] as RefList).items.map((i) => ({
        value: value(i),
        label: decl.ref === 'currencies' ? i.uri.toUpperCase() : p.name(i),
      }));
    }
  }
  byKey.set(key, out);
  return out;
}
