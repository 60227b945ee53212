import { countCompaniesByJurisdiction } from '../../core/companies/count-companies.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { type FilterParam, paramName, printParams } from '../../core/filters/grammar.ts';
import type { Lang, Reference, RefItem, RefList } from '../../core/reference/reference-data.ts';
import { defaultSort, parseSearchState, printSearchState } from '../../core/search/search-state.ts';
import { enumValue } from '../../core/sections/record-fields.ts';
import type { FilterDecl, SectionDecl } from '../../core/sections/section.ts';
import { staleReads } from '../../core/services.ts';
import type { AppServices } from '../services.ts';
import { presenter } from './present.server.ts';
import { chipLabel, type Option } from './search-page.server.ts';

// The advanced search (ADR 0022): one GET form to the results, its fields labelled and grouped by
// topic, derived from the section's declared filters; values are ticked from the declared lists and
// the reference data, never typed as parameter names.

/** One control of the form; `name` is the query parameter it sends (the filter grammar's). */
export type AdvancedField =
  | { kind: 'choices'; name: string; label: string; options: Option[]; values: string[] }
  | { kind: 'text'; name: string; label: string; value: string }
  | { kind: 'range'; name: string; label: string; from: string; to: string; valueType: 'date' | 'number' }
  /** A yes/no value (indicators): any, yes or no. */
  | { kind: 'yesno'; name: string; label: string; value: string }
  /** Whether a value is on record (`name:is_known=` / `name:is_unknown=`, empty-valued boxes). */
  | { kind: 'known'; name: string; label: string; known: boolean; unknown: boolean };

export type AdvancedTopic = {
  id: Topic;
  label: string;
  fields: AdvancedField[];
  /** Typed fields by type (an address type's parts), shown folded unless one holds a value. */
  subgroups: { label: string; fields: AdvancedField[]; open: boolean }[];
};

export type AdvancedSearchPage = {
  section: string;
  title: string;
  chips: { label: string; name: string; removeHref: string }[];
  topics: AdvancedTopic[];
  /** Parameters of the search that no field shows (kept as they are). */
  carry: [string, string][];
  resultsHref: string;
  /** The form's target: the section's results. */
  action: string;
  clearHref: string;
  canonicalPath: string;
};

const TOPICS = [
  'record',
  'identity',
  'location',
  'industry',
  'status',
  'size',
  'financials',
  'dates',
  'contacts',
] as const;
type Topic = (typeof TOPICS)[number];

/** The topic a declared filter belongs to. */
function topicOf(decl: FilterDecl): Topic {
  switch (decl.group) {
    case 'dates':
      return 'dates';
    case 'identifiers':
    case 'names':
      return 'identity';
    case 'contacts':
      return 'contacts';
    case 'indicators':
      return 'status';
    case 'addresses':
      return 'location';
    case 'record':
    case 'company':
      if (decl.kind === 'range')
        return decl.valueType === 'date' || decl.valueType === 'year'
          ? 'dates'
          : decl.group === 'record'
            ? 'financials'
            : 'size';
      if (decl.kind === 'reference' && decl.ref === 'currencies') return 'financials';
      if (decl.group === 'record') return 'record';
      if (decl.kind !== 'reference') return 'identity';
      return decl.ref === 'locations'
        ? 'location'
        : decl.ref === 'industries'
          ? 'industry'
          : decl.ref === 'statuses'
            ? 'status'
            : decl.ref === 'sizes' || decl.ref === 'employees'
              ? 'size'
              : 'identity';
  }
}

