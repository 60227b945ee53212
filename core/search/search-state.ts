import {
  DATE_FORMS,
  type FilterParam,
  type GrammarError,
  isGrammarError,
  type PathValueOf,
  paramKey,
  parseDateValue,
  parseFilterPath,
  parseParam,
  printFilterPath,
  printParams,
  toQueryString,
} from '../filters/grammar.ts';
import type { Reference, RefItem } from '../reference/reference-data.ts';
import { enumValue } from '../sections/record-fields.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';
import type { FilterTree } from './filter-tree.ts';

/** Everything a search URL says: query, filters, sort and position. */
export type SearchState = {
  q: string;
  filters: FilterParam[];
  /** Nested any/all/not filters of POST …/search, ANDed with `filters` (core/search/filter-tree.ts). */
  tree?: FilterTree;
  /** A declared sort key, or 'relevance' (only with a query). */
  sort: string;
  page: number;
  /** Keyset cursor of the row before this page (opaque). */
  after?: string;
};

/** Pages reached by number (offset) stop here; deeper ones are reached by following cursors. */
export const MAX_PAGE = 500;
/** With a cursor the page number only labels the page. */
export const MAX_CURSOR_PAGE = 1_000_000;
export const MAX_QUERY_LENGTH = 200;
/** Parameters that are not filters and are never an error (campaign tags are kept elsewhere). */
const IGNORED = /^(utm_[a-z]+|style)$/;

export type ParseResult = { ok: true; state: SearchState } | { ok: false; errors: GrammarError[] };

export function defaultSort(section: SectionDecl, q: string): string {
  return q ? 'relevance' : section.defaultSort;
}

/** Parses and validates a section's search URL (query string plus optional `/f/…` path segments). */
export function parseSearchState(
  section: SectionDecl,
  query: URLSearchParams,
  pathSegments: string[] = [],
): ParseResult {
  const errors: GrammarError[] = [];
  let filters: FilterParam[] = [];
  if (pathSegments.length > 0) {
    const fromPath = parseFilterPath(pathSegments, section.pathFilters);
    if (!fromPath) errors.push({ parameter: pathSegments.join('/'), message: 'unknown filter path' });
    else filters = fromPath;
  }
  let q = '';
  let sort = '';
  let page = 1;
  let after: string | undefined;
  const seen = new Set(filters.map(paramKey));
  for (const [name, value] of query) {
    if (name === 'q' && section.record) {
      errors.push({ parameter: 'q', message: `q: ${section.id} has no name search; use the filters` });
    } else if (name === 'q') {
      q = value.trim();
      if (q.length > MAX_QUERY_LENGTH) errors.push({ parameter: 'q', message: `q is longer than ${MAX_QUERY_LENGTH}` });
      else if (CONTROL.test(q)) errors.push({ parameter: 'q', message: 'q has a control character' });
    } else if (name === 'sort') {
      sort = value;
    } else if (name === 'page') {
      page = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
    } else if (name === 'after') {
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(value))
        errors.push({ parameter: 'after', message: 'after is not a valid cursor' });
      after = value;
    } else if (!IGNORED.test(name)) {
      const parsed = parseFilterPair(section, name, value);
      if (parsed === null) continue;
      if (isGrammarError(parsed)) {
        errors.push(parsed);
        continue;
      }
      const earlier = seen.has(paramKey(parsed)) ? filters.find((f) => paramKey(f) === paramKey(parsed)) : undefined;
      if (earlier && parsed.op === 'eq') {
        // A repeated list parameter (a multiple select, a second value added) is one more value: OR.
        earlier.values = [...new Set([...earlier.values, ...parsed.values])];
      } else if (earlier) errors.push({ parameter: name, message: `${name} is given twice` });
      else {
        seen.add(paramKey(parsed));
        filters.push(parsed);
      }
    }
  }
  const maxPage = after === undefined ? MAX_PAGE : MAX_CURSOR_PAGE;
  if (!(page >= 1 && page <= maxPage)) {
    errors.push({
      parameter: 'page',
      message: `page must be a whole number from 1 to ${maxPage}${after === undefined ? ' (deeper pages follow the next link)' : ''}`,
    });
  }
  if (sort === '') sort = defaultSort(section, q);
  else if (!(sort === 'relevance' && q) && !section.sorts.some((s) => s.key === sort)) {
    errors.push({ parameter: 'sort', message: `sort must be one of ${sortKeys(section, q).join(', ')}` });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, state: { q, filters, sort, page, after } };
}

