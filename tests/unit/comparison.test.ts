import { describe, expect, it } from 'vitest';
import { OTHER_LISTS } from '../../core/companies/get-company-records.ts';
import {
  A4_LANDSCAPE,
  type ComparisonDocument,
  comparisonColumns,
  comparisonFileName,
  PAGE_MARGIN,
  paginate,
  toWinAnsi,
  writeComparisonPdf,
} from '../../core/comparison/comparison-pdf.ts';
import {
  type ComparedValue,
  comparisonRows,
  MARKS_DIFFERENCES,
  valuesDiffer,
} from '../../core/comparison/comparison-rows.ts';
import {
  addCompanies,
  comparisonCookieValue,
  MAX_COMPARED_COMPANIES,
  mergeComparisons,
  parseComparisonCookie,
  removeCompany,
} from '../../core/comparison/comparison-set.ts';
import { COMPARED_RECORD_TYPES, type ComparedCompany } from '../../core/comparison/load-comparison.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';
import { readPdf } from '../support/read-pdf.ts';

// The comparison's pure rules: the set and its cookie, which rows differ, and
// the PDF layout — read back with PDF.js (unpdf), an independent reader.

function company(id: number, overrides: Partial<ComparedCompany> = {}): ComparedCompany {
  return {
    id,
    uri: `company-${id}`,
    name: `Company ${id}`,
    jurisdiction_id: 276,
    kind_id: null,
    size_id: 2,
    employees_id: 3,
    status_id: 1,
    primary_industry_id: 10,
    registered_on: '2015-04-01',
    addresses: [],
    identifiers: [],
    financials: null,
    record_counts: {},
    ...overrides,
  };
}

const address = (typeId: number, locality: string) => ({
  address_type_id: typeId,
  position: 0,
  address_line_1: null,
  address_line_2: null,
  block: null,
  building: null,
  city_district: null,
  country_id: 276,
  county: null,
  floor: null,
  house: '1',
  locality,
  post_code: '10115',
  room: null,
  state: null,
  state_id: null,
  street: 'Hauptstraße',
});

describe('the comparison set', () => {
  it('adds in order, without repeats, up to five, and says what it refused', () => {
    const first = addCompanies([], [3, 1, 3]);
    expect(first).toEqual({ ids: [3, 1], added: [3, 1], already: [], refused: [] });
    const full = addCompanies(first.ids, [1, 7, 8, 9, 10, 11]);
    expect(full.ids).toEqual([3, 1, 7, 8, 9]);
    expect(full.ids).toHaveLength(MAX_COMPARED_COMPANIES);
    expect(full.added).toEqual([7, 8, 9]);
    expect(full.already).toEqual([1]);
    expect(full.refused).toEqual([10, 11]);
    // A sixth is refused, not silently dropped, and the set stays as it was.
    expect(addCompanies(full.ids, [12])).toEqual({ ids: full.ids, added: [], already: [], refused: [12] });
  });

  it('removes one company and keeps the order of the rest', () => {
    expect(removeCompany([5, 6, 7], 6)).toEqual([5, 7]);
    expect(removeCompany([5, 6, 7], 8)).toEqual([5, 6, 7]);
  });

  it('merges a guest’s set after the user’s own, while there is room', () => {
    expect(mergeComparisons([1, 2, 3], [3, 4, 5, 6])).toEqual({
      ids: [1, 2, 3, 4, 5],
      added: [4, 5],
      already: [3],
      refused: [6],
    });
  });

  it('reads only well-formed cookies and treats anything else as an empty set', () => {
    expect(parseComparisonCookie('12.345.6789')).toEqual([12, 345, 6789]);
    expect(parseComparisonCookie('4.4')).toEqual([4]);
    for (const bad of [
      undefined,
      '',
      'abc',
      '1,2',
      '1..2',
      '.1',
      '1.2.3.4.5.6',
      '0',
      '-1',
      '1.2;3',
      '9999999999999999',
      '%7B%7D',
      'x'.repeat(500),
    ]) {
      expect(parseComparisonCookie(bad), String(bad)).toEqual([]);
    }
    expect(parseComparisonCookie(comparisonCookieValue([7, 8, 9]))).toEqual([7, 8, 9]);
  });
});

