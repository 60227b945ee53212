// The filter grammar (spec §5, §7 "Filter URL encoding"): one pure module for browser and server.
//   field=v1|v2                       a list (OR between values)
//   field[type]=v                     a typed sub-filter, e.g. identifiers[vat]=DE123
//   field[type][part]=v               e.g. addresses[registered][locality]=Berlin
//   field:from=2020&field:to=2021-06  a range (dates year-only or full date, numbers)
//   field:is_known=  field:is_unknown=  availability, with an empty value
// print(parse(x)) === x for canonical input (values joined by '|'); ',' is accepted as a separator
// for lists of ids and printed back as '|'.

export type FilterOp = 'eq' | 'from' | 'to' | 'is_known' | 'is_unknown';

export type FilterParam = {
  field: string;
  keys: string[];
  op: FilterOp;
  values: string[];
};

export type GrammarError = { parameter: string; message: string };

const KEY = /^([a-z][a-z0-9_]*)((?:\[[a-z0-9_-]+\])*)(?::(from|to|is_known|is_unknown))?$/;
const SUBKEY = /\[([a-z0-9_-]+)\]/g;

/** The query-string name of a filter parameter. */
export function paramName(p: Pick<FilterParam, 'field' | 'keys' | 'op'>): string {
  const keys = p.keys.map((k) => `[${k}]`).join('');
  return p.op === 'eq' ? `${p.field}${keys}` : `${p.field}${keys}:${p.op}`;
}

/** Identity of a parameter apart from its values (one param per identity). */
export function paramKey(p: Pick<FilterParam, 'field' | 'keys' | 'op'>): string {
  return paramName(p);
}

/**
 * Parses one query parameter. Returns null when the name is not in filter shape (the caller
 * decides whether such a parameter is allowed); an error when the value is malformed.
 */
export function parseParam(name: string, raw: string, splitComma: boolean): FilterParam | GrammarError | null {
  const match = KEY.exec(name);
  if (!match) return null;
  const [, field, keyPart, opPart] = match;
  const keys = [...(keyPart ?? '').matchAll(SUBKEY)].map((m) => m[1]);
  const op = (opPart ?? 'eq') as FilterOp;
  if (op === 'is_known' || op === 'is_unknown') {
    if (raw !== '') return { parameter: name, message: `${name} takes an empty value` };
    return { field, keys, op, values: [] };
  }
  const separator = splitComma ? /[|,]/ : /\|/;
  const values = raw.split(separator).map((v) => v.trim());
  if (values.some((v) => v === '')) return { parameter: name, message: `${name} has an empty value` };
  if ((op === 'from' || op === 'to') && values.length > 1) {
    return { parameter: name, message: `${name} takes a single value` };
  }
  return { field, keys, op, values };
}

export function isGrammarError(x: FilterParam | GrammarError | null): x is GrammarError {
  return x !== null && 'message' in x;
}

/** Prints parameters back as query-string pairs, in the order given. */
export function printParams(params: FilterParam[]): [string, string][] {
  return params.map((p) => [paramName(p), p.values.join('|')]);
}

/**
 * A query string as a valid URL: colons stay readable; brackets and pipes, which a URL's query may
 * not hold as they are (the HTML checker rejects such links), are percent-encoded as a browser's
 * form encodes them. Parsing reads both forms (URLSearchParams decodes), so `readableQuery` of the
 * printed string is the grammar's notation.
 */
export function toQueryString(pairs: [string, string][]): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%3A/g, ':')}=${encodeURIComponent(v)}`).join('&')}`;
}

/** A printed query in the grammar's notation (`field[type]:from`, values joined by `|`), for reading. */
export function readableQuery(query: string): string {
  return query.replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%7C/g, '|');
}

// ---- dates: year-only or full date (spec §5) ----

export type DateBound = { value: string; precision: 'year' | 'month' | 'day' };