/**
 * One filter parameter of a section (`name=value` of its search URL), parsed and checked against
 * the section's declarations: the filter, a GrammarError naming it, or null for an empty value of
 * a plain form (no filter). The URL's parameters and the nested filters of POST …/search
 * (core/search/filter-tree.ts) both go through here.
 */
export function parseFilterPair(section: SectionDecl, name: string, value: string): FilterParam | GrammarError | null {
  const decl = section.filters.find(
    (f) => name === f.field || name.startsWith(`${f.field}[`) || name.startsWith(`${f.field}:`),
  );
  // An empty field of a plain form means "no filter"; availability is the one empty-valued form.
  if (value === '' && decl && !/:is_(known|unknown)$/.test(name)) return null;
  const parsed = parseParam(name, value, decl?.kind === 'reference' || decl?.kind === 'enum' || decl?.kind === 'ids');
  if (!parsed || !decl) return { parameter: name, message: `unknown parameter ${name}` };
  if (isGrammarError(parsed)) return parsed;
  const problem = checkParam(decl, parsed);
  return problem ? { parameter: name, message: problem } : parsed;
}

export function sortKeys(section: SectionDecl, q: string): string[] {
  return [...(q ? ['relevance'] : []), ...section.sorts.map((s) => s.key)];
}

/** The longest value a text filter takes. */
export const MAX_VALUE_LENGTH = 200;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

const NUMBER_SHAPES = {
  amount: /^-?\d{1,15}(\.\d{1,2})?$/,
  number: /^-?\d{1,9}$/,
  year: /^\d{4}$/,
};