describe('which rows differ', () => {
  const jurisdiction = (id: number): ComparedValue => ({ kind: 'reference', list: 'locations', id });

  it('compares values, not their text: equal amounts match, another currency or an empty value differs', () => {
    expect(valuesDiffer([jurisdiction(276), jurisdiction(276)])).toBe(false);
    expect(valuesDiffer([jurisdiction(276), jurisdiction(250)])).toBe(true);
    expect(valuesDiffer([jurisdiction(276), { kind: 'empty' }])).toBe(true);
    expect(
      valuesDiffer([
        { kind: 'money', amount: '1000.00', currencyId: 1 },
        { kind: 'money', amount: '1000', currencyId: 1 },
      ]),
    ).toBe(false);
    expect(
      valuesDiffer([
        { kind: 'money', amount: '1000.00', currencyId: 1 },
        { kind: 'money', amount: '1000.00', currencyId: 2 },
      ]),
    ).toBe(true);
    expect(
      valuesDiffer([
        { kind: 'texts', texts: ['DE 123'] },
        { kind: 'texts', texts: ['de  123'] },
      ]),
    ).toBe(false);
    // One company alone differs from nothing.
    expect(valuesDiffer([jurisdiction(276)])).toBe(false);
    expect(valuesDiffer([])).toBe(false);
  });

  it('puts the spec §7 headers first and marks exactly the rows that differ', () => {
    const a = company(1, { addresses: [address(1, 'Berlin')], record_counts: { vessels: 2, patents: 1 } });
    const b = company(2, {
      status_id: 4,
      registered_on: '2019-01-01',
      addresses: [address(1, ' berlin ')],
      record_counts: { vessels: 2 },
    });
    const { rows, emptyRecordTypes } = comparisonRows([a, b]);
    expect(rows.slice(0, 4).map((r) => r.key)).toEqual(['jurisdiction', 'size', 'status', 'registration_date']);
    const differs = Object.fromEntries(rows.map((r) => [r.key, r.differs]));
    expect(differs).toMatchObject({
      jurisdiction: false,
      size: false,
      status: true,
      registration_date: true,
      primary_industry: false,
      employees: false,
      'address-1': false,
      'records-vessels': false,
      'records-patents': true,
    });
    // Status by spec §4: id 1 is active, anything else inactive.
    expect(rows.find((r) => r.key === 'status')?.values).toEqual([
      { kind: 'status', active: true },
      { kind: 'status', active: false },
    ]);
    // No financial statements: no financial rows. Record types none has are listed, not shown.
    expect(rows.some((r) => r.group === 'financials')).toBe(false);
    expect(rows.filter((r) => r.group === 'records')).toHaveLength(2);
    expect(emptyRecordTypes).toHaveLength(COMPARED_RECORD_TYPES.length - 2);
  });

  it('counts every declared related-record type, and shows key financials when any company has them', () => {
    expect(COMPARED_RECORD_TYPES.map((r) => r.key)).toEqual([
      ...RECORD_SECTIONS.map((s) => s.id),
      ...OTHER_LISTS.map((l) => l.key),
    ]);
    const counts = Object.fromEntries(COMPARED_RECORD_TYPES.map((r, i) => [r.key, i + 1]));
    const { rows } = comparisonRows([
      company(1, {
        record_counts: counts,
        financials: { report_year: 2024, revenue: '1500000.00', profit: '-20.50', currency_id: 3 },
      }),
      company(2, { record_counts: counts }),
    ]);
    expect(rows.filter((r) => r.group === 'records').map((r) => r.key)).toEqual(
      COMPARED_RECORD_TYPES.map((r) => `records-${r.key}`),
    );
    const financials = rows.filter((r) => r.group === 'financials');
    expect(financials.map((r) => r.key)).toEqual(['financials-report_year', 'financials-revenue', 'financials-profit']);
    expect(financials.every((r) => r.differs)).toBe(true);
    expect(financials[1].values).toEqual([{ kind: 'money', amount: '1500000.00', currencyId: 3 }, { kind: 'empty' }]);
  });

  it('never marks identifiers, which always differ between two companies, and still shows them', () => {
    const id = (identifier: string) => ({ identifier_type_id: 1, identifier, position: 1 });
    const { rows } = comparisonRows([
      company(1, { identifiers: [id('529900T8BM49AURSDO55')] }),
      company(2, { identifiers: [id('5493001KJTIIGC8Y1R12')] }),
    ]);
    const identifier = rows.find((r) => r.key === 'identifier-1');
    expect(identifier?.values).toEqual([
      { kind: 'texts', texts: ['529900T8BM49AURSDO55'] },
      { kind: 'texts', texts: ['5493001KJTIIGC8Y1R12'] },
    ]);
    expect(identifier?.differs).toBe(false);
    expect(MARKS_DIFFERENCES).toMatchObject({ identifiers: false, overview: true, addresses: true });
  });

  it('compares nothing with one company', () => {
    const { rows } = comparisonRows([company(1, { record_counts: { vessels: 1 } })]);
    expect(rows.length).toBeGreaterThan(6);
    expect(rows.some((r) => r.differs)).toBe(false);
  });
});

