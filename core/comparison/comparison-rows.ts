import { isActive } from '../companies/company-status.ts';
import type { Label } from '../sections/record-fields.ts';
import type { LabelRef } from '../sections/section.ts';
import {
  COMPARED_RECORD_TYPES,
  type ComparedAddress,
  type ComparedCompany,
  FINANCIAL_FIELDS,
  FINANCIALS_SECTION,
} from './load-comparison.ts';

// The rows of a comparison, language-free: each row has one value per company, typed (a
// reference id, a date, an amount with its currency, a count …), and says whether the companies
// differ on it. Pages and the PDF translate the labels and format the values (app/presenters).
// Differences are decided here, on the values themselves, never on their translated text.

export type RowGroup = 'overview' | 'addresses' | 'identifiers' | 'financials' | 'records';

export const ROW_GROUPS: RowGroup[] = ['overview', 'addresses', 'identifiers', 'financials', 'records'];

/**
 * Whether a group's rows are marked where the companies differ: the one home of that rule (ADR 0009).
 * Identifiers are not: an LEI, a registration number or a tax number names one company, so two
 * companies' always differ and the mark would tell the reader nothing (and drown the marks that do).
 */
export const MARKS_DIFFERENCES: Record<RowGroup, boolean> = {
  overview: true,
  addresses: true,
  identifiers: false,
  financials: true,
  records: true,
};

export type RowLabel =
  /** An i18n key, or a label declared in every language (record sections, financial fields). */
  | { kind: 'text'; label: LabelRef }
  /** The name of a reference type (an address type, an identifier type). */
  | { kind: 'type'; list: 'addressTypes' | 'identifierTypes'; id: number };

export type ComparedValue =
  | { kind: 'empty' }
  | { kind: 'reference'; list: 'locations' | 'sizes' | 'industries' | 'employees'; id: number }
  | { kind: 'status'; active: boolean }
  | { kind: 'date'; date: string }
  | { kind: 'year'; year: number }
  | { kind: 'money'; amount: string; currencyId: number | null }
  | { kind: 'count'; count: number }
  | { kind: 'texts'; texts: string[] }
  | { kind: 'addresses'; addresses: ComparedAddress[] };

export type ComparisonRow = {
  /** Stable and unique in a comparison: `jurisdiction`, `address-3`, `records-vessels`, … */
  key: string;
  group: RowGroup;
  label: RowLabel;
  /** One per company, in the companies' order. */
  values: ComparedValue[];
  /**
   * The companies do not all have the same value (never with fewer than two companies), on a row
   * whose group marks differences (`MARKS_DIFFERENCES`).
   */
  differs: boolean;
};

const EMPTY: ComparedValue = { kind: 'empty' };

/** The spec §7 comparison headers first (jurisdiction, size, status, registration_date), then the rest. */
export const OVERVIEW_ROWS = [
  'jurisdiction',
  'size',
  'status',
  'registration_date',
  'primary_industry',
  'employees',
] as const;

const reference = (list: 'locations' | 'sizes' | 'industries' | 'employees', id: number | null): ComparedValue =>
  id === null ? EMPTY : { kind: 'reference', list, id };

function overviewValue(key: (typeof OVERVIEW_ROWS)[number], c: ComparedCompany): ComparedValue {
  switch (key) {
    case 'jurisdiction':
      return reference('locations', c.jurisdiction_id);
    case 'size':
      return reference('sizes', c.size_id);
    case 'status':
      // Spec §4: active when the status id is 1, otherwise inactive.
      return { kind: 'status', active: isActive(c.status_id) };
    case 'registration_date':
      return c.registered_on ? { kind: 'date', date: c.registered_on } : EMPTY;
    case 'primary_industry':
      return reference('industries', c.primary_industry_id);
    case 'employees':
      return reference('employees', c.employees_id);
  }
}

/** Text with case and spacing that do not matter for a comparison taken out. */
const plain = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/** What decides equality of a value: the same key means the same value. */
export function valueKey(value: ComparedValue): string {
  switch (value.kind) {
    case 'empty':
      return 'empty';
    case 'money':
      return `money:${Number(value.amount)}:${value.currencyId ?? ''}`;
    case 'texts':
      return `texts:${JSON.stringify(value.texts.map(plain))}`;
    case 'addresses':
      return `addresses:${JSON.stringify(
        value.addresses.map((a) =>
          Object.entries(a)
            .filter(([k, v]) => v !== null && v !== '' && k !== 'position')
            .map(([k, v]) => [k, typeof v === 'string' ? plain(v) : v])
            .sort(([a], [b]) => String(a).localeCompare(String(b))),
        ),
      )}`;
    default:
      return JSON.stringify(value);
  }
}

