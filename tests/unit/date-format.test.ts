import { describe, expect, it } from 'vitest';
import { provenanceSummary } from '../../core/companies/company-history.ts';
import { formatDateTime, formatDay } from '../../core/i18n/i18n.ts';

// The one home of dates on pages (core/i18n formatDay): the month as a word in the reader's
// language, so 03/12 can never be read as 12 March by one reader and 3 December by another.
describe('a date as the reader reads it', () => {
  it('writes a day with its month as a word, in each language', () => {
    expect(formatDay('en', '2026-12-03')).toBe('3 Dec 2026');
    expect(formatDay('de', '2026-12-03')).toBe('3. Dez. 2026');
    expect(formatDay('fr', '2026-12-03')).toBe('3 déc. 2026');
    expect(formatDay('en', '2024-05-13')).toBe('13 May 2024');
    expect(formatDay('de', '2024-03-01')).toBe('1. März 2024');
  });

  it('never writes a numeric day-month the reader could swap, nor an ISO date', () => {
    for (const lang of ['en', 'de', 'fr'] as const) {
      const text = formatDay(lang, '2026-12-03');
      expect(text).not.toMatch(/\d{1,2}[./-]\d{1,2}[./-]\d{2,4}/);
      expect(text).not.toContain('2026-12-03');
    }
  });

  it('writes a month (a birth month) and a year at their precision', () => {
    expect(formatDay('en', '1970-06')).toBe('Jun 1970');
    expect(formatDay('de', '1970-06')).toBe('Juni 1970');
    expect(formatDay('fr', '1970-06')).toBe('juin 1970');
    expect(formatDay('fr', '1970')).toBe('1970');
  });

  it('takes a timestamp or a Date as its UTC day, and passes anything else through', () => {
    expect(formatDay('en', '2024-05-05T23:30:00Z')).toBe('5 May 2024');
    expect(formatDay('en', '2024-05-06T00:30:00+02:00')).toBe('5 May 2024');
    expect(formatDay('de', new Date('2024-05-05T23:30:00Z'))).toBe('5. Mai 2024');
    expect(formatDay('en', null)).toBe('');
    expect(formatDay('en', '')).toBe('');
    expect(formatDay('en', 'unknown')).toBe('unknown');
  });

  it('writes a moment with its UTC time', () => {
    expect(formatDateTime('en', '2026-12-03T14:05:59Z')).toBe('3 Dec 2026 14:05 UTC');
    expect(formatDateTime('fr', new Date('2026-12-03T14:05:59Z'))).toBe('3 déc. 2026 14:05 UTC');
  });
});

describe('the sources of a section, on one line', () => {
  const at = (iso: string) => new Date(iso);
  it('names each publisher once with the newest date of its facts, dates as the reader reads them', () => {
    const facts = [
      { source: 'gleif-lei', source_date: at('2024-05-05T10:00:00Z'), observed_at: at('2024-06-01T00:00:00Z') },
      { source: 'ch-companies', source_date: null, observed_at: at('2024-06-01T08:00:00Z') },
      { source: 'gleif-rr', source_date: at('2024-07-09T10:00:00Z'), observed_at: at('2024-07-10T00:00:00Z') },
      undefined,
    ];
    expect(provenanceSummary(facts, 'en')).toBe('GLEIF, 9 Jul 2024; Companies House, 1 Jun 2024');
    expect(provenanceSummary(facts, 'de')).toBe('GLEIF, 9. Juli 2024; Companies House, 1. Juni 2024');
    expect(provenanceSummary([undefined], 'en')).toBe('');
  });
});