/** Checks one parsed parameter against its declaration; returns a message when it does not fit. */
function checkParam(decl: FilterDecl, p: FilterParam): string | null {
  const name = `${p.field}${p.keys.map((k) => `[${k}]`).join('')}`;
  const availability = p.op === 'is_known' || p.op === 'is_unknown';
  const range = p.op === 'from' || p.op === 'to';
  const long = p.values.find((v) => v.length > MAX_VALUE_LENGTH);
  if (long !== undefined) return `${name} has a value longer than ${MAX_VALUE_LENGTH} characters`;
  if (p.values.some((v) => CONTROL.test(v))) return `${name} has a control character in its value`;
  const keyCount = (n: number, example: string) =>
    p.keys.length === n ? null : n === 0 ? `${p.field} takes no [type]` : `${p.field} needs ${example}`;
  switch (decl.kind) {
    case 'reference': {
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (range) return `${p.field} is not a range`;
      const shape = decl.valueKey === 'id' ? /^\d{1,9}$/ : /^[a-z0-9_-]{1,80}$/;
      const bad = p.values.find((v) => !shape.test(v));
      if (bad !== undefined) return `${p.field} has an invalid value "${bad}"`;
      return null;
    }
    case 'typed_date_range': {
      if (p.keys.length !== 1) return `${p.field} needs a date type, e.g. ${p.field}[registration]:from`;
      if (availability) return null;
      if (p.op === 'eq') return `${name} needs :from or :to`;
      if (!parseDateValue(p.values[0])) return `${name}:${p.op} must be ${DATE_FORMS}`;
      return null;
    }
    case 'typed_text': {
      if (p.keys.length !== 1) return `${p.field} needs a type, e.g. ${p.field}[vat]`;
      if (range) return `${name} is not a range`;
      return null;
    }
    case 'typed_availability': {
      if (p.keys.length !== 1) return `${p.field} needs a type, e.g. ${p.field}[website]:is_known`;
      if (!availability) return `${name} takes :is_known or :is_unknown`;
      return null;
    }
    case 'typed_parts': {
      const problem = keyCount(2, `a type and a part, e.g. ${p.field}[registered][locality]`);
      if (problem) return problem;
      if (!decl.parts.includes(p.keys[1]))
        return `${name}: unknown part "${p.keys[1]}"; parts are ${decl.parts.join(', ')}`;
      if (range) return `${name} is not a range`;
      return null;
    }
    case 'typed_boolean': {
      const problem = keyCount(1, `a type, e.g. ${p.field}[bankrupt]`);
      if (problem) return problem;
      if (range) return `${name} is not a range`;
      const bad = p.values.find((v) => v !== 'true' && v !== 'false');
      if (bad !== undefined) return `${name} must be true or false`;
      return null;
    }
    case 'text':
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (range) return `${p.field} is not a range`;
      return null;
    case 'range': {
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (availability) return null;
      if (p.op === 'eq') return `${p.field} needs :from or :to`;
      const value = p.values[0];
      if (decl.valueType === 'date') {
        return parseDateValue(value) ? null : `${p.field}:${p.op} must be ${DATE_FORMS}`;
      }
      return NUMBER_SHAPES[decl.valueType].test(value)
        ? null
        : `${p.field}:${p.op} must be ${decl.valueType === 'year' ? 'a year (yyyy)' : decl.valueType === 'amount' ? 'an amount such as 1000 or 99.50' : 'a whole number'}`;
    }
    case 'enum': {
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (range) return `${p.field} is not a range`;
      const bad = p.values.find((v) => !enumValue(decl.values, v));
      if (bad !== undefined)
        return `${p.field} has an unknown value "${bad}"; values are ${decl.values.map((e) => e.uri).join(', ')}`;
      return null;
    }
    case 'ids': {
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (p.op !== 'eq') return `${p.field} takes a list of ids`;
      const bad = p.values.find((v) => !/^\d{1,15}$/.test(v));
      if (bad !== undefined) return `${p.field} has an invalid id "${bad}"`;
      return null;
    }
    case 'column_choice': {
      if (p.keys.length > 0) return `${p.field} takes no [type]`;
      if (p.op !== 'eq') return `${p.field} takes a list of values`;
      const bad = p.values.find((v) => !Object.hasOwn(decl.columns, v));
      if (bad !== undefined)
        return `${p.field} has an unknown value "${bad}"; values are ${Object.keys(decl.columns).join(', ')}`;
      return null;
    }
  }
}

/**
 * The URL (path relative to /{section}/search/, plus query) of a state. Single-valued path
 * filters without other parameters give the readable path form.
 */
export function printSearchState(
  section: SectionDecl,
  state: SearchState,
  pathValue: PathValueOf = () => undefined,
): string {
  const pairs: [string, string][] = [];
  if (state.q) pairs.push(['q', state.q]);
  const path = state.q ? null : printFilterPath(state.filters, section.pathFilters, pathValue);
  if (!path) pairs.push(...printParams(state.filters));
  if (state.sort !== defaultSort(section, state.q)) pairs.push(['sort', state.sort]);
  if (state.after) pairs.push(['after', state.after]);
  if (state.page > 1) pairs.push(['page', String(state.page)]);
  return `${path ?? ''}${toQueryString(pairs)}`;
}

/**
 * The uri and id of a section's reference or enumerated filter value, given as either: what a
 * readable 'uri-id' path prints (printSearchState).
 */
export function pathValues(section: SectionDecl, reference: Reference): PathValueOf {
  return (field, value) => {
    const decl = section.filters.find((f) => f.field === field);
    if (decl?.kind === 'enum') {
      const known = enumValue(decl.values, value);
      return known && { uri: known.uri, id: known.id };
    }
    if (decl?.kind !== 'reference') return undefined;
    const list = reference[decl.ref] as unknown as { byId: Map<number, RefItem>; byUri: Map<string, RefItem> };
    const known = decl.valueKey === 'id' ? list.byId.get(Number(value)) : list.byUri.get(value);
    return known && { uri: known.uri, id: known.id };
  };
}