/** Whether the values are not all the same (one value, or none, never differs). */
export function valuesDiffer(values: readonly ComparedValue[]): boolean {
  if (values.length < 2) return false;
  const first = valueKey(values[0]);
  return values.some((v) => valueKey(v) !== first);
}

function row(key: string, group: RowGroup, label: RowLabel, values: ComparedValue[]): ComparisonRow {
  return { key, group, label, values, differs: MARKS_DIFFERENCES[group] && valuesDiffer(values) };
}

/** Type ids present in any company, in ascending order. */
function typesOf<T>(companies: ComparedCompany[], items: (c: ComparedCompany) => T[], typeOf: (item: T) => number) {
  return [...new Set(companies.flatMap((c) => items(c).map(typeOf)))].sort((a, b) => a - b);
}

export type ComparisonTable = {
  rows: ComparisonRow[];
  /** Related-record types none of the companies has (their all-zero rows are left out). */
  emptyRecordTypes: LabelRef[];
};

/**
 * The rows comparing these companies: the overview (spec §7 headers first), an address row per
 * address type and an identifier row per identifier type any of them has, the key financials
 * when any has a financial statement, and the count of each related-record type any of them has.
 */
export function comparisonRows(companies: ComparedCompany[]): ComparisonTable {
  const rows: ComparisonRow[] = OVERVIEW_ROWS.map((key) =>
    row(
      key,
      'overview',
      { kind: 'text', label: `columns.${key}` },
      companies.map((c) => overviewValue(key, c)),
    ),
  );

  for (const type of typesOf(
    companies,
    (c) => c.addresses,
    (a) => a.address_type_id,
  )) {
    const values = companies.map((c): ComparedValue => {
      const of = c.addresses.filter((a) => a.address_type_id === type);
      return of.length === 0 ? EMPTY : { kind: 'addresses', addresses: of };
    });
    rows.push(row(`address-${type}`, 'addresses', { kind: 'type', list: 'addressTypes', id: type }, values));
  }

  for (const type of typesOf(
    companies,
    (c) => c.identifiers,
    (i) => i.identifier_type_id,
  )) {
    const values = companies.map((c): ComparedValue => {
      const texts = c.identifiers.filter((i) => i.identifier_type_id === type).map((i) => i.identifier);
      return texts.length === 0 ? EMPTY : { kind: 'texts', texts };
    });
    rows.push(row(`identifier-${type}`, 'identifiers', { kind: 'type', list: 'identifierTypes', id: type }, values));
  }

  // Key financials only when present (spec: "key financials when present").
  if (companies.some((c) => c.financials)) {
    for (const key of FINANCIAL_FIELDS) {
      const label: Label = FINANCIALS_SECTION.fields.find((f) => f.key === key)!.label;
      const values = companies.map((c): ComparedValue => {
        const f = c.financials;
        if (!f) return EMPTY;
        if (key === 'report_year') return f.report_year === null ? EMPTY : { kind: 'year', year: f.report_year };
        if (key === 'average_employees')
          return f.average_employees === null || f.average_employees === undefined
            ? EMPTY
            : { kind: 'count', count: f.average_employees };
        const amount = f[key];
        return amount === null || amount === undefined ? EMPTY : { kind: 'money', amount, currencyId: f.currency_id };
      });
      // Year, revenue and profit always; the rest of filed accounts' figures when any company has them.
      if (!['report_year', 'revenue', 'profit'].includes(key) && values.every((v) => v === EMPTY)) continue;
      rows.push(row(`financials-${key}`, 'financials', { kind: 'text', label }, values));
    }
  }

  const emptyRecordTypes: LabelRef[] = [];
  for (const type of COMPARED_RECORD_TYPES) {
    const counts = companies.map((c) => c.record_counts[type.key] ?? 0);
    if (counts.every((n) => n === 0)) {
      emptyRecordTypes.push(type.label);
      continue;
    }
    rows.push(
      row(
        `records-${type.key}`,
        'records',
        { kind: 'text', label: type.label },
        counts.map((count) => ({ kind: 'count', count })),
      ),
    );
  }
  return { rows, emptyRecordTypes };
}
