import { describe, expect, it } from 'vitest';
import {
  dateBoundDay,
  type FilterParam,
  parseDateValue,
  parseFilterPath,
  parseParam,
  printFilterPath,
  printParams,
  readableQuery,
} from '../../core/filters/grammar.ts';
import { parseSearchState, printSearchState } from '../../core/search/search-state.ts';
import { companiesSection } from '../../core/sections/companies.ts';

/** Parses a query, prints it back, and checks that the printed URL parses to the same state. */
function roundTrip(query: string): string {
  const parsed = parseSearchState(companiesSection, new URLSearchParams(query));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const uriOf = (_field: string, value: string) => ({ uri: `uri-of-${value}`, id: Number(value) });
  const printed = printSearchState(companiesSection, parsed.state, uriOf);
  const m = /^(?:f\/(.*)\/)?\??(.*)$/.exec(printed)!;
  const again = parseSearchState(companiesSection, new URLSearchParams(m[2]), m[1] ? m[1].split('/') : []);
  expect(again).toEqual(parsed);
  // Printed as a valid URL (brackets and pipes percent-encoded), read in the grammar's notation.
  expect(m[2]).not.toMatch(/[[\]|]/);
  return m[1] ? query : readableQuery(m[2]);
}

describe('filter grammar', () => {
  it('parses lists, typed sub-filters, ranges and availability', () => {
    expect(parseParam('jurisdiction', '276|840', true)).toEqual({
      field: 'jurisdiction',
      keys: [],
      op: 'eq',
      values: ['276', '840'],
    });
    expect(parseParam('jurisdiction', '276,840', true)).toMatchObject({ values: ['276', '840'] });
    expect(parseParam('identifiers[vat]', 'DE1,2', false)).toMatchObject({ keys: ['vat'], values: ['DE1,2'] });
    expect(parseParam('dates[registration]:from', '2020', false)).toMatchObject({
      field: 'dates',
      keys: ['registration'],
      op: 'from',
    });
    expect(parseParam('addresses[registered][locality]', 'Berlin', false)).toMatchObject({
      keys: ['registered', 'locality'],
    });
    expect(parseParam('contacts[website]:is_known', '', false)).toMatchObject({ op: 'is_known', values: [] });
  });

  it('rejects malformed values with the parameter named', () => {
    expect(parseParam('contacts[website]:is_known', 'yes', false)).toMatchObject({
      parameter: 'contacts[website]:is_known',
    });
    expect(parseParam('jurisdiction', '276||840', true)).toMatchObject({ parameter: 'jurisdiction' });
    expect(parseParam('dates[registration]:from', '2020|2021', false)).toMatchObject({
      message: expect.stringContaining('single'),
    });
    expect(parseParam('Bad Name', 'x', false)).toBeNull();
  });

  it('round-trips every declared filter shape: print(parse(x)) = x', () => {
    const cases = [
      'jurisdiction=276',
      'jurisdiction=276|840|100001',
      'industry=52&status=1|2',
      'size=small|large&employees=1-10',
      'kind=2&dates[registration]:from=2020',
      'dates[registration]:from=2020-01-15&dates[registration]:to=2021-06',
      'dates[dissolution]:is_known=',
      'identifiers[vat]=DE123456789',
      'identifiers[lei]:is_unknown=',
      'contacts[website]:is_known=&contacts[fax]:is_unknown=',
      'q=bank&jurisdiction=276&sort=name_asc',
      'q=m%C3%BCller%20bau&page=3',
      'status=1&sort=registration_date_asc&page=2',
    ];
    for (const query of cases) expect(roundTrip(query), query).toBe(query);
  });

  it('round-trips generated combinations of parameters', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const makers = [
      () => `jurisdiction=${Array.from({ length: 1 + rand(3) }, () => 1 + rand(900)).join('|')}`,
      () => `status=${1 + rand(8)}`,
      () => `size=${['micro', 'small', 'medium', 'large'][rand(4)]}`,
      () => `dates[registration]:from=${1900 + rand(126)}`,
      () => `dates[accounts]:to=${2000 + rand(26)}-0${1 + rand(9)}-1${rand(9)}`,
      () => `identifiers[company_number]=HRB${rand(99999)}`,
      () => `contacts[email]:is_known=`,
    ];
    for (let i = 0; i < 300; i++) {
      const picked = [...new Set(Array.from({ length: 1 + rand(4) }, () => rand(makers.length)))].sort();
      const query = picked.map((m) => makers[m]()).join('&');
      expect(roundTrip(query), query).toBe(query);
    }
  });

  it('prints "," lists back as "|"', () => {
    expect(roundTrip('jurisdiction=276,840')).toBe('jurisdiction=276|840');
  });

  it('names the bad parameter for unknown or malformed input', () => {
    const bad = (query: string) => {
      const r = parseSearchState(companiesSection, new URLSearchParams(query));
      return r.ok ? null : r.errors[0].parameter;
    };
    expect(bad('bogus=1')).toBe('bogus');
    expect(bad('jurisdiction=abc')).toBe('jurisdiction');
    expect(bad('dates[registration]:from=20x0')).toBe('dates[registration]:from');
    expect(bad('dates[registration]:from=2021-02-30')).toBe('dates[registration]:from');
    expect(bad('dates:from=2020')).toBe('dates:from');
    expect(bad('identifiers[vat]:from=1')).toBe('identifiers[vat]:from');
    expect(bad('jurisdiction:from=1')).toBe('jurisdiction:from');
    expect(bad('page=0')).toBe('page');
    expect(bad('page=501')).toBe('page');
    expect(bad('page=1000&after=WyIyMDIwLTAxLTAxIiwxXQ')).toBeNull();
    expect(bad('page=abc')).toBe('page');
    expect(bad('sort=relevance')).toBe('sort');
    expect(bad('dates[registration]:from=2020&dates[registration]:from=2021')).toBe('dates[registration]:from');
  });

  it('reads a repeated list parameter as more values of one filter (OR), as a multiple select sends it', () => {
    const r = parseSearchState(companiesSection, new URLSearchParams('jurisdiction=276&jurisdiction=840|276'));
    expect(r.ok && r.state.filters).toEqual([{ field: 'jurisdiction', keys: [], op: 'eq', values: ['276', '840'] }]);
  });

  it('treats empty plain-form fields as no filter', () => {
    const r = parseSearchState(
      companiesSection,
      new URLSearchParams('q=&jurisdiction=&status=1&dates[registration]:from='),
    );
    expect(r.ok && r.state.filters).toEqual([{ field: 'status', keys: [], op: 'eq', values: ['1'] }]);
  });
});

