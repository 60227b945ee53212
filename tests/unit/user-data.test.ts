import { describe, expect, it } from 'vitest';
import { isNoindexPath } from '../../app/meta.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { cleanSearchInput } from '../../core/history/search-history.ts';
import { cleanSavedSearchInput } from '../../core/saved-searches/saved-searches.ts';
import {
  cleanText,
  containsPattern,
  DEFAULT_PAGE_SIZE,
  dayRange,
  dayStart,
  MAX_PAGE_SIZE,
  pageOf,
  pageSize,
} from '../../core/user-data/list-query.ts';
import { searchPathOf } from '../../core/user-data/search-path.ts';
import { parseCompanyRefs, uriOfProfileRef } from '../../core/watchlists/company-refs.ts';
import { cleanTags, splitTags } from '../../core/watchlists/watchlist-objects.ts';
import { cleanWatchlistInput } from '../../core/watchlists/watchlists.ts';

/** The field codes of a refusal (details.fields), or the error when it is something else. */
function fieldsOf(work: () => unknown): Record<string, string> {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'bad_request') {
      return (error.details as { fields: Record<string, string> }).fields;
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('list filters of a user’s data (spec §7, §9)', () => {
  it('pages 50 items unless asked, within 1 to 500', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(50);
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize(0)).toBe(1);
    expect(pageSize(7.9)).toBe(7);
    expect(pageSize(100_000)).toBe(MAX_PAGE_SIZE);
  });

  it('cuts size + 1 rows into a page and the next cursor (the last id shown)', () => {
    const rows = [{ id: 9 }, { id: 7 }, { id: 4 }];
    expect(pageOf(rows, 2)).toEqual({ data: [{ id: 9 }, { id: 7 }], next: 7 });
    expect(pageOf(rows, 3)).toEqual({ data: rows, next: null });
    // A list's companies page by their row in the list, not by the company's id.
    const objects = [
      { id: 1, row: 30 },
      { id: 2, row: 20 },
      { id: 3, row: 10 },
    ];
    expect(pageOf(objects, 2, (o) => o.row).next).toBe(20);
  });

  it('reads real days only, as UTC instants', () => {
    expect(dayStart('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(dayStart('2026-02-30')).toBeNull();
    expect(dayStart('2026-2-3')).toBeNull();
    expect(dayStart('yesterday')).toBeNull();
  });

  it('turns an inclusive day range into a half-open one, and refuses a backwards or bad range naming the day', () => {
    const { start, end } = dayRange('2026-01-01', '2026-01-31');
    expect(start?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(end?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(dayRange(undefined, undefined)).toEqual({ start: undefined, end: undefined });
    expect(dayRange('2026-03-01', '2026-03-01').end?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(() => dayRange('2026-03-02', '2026-03-01')).toThrow(/to must not be before from/);
    try {
      dayRange('2026-13-01', undefined);
    } catch (error) {
      expect((error as AppError).details).toEqual({ parameter: 'from' });
    }
  });

  it('takes LIKE wildcards in a text query literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(cleanText('  Acme \n  Holdings ')).toBe('Acme Holdings');
  });
});

describe('search paths kept in histories and saved searches', () => {
  it('accepts a section’s search page, with a query or a readable filter path, without the language prefix', () => {
    expect(searchPathOf('companies', '/companies/search/?q=acme')).toBe('/companies/search/?q=acme');
    expect(searchPathOf('companies', '/de/companies/search/f/jurisdiction-germany-276/')).toBe(
      '/companies/search/f/jurisdiction-germany-276/',
    );
    expect(searchPathOf('vessels', '/vessels/search/')).toBe('/vessels/search/');
    expect(searchPathOf('companies', '/companies/search/?q=x#pending=save-search')).toBe('/companies/search/?q=x');
  });

  it('refuses anything that leads elsewhere: other sites, other sections, other pages', () => {
    for (const value of [
      'https://evil.example/companies/search/',
      '//evil.example/companies/search/',
      'javascript:alert(1)',
      '/companies/search/advanced/',
      '/vessels/search/',
      '/companies/details/acme/',
      '/companies/searchx/',
      '/\\evil.example/companies/search/',
      `/companies/search/?q=${'x'.repeat(2000)}`,
    ]) {
      expect(searchPathOf('companies', value), value).toBeNull();
    }
  });

  it('checks a recorded search: a known section, its own path, a count of 0 or more', () => {
    expect(
      cleanSearchInput({ section: 'companies', query: '/companies/search/?q=a', results: 3, summary: '  “a” ' }),
    ).toEqual({ section: 'companies', query: '/companies/search/?q=a', results: 3, summary: '“a”' });
    expect(fieldsOf(() => cleanSearchInput({ section: 'nope', query: '/nope/search/', results: 1 }))).toEqual({
      section: 'invalid',
    });
    expect(
      fieldsOf(() => cleanSearchInput({ section: 'companies', query: 'https://x.example/', results: -1 })),
    ).toEqual({ query: 'invalid', results: 'invalid' });
  });

  it('checks a saved search: a name, a section and a search of that section; a rename keeps the section', () => {
    expect(
      cleanSavedSearchInput({ name: ' Banks ', section: 'companies', query: '/companies/search/?q=bank' }, true),
    ).toEqual({ name: 'Banks', section: 'companies', query: '/companies/search/?q=bank' });
    expect(fieldsOf(() => cleanSavedSearchInput({ name: '', section: 'companies', query: '/x/' }, true))).toEqual({
      name: 'required',
      query: 'invalid',
    });
    expect(cleanSavedSearchInput({ name: 'New name' }, false, 'vessels')).toEqual({ name: 'New name' });
    expect(cleanSavedSearchInput({ query: '/vessels/search/?imo=1' }, false, 'vessels')).toEqual({
      query: '/vessels/search/?imo=1',
    });
    expect(fieldsOf(() => cleanSavedSearchInput({ query: '/companies/search/' }, false, 'vessels'))).toEqual({
      query: 'invalid',
    });
    expect(fieldsOf(() => cleanSavedSearchInput({ name: 'x'.repeat(101) }, false, 'vessels'))).toEqual({
      name: 'tooLong',
    });
  });
});

describe('company lists', () => {
  it('needs a name of at most 100 characters and a description of at most 1000', () => {
    expect(cleanWatchlistInput({ name: '  Suppliers   2026 ', description: ' Tier 1\r\nonly ' }, true)).toEqual({
      name: 'Suppliers 2026',
      description: 'Tier 1\nonly',
    });
    expect(fieldsOf(() => cleanWatchlistInput({}, true))).toEqual({ name: 'required' });
    expect(cleanWatchlistInput({ description: '' }, false)).toEqual({ description: '' });
    expect(
      fieldsOf(() => cleanWatchlistInput({ name: '🙂'.repeat(101), description: 'x'.repeat(1001) }, false)),
    ).toEqual({ name: 'tooLong', description: 'tooLong' });
    expect(cleanWatchlistInput({ name: '🙂'.repeat(100) }, false).name).toHaveLength(200);
  });

  it('cleans tags: trimmed, without repeats, at most 40 characters and 20 a company', () => {
    expect(cleanTags([' key ', 'key', 'supplier  A'])).toEqual(['key', 'supplier A']);
    expect(fieldsOf(() => cleanTags(['  ']))).toEqual({ tag: 'required' });
    expect(fieldsOf(() => cleanTags(['x'.repeat(41)]))).toEqual({ tag: 'tooLong' });
    expect(fieldsOf(() => cleanTags(Array.from({ length: 21 }, (_, i) => `t${i}`)))).toEqual({ tag: 'tooMany' });
    expect(splitTags(' key, , supplier ,')).toEqual(['key', 'supplier']);
  });

  it('reads pasted companies: one per line or separated by commas or semicolons, without repeats', () => {
    expect(
      parseCompanyRefs('HRB 12345 B\n 42 ,  \r\n 42;FN 123456a ;https://x.example/companies/details/acme-gmbh/'),
    ).toEqual(['HRB 12345 B', '42', 'FN 123456a', 'https://x.example/companies/details/acme-gmbh/']);
    expect(parseCompanyRefs('  \n , ')).toEqual([]);
  });

  it('finds the uri in a profile address or path', () => {
    expect(uriOfProfileRef('https://registra.example/de/companies/details/acme-gmbh-7/')).toBe('acme-gmbh-7');
    expect(uriOfProfileRef('/companies/details/caf%C3%A9-1/?tab=x')).toBe('café-1');
    expect(uriOfProfileRef('acme-gmbh-7')).toBeNull();
  });
});

describe('page metadata of a user’s pages', () => {
  it('keeps lists, histories and saved searches out of search engines', () => {
    for (const path of [
      '/companies/lists/',
      '/companies/lists/3/',
      '/companies/history/browsing/',
      '/companies/history/search/',
      '/dashboard/history/views/companies/',
      '/dashboard/saved-searches/',
    ]) {
      expect(isNoindexPath(path), path).toBe(true);
    }
    expect(isNoindexPath('/companies/search/')).toBe(false);
  });
});