/** The advanced search of a section, filled with the search of its URL. */
export async function loadAdvancedSearch(
  services: AppServices,
  lang: Lang,
  url: URL,
  section: SectionDecl,
): Promise<AdvancedSearchPage> {
  const { reference } = services;
  const p = presenter(reference, lang);
  const parsed = parseSearchState(section, url.searchParams);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new AppError('bad_request', first.message, { parameter: first.parameter, errors: parsed.errors });
  }
  const state = { ...parsed.state, page: 1, after: undefined };
  const jurisdictions = await countCompaniesByJurisdiction(staleReads(services));
  const base = `/${section.id}/search/advanced/`;
  const sort: [string, string][] = state.sort === defaultSort(section, state.q) ? [] : [['sort', state.sort]];
  const all: [string, string][] = [
    ...(state.q ? [['q', state.q] as [string, string]] : []),
    ...printParams(state.filters),
    ...sort,
  ];
  const withParams = (pairs: [string, string][]) =>
    `${base}${pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''}`;

  const param = (field: string, keys: string[], op: FilterParam['op']) =>
    state.filters.find((f) => f.field === field && f.op === op && f.keys.join() === keys.join());
  const shown = new Set<string>();
  const show = <F extends AdvancedField>(field: F): F => {
    if (field.kind === 'range') shown.add(`${field.name}:from`).add(`${field.name}:to`);
    else if (field.kind === 'known') shown.add(`${field.name}:is_known`).add(`${field.name}:is_unknown`);
    else shown.add(field.name);
    return field;
  };
  const text = (field: string, keys: string[], label: string) =>
    show({
      kind: 'text',
      name: paramName({ field, keys, op: 'eq' }),
      label,
      value: param(field, keys, 'eq')?.values.join('|') ?? '',
    });
  const range = (field: string, keys: string[], label: string, valueType: 'date' | 'number') =>
    show({
      kind: 'range',
      name: paramName({ field, keys, op: 'eq' }),
      label,
      from: param(field, keys, 'from')?.values[0] ?? '',
      to: param(field, keys, 'to')?.values[0] ?? '',
      valueType,
    });
  const known = (field: string, keys: string[], label: string) =>
    show({
      kind: 'known',
      name: paramName({ field, keys, op: 'eq' }),
      label,
      known: !!param(field, keys, 'is_known'),
      unknown: !!param(field, keys, 'is_unknown'),
    });

  const topics = new Map<Topic, AdvancedTopic>();
  const topic = (id: Topic) => {
    let found = topics.get(id);
    if (!found) {
      found = {
        id,
        label: id === 'record' ? p.label(section.title) : p.t(`advanced.topic.${id}`),
        fields: [],
        subgroups: [],
      };
      topics.set(id, found);
    }
    return found;
  };
  if (!section.record) topic('identity').fields.push({ ...text('q', [], p.t('search.query')), value: state.q });

  for (const decl of section.filters) {
    const label = p.label(decl.label);
    const into = topic(topicOf(decl));
    const types = 'types' in decl ? (reference[decl.types] as RefList).items : [];
    const typeName = (item: RefItem) => p.name(item) || item.uri;
    switch (decl.kind) {
      case 'reference':
      case 'enum':
      case 'column_choice': {
        const values = param(decl.field, [], 'eq')?.values ?? [];
        const options = choiceOptions(decl, reference, p, jurisdictions);
        // A value given by id (a readable path) is ticked as the uri the list offers.
        const ticked = values.map((v) => (decl.kind === 'enum' ? (enumValue(decl.values, v)?.uri ?? v) : v));
        const missing = ticked.filter((v) => !options.some((o) => o.value === v));
        into.fields.push(
          show({
            kind: 'choices',
            name: decl.field,
            label,
            options: [...options, ...missing.map((value) => ({ value, label: value }))],
            values: ticked,
          }),
        );
        break;
      }
      case 'text':
        into.fields.push(text(decl.field, [], label));
        break;
      case 'range':
        into.fields.push(range(decl.field, [], label, decl.valueType === 'date' ? 'date' : 'number'));
        break;
      case 'typed_date_range':
        for (const t of types) into.fields.push(range(decl.field, [t.uri], typeName(t), 'date'));
        break;
      case 'typed_text':
        for (const t of types) into.fields.push(text(decl.field, [t.uri], typeName(t)));
        break;
      case 'typed_availability':
        for (const t of types) into.fields.push(known(decl.field, [t.uri], typeName(t)));
        break;
      case 'typed_boolean':
        for (const t of types) {
          into.fields.push(
            show({
              kind: 'yesno',
              name: paramName({ field: decl.field, keys: [t.uri], op: 'eq' }),
              label: typeName(t),
              value: param(decl.field, [t.uri], 'eq')?.values.join('|') ?? '',
            }),
          );
        }
        break;
      case 'typed_parts':
        for (const t of types) {
          const fields = decl.parts.map((part) => text(decl.field, [t.uri, part], p.t(`advanced.part.${part}`)));
          into.subgroups.push({
            label: `${label}: ${typeName(t)}`,
            fields,
            open: fields.some((f) => f.kind === 'text' && f.value !== ''),
          });
        }
        break;
      case 'ids':
        // Row ids come from links (a company's records), not from a form.
        break;
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
  return {
    section: section.id,
    title: p.t('advanced.title', { section: p.label(section.title) }),
    chips,
    topics: TOPICS.flatMap((id) => topics.get(id) ?? []).filter((t) => t.fields.length + t.subgroups.length > 0),
    carry: all.filter(([name]) => !shown.has(name)),
    resultsHref: p.path(`/${section.id}/search/${printSearchState(section, state)}`),
    action: p.path(`/${section.id}/search/`),
    clearHref: p.path(base),
    canonicalPath: base,
  };
}

const optionCache = new WeakMap<Reference, Map<string, Option[]>>();

/**
 * Values a list offers: industries down to their second level, company jurisdictions where
 * companies are registered, other places by country.
 */
function choiceOptions(
  decl: Extract<FilterDecl, { kind: 'reference' | 'enum' | 'column_choice' }>,
  reference: Reference,
  p: ReturnType<typeof presenter>,
  jurisdictions: Map<number, number>,
): Option[] {
  if (decl.kind === 'enum') return decl.values.map((v) => ({ value: v.uri, label: p.label(v.label) }));
  if (decl.kind === 'column_choice') {
    return Object.keys(decl.columns).map((uri) => ({
      value: uri,
      label: p.name(reference.contactTypes.byUri.get(uri)) || uri,
    }));
  }
  const companyPlaces = decl.ref === 'locations' && decl.column.includes('jurisdiction');
  let byKey = optionCache.get(reference);
  if (!byKey) {
    byKey = new Map();
    optionCache.set(reference, byKey);
  }
  const key = `${p.lang}:${decl.ref}:${decl.valueKey}:${companyPlaces}`;
  let out = byKey.get(key);
  if (!out) {
    const value = (item: { id: number; uri: string }) => (decl.valueKey === 'id' ? String(item.id) : item.uri);
    if (decl.ref === 'industries') {
      // Each sector, then its divisions.
      out = reference.industries.items
        .filter((i) => i.level === 1)
        .flatMap((sector) => [
          { value: value(sector), label: p.name(sector), depth: 0 },
          ...sector.children.flatMap((id) => {
            const division = reference.industries.byId.get(id);
            return division ? [{ value: value(division), label: p.name(division), depth: 1 }] : [];
          }),
        ]);
    } else if (decl.ref === 'locations') {
      out = reference.locations.items
        .filter((l) => companyPlaces || l.location_type_id === 1)
        .map((l) => ({ value: value(l), label: p.name(l) }))
        .sort((a, b) => a.label.localeCompare(b.label, p.lang));
    } else {
      out = (reference[decl.ref] as RefList).items.map((i) => ({
        value: value(i),
        label: decl.ref === 'currencies' ? i.uri.toUpperCase() : p.name(i),
      }));
      if (decl.ref === 'currencies') out.sort((a, b) => a.label.localeCompare(b.label));
    }
    byKey.set(key, out);
  }
  return companyPlaces ? out.filter((o) => jurisdictions.has(Number(o.value))) : out;
}