describe('the PDF layout', () => {
  const contentWidth = A4_LANDSCAPE.width - 2 * PAGE_MARGIN;

  it('splits the page width between the labels and up to five equal company columns', () => {
    for (let n = 1; n <= MAX_COMPARED_COMPANIES; n++) {
      const columns = comparisonColumns(contentWidth, n);
      expect(columns.x).toHaveLength(n + 1);
      expect(columns.labelWidth).toBeGreaterThanOrEqual(120);
      expect(columns.labelWidth).toBeLessThanOrEqual(170);
      expect(columns.x[n] + columns.valueWidth).toBeCloseTo(PAGE_MARGIN + contentWidth, 6);
      expect(columns.labelWidth + n * columns.valueWidth).toBeCloseTo(contentWidth, 6);
    }
    // Five companies still get a readable column (a hundred points and more).
    expect(comparisonColumns(contentWidth, 5).valueWidth).toBeGreaterThan(100);
  });

  it('breaks pages where a block does not fit, keeps a group title with its first row', () => {
    expect(paginate([{ height: 40 }, { height: 40 }, { height: 40 }], 100)).toEqual([[0, 1], [2]]);
    expect(paginate([{ height: 30 }, { height: 20, keepWithNext: true }, { height: 60 }], 100)).toEqual([[0], [1, 2]]);
    // A block taller than a page gets its own page and the rest go on.
    expect(paginate([{ height: 10 }, { height: 500 }, { height: 10 }], 100)).toEqual([[0], [1], [2]]);
    expect(paginate([], 100)).toEqual([[]]);
  });

  it('keeps names readable in the built-in font when no Unicode font is installed', () => {
    expect(toWinAnsi('Müller & Søn — Łódź Straße')).toBe('Müller & Søn — Lódz Straße');
    expect(toWinAnsi('1\u202f000 €')).toBe('1 000 €');
    expect(toWinAnsi('北京')).toBe('??');
  });

  it('names the file like the exports: the product name, comparison, date and time', () => {
    const at = new Date(Date.UTC(2026, 10, 5, 9, 7));
    expect(comparisonFileName(at)).toBe('registra_comparison_2026-11-05_09-07.pdf');
  });

  function document(companies: string[], rows: number): ComparisonDocument {
    const long = 'A very long value that has to wrap over several lines inside its narrow column, ';
    return {
      productName: 'Registra',
      title: 'Company comparison',
      dateText: '05/11/2026, 09:07 UTC',
      labelHeading: 'Compared',
      companies,
      groups: [
        {
          title: 'Overview',
          rows: ['Jurisdiction', 'Size', 'Status', 'Registration date'].map((label, i) => ({
            label,
            values: companies.map((c) => `${label} of ${c}`),
            differs: i % 2 === 0,
          })),
        },
        {
          title: 'Related records',
          rows: Array.from({ length: rows }, (_, i) => ({
            label: `Record type ${i + 1}`,
            values: companies.map((_, j) => (j === 0 ? long.repeat(3) : String(i * j))),
            differs: true,
          })),
        },
      ],
      differsText: 'Differs',
      legend: 'Shaded rows marked “Differs” are where the companies differ.',
      footnote: 'None of these companies has: Vessels.',
      pageText: (page, pages) => `Page ${page} of ${pages}`,
      lang: 'en',
    };
  }

  it('writes A4 landscape pages of selectable text that fit five companies across, with the header on every page', async () => {
    const companies = [
      'Łódź Logistics Spółka z ograniczoną odpowiedzialnością',
      'Müller & Söhne GmbH',
      'Société Générale des Eaux',
      'Nordic Shipping A/S',
      'A Very Long Company Name Incorporated Holdings International Limited',
    ];
    const pdf = await writeComparisonPdf(document(companies, 40), { now: new Date(Date.UTC(2026, 10, 5, 9, 7)) });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const read = await readPdf(pdf);
    expect(read.title).toBe('Registra — Company comparison');
    expect(read.pages.length).toBeGreaterThan(1);
    for (const [i, page] of read.pages.entries()) {
      expect(page.width).toBeCloseTo(A4_LANDSCAPE.width, 1);
      expect(page.height).toBeCloseTo(A4_LANDSCAPE.height, 1);
      const text = page.text.replace(/\s+/g, ' ');
      expect(text).toContain('Registra');
      expect(text).toContain('05/11/2026, 09:07 UTC');
      expect(text).toContain(`Page ${i + 1} of ${read.pages.length}`);
      // The company names head every page (wrapped where long: compare without spaces).
      for (const name of companies) expect(page.text.replace(/\s+/g, '')).toContain(name.replace(/\s+/g, ''));
      // Nothing runs off the page: every piece of text starts and ends inside the margins.
      for (const item of page.items.filter((it) => it.text.trim())) {
        expect(item.x, item.text).toBeGreaterThanOrEqual(PAGE_MARGIN - 0.5);
        expect(item.x + item.width, item.text).toBeLessThanOrEqual(A4_LANDSCAPE.width - PAGE_MARGIN + 0.5);
        expect(item.y, item.text).toBeGreaterThan(PAGE_MARGIN / 2);
        expect(item.y, item.text).toBeLessThan(A4_LANDSCAPE.height - PAGE_MARGIN / 2);
      }
    }
    const all = read.pages.map((p) => p.text).join('\n');
    for (const header of ['Jurisdiction', 'Size', 'Status', 'Registration date', 'Differs']) {
      expect(all).toContain(header);
    }
    expect(all.indexOf('Jurisdiction')).toBeLessThan(all.indexOf('Registration date'));
    expect(all).toContain('None of these companies has: Vessels.');
    // Every row label made it, once.
    for (let i = 1; i <= 40; i++) expect(all.match(new RegExp(`Record type ${i}\\b`, 'g'))).toHaveLength(1);
  });

  it('writes the built-in font when no Unicode font is installed', async () => {
    const pdf = await writeComparisonPdf(document(['Łódź Logistics', 'Müller AG'], 2), {
      fonts: { regular: 'Helvetica', bold: 'Helvetica-Bold', unicode: false },
    });
    const read = await readPdf(pdf);
    expect(read.pages[0].text).toContain('Lódz Logistics');
    expect(read.pages[0].text).toContain('Müller AG');
  });
});