describe('filter paths', () => {
  const paths = companiesSection.pathFilters;
  it('parses each readable path form of spec §2', () => {
    expect(parseFilterPath(['jurisdiction-germany-276'], paths)).toEqual([
      { field: 'jurisdiction', keys: [], op: 'eq', values: ['276'] },
    ]);
    expect(parseFilterPath(['industry-software-publishers-513210'], paths)?.[0].values).toEqual(['513210']);
    expect(parseFilterPath(['size-small'], paths)?.[0]).toMatchObject({ field: 'size', values: ['small'] });
    expect(parseFilterPath(['employees-1-10'], paths)?.[0]).toMatchObject({ field: 'employees', values: ['1-10'] });
    expect(parseFilterPath(['kind-limited-liability-company-2'], paths)?.[0]).toMatchObject({
      field: 'kind',
      values: ['2'],
    });
    expect(parseFilterPath(['nonsense-1'], paths)).toBeNull();
    expect(parseFilterPath(['jurisdiction-germany'], paths)).toBeNull();
  });

  it('prints single-valued path filters as a path and anything else as a query', () => {
    const uriOf = (field: string, value: string) =>
      field === 'jurisdiction' && (value === '276' || value === 'germany') ? { uri: 'germany', id: 276 } : undefined;
    const j: FilterParam = { field: 'jurisdiction', keys: [], op: 'eq', values: ['276'] };
    expect(printFilterPath([j], paths, uriOf)).toBe('f/jurisdiction-germany-276/');
    // A value given by its uri prints its id: the path parses back (a facet link of an enumerated value).
    expect(printFilterPath([{ ...j, values: ['germany'] }], paths, uriOf)).toBe('f/jurisdiction-germany-276/');
    expect(printFilterPath([{ ...j, values: ['276', '840'] }], paths, uriOf)).toBeNull();
    const state = { q: '', filters: [j], sort: companiesSection.defaultSort, page: 1 };
    expect(printSearchState(companiesSection, state, uriOf)).toBe('f/jurisdiction-germany-276/');
    expect(printSearchState(companiesSection, { ...state, page: 2 }, uriOf)).toBe('f/jurisdiction-germany-276/?page=2');
    expect(printParams([j])).toEqual([['jurisdiction', '276']]);
  });
});

describe('dates', () => {
  it('accepts year-only, year-month and full dates, and only real ones', () => {
    expect(parseDateValue('2020')).toEqual({ value: '2020', precision: 'year' });
    expect(parseDateValue('2020-02')).toMatchObject({ precision: 'month' });
    expect(parseDateValue('2020-02-29')).toMatchObject({ precision: 'day' });
    expect(parseDateValue('2021-02-29')).toBeNull();
    expect(parseDateValue('2020-13')).toBeNull();
    expect(parseDateValue('20')).toBeNull();
  });
  it('takes years 1000 to 9999 only (PostgreSQL has no year 0)', () => {
    for (const bad of ['0000', '0000-01-01', '0000-02-29', '0999', '0999-12-31', '0001-01-01'])
      expect(parseDateValue(bad), bad).toBeNull();
    expect(parseDateValue('1000-01-01')).toMatchObject({ precision: 'day' });
    expect(parseDateValue('9999-12-31')).toMatchObject({ precision: 'day' });
  });
  it('turns bounds into the first or last day they cover', () => {
    expect(dateBoundDay(parseDateValue('2020')!, 'from')).toBe('2020-01-01');
    expect(dateBoundDay(parseDateValue('2020')!, 'to')).toBe('2020-12-31');
    expect(dateBoundDay(parseDateValue('2024-02')!, 'to')).toBe('2024-02-29');
    expect(dateBoundDay(parseDateValue('2023-02')!, 'to')).toBe('2023-02-28');
  });
});