/**
 * Years a date filter takes. PostgreSQL has no year 0 (a bound of 0000 fails the query), and a
 * registry's oldest dates are medieval: a year before 1000 is a typo, not a search. Four digits
 * keep the URL form and the SQL literal one shape.
 */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** How a bad date parameter is described: `${name} must be ${DATE_FORMS}`. */
export const DATE_FORMS = `a date as yyyy, yyyy-MM or yyyy-MM-dd (years ${MIN_YEAR} to ${MAX_YEAR})`;

/** Accepts yyyy, yyyy-MM or yyyy-MM-dd (a real calendar date) with a year from MIN_YEAR to MAX_YEAR. */
export function parseDateValue(value: string): DateBound | null {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return null;
  const [, y, mo, d] = m;
  if (Number(y) < MIN_YEAR || Number(y) > MAX_YEAR) return null;
  if (mo !== undefined && (Number(mo) < 1 || Number(mo) > 12)) return null;
  if (d !== undefined) {
    const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    if (date.getUTCDate() !== Number(d)) return null;
    return { value, precision: 'day' };
  }
  return { value, precision: mo === undefined ? 'year' : 'month' };
}

/** The first or last calendar day a bound covers: 2020 as a "to" bound means 2020-12-31. */
export function dateBoundDay(bound: DateBound, side: 'from' | 'to'): string {
  const [y, m] = bound.value.split('-').map(Number);
  if (bound.precision === 'day') return bound.value;
  if (bound.precision === 'year') return side === 'from' ? `${y}-01-01` : `${y}-12-31`;
  if (side === 'from') return `${bound.value}-01`;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${bound.value}-${String(last).padStart(2, '0')}`;
}

// ---- readable filter paths: /companies/search/f/jurisdiction-germany-276/ ----

export type PathFilter = {
  /** Path prefix, e.g. 'jurisdiction'. */
  prefix: string;
  /** The filter parameter it sets. */
  field: string;
  /** 'uri-id': `{prefix}-{uri}-{id}` sets the id; 'uri': `{prefix}-{uri}` sets the uri. */
  form: 'uri-id' | 'uri';
};

/** Parses path segments after `/f/` into filter params; null when a segment is not a known filter. */
export function parseFilterPath(segments: string[], pathFilters: PathFilter[]): FilterParam[] | null {
  const params: FilterParam[] = [];
  for (const segment of segments) {
    const pf = pathFilters.find((f) => segment.startsWith(`${f.prefix}-`));
    if (!pf) return null;
    const rest = segment.slice(pf.prefix.length + 1);
    let value: string;
    if (pf.form === 'uri-id') {
      const m = /^(?:(.*)-)?(\d+)$/.exec(rest);
      if (!m) return null;
      value = m[2];
    } else {
      if (rest === '') return null;
      value = rest;
    }
    if (params.some((p) => p.field === pf.field)) return null;
    params.push({ field: pf.field, keys: [], op: 'eq', values: [value] });
  }
  return params;
}

/**
 * A 'uri-id' path filter's value as its path prints it: the uri and the id of the value a filter
 * holds, given as either (an enumerated value's facet link gives its uri, its path the id);
 * undefined when no such value exists.
 */
export type PathValueOf = (field: string, value: string) => { uri: string; id: number } | undefined;

/**
 * The readable path for a set of params, when every param is a single-valued path filter
 * (else null and the query form is used). `pathValue` gives the uri and id of 'uri-id' forms.
 */
export function printFilterPath(
  params: FilterParam[],
  pathFilters: PathFilter[],
  pathValue: PathValueOf,
): string | null {
  if (params.length === 0) return null;
  const segments: string[] = [];
  for (const p of params) {
    const pf = pathFilters.find((f) => f.field === p.field);
    if (!pf || p.op !== 'eq' || p.keys.length > 0 || p.values.length !== 1) return null;
    const value = p.values[0];
    if (pf.form === 'uri') {
      segments.push(`${pf.prefix}-${value}`);
    } else {
      const known = pathValue(p.field, value);
      if (!known) return null;
      segments.push(`${pf.prefix}-${known.uri}-${known.id}`);
    }
  }
  return `f/${segments.join('/')}/`;
}
