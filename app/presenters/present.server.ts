import { isActive } from '../../core/companies/company-status.ts';
import type { CompanyRow } from '../../core/companies/find-companies.ts';
import { codeWords, formatDateTime, formatDay, i18nFor, localePath, numberFormat } from '../../core/i18n/i18n.ts';
import {
  displayName,
  flagCodeOf,
  type Lang,
  type Reference,
  type RefItem,
} from '../../core/reference/reference-data.ts';

const AMOUNT: Intl.NumberFormatOptions = { minimumFractionDigits: 0, maximumFractionDigits: 2 };

/**
 * A table cell as the page shows it: text, and a link or a flag where the column has one (`flag`:
 * the flag's ISO code, drawn by app/components/flag.tsx).
 */
export type Cell = {
  text: string;
  href?: string;
  flag?: string;
  tone?: 'active' | 'inactive';
  /** Where the row is (a company's town): a line of the row's card on a phone, not a column of the table. */
  town?: string;
};

export type Presenter = ReturnType<typeof presenter>;

/** Display names, dates, flags and links in one language, from the in-memory reference data. */
export function presenter(reference: Reference, lang: Lang) {
  const languageId = reference.languageIds[lang] || reference.languageIds.en;
  const t = i18nFor(lang).t;
  const name = (item: RefItem | undefined) => displayName(item, languageId);
  const path = (p: string) => localePath(lang, p);
  /** A date, month, year or moment as the reader's language writes it (core/i18n formatDay): "3 Dec 2026". */
  const date = (value: string | Date | null | undefined) => formatDay(lang, value);
  /** A moment with its UTC time: "3 Dec 2026 14:05 UTC". */
  const dateTime = (value: string | Date | null | undefined) => formatDateTime(lang, value);
  const number = (n: number) => numberFormat(lang).format(n);
  const status = (statusId: number | null | undefined): Cell => {
    const active = isActive(statusId);
    return { text: active ? t('status.active') : t('status.inactive'), tone: active ? 'active' : 'inactive' };
  };
  const jurisdiction = (id: number): Cell => ({
    text: name(reference.locations.byId.get(id)),
    flag: flagCodeOf(reference, id),
  });
  /**
   * A stable code (`annual_return`) by its translation under `group`; a code no translation knows
   * yet (a new one from a registry) reads as words ("Annual return"), never as the raw code.
   */
  const code = (group: string, value: string) => codeWords(t, group, value);
  /** An i18n key, or a label declared in every language. */
  const label = (ref: string | Record<Lang, string>) => (typeof ref === 'string' ? t(ref) : ref[lang]);
  const currencyCode = (id: number) => reference.currencies.byId.get(id)?.uri.toUpperCase() ?? '';
  const amount = (n: number, currency: string) =>
    `${numberFormat(lang, AMOUNT).format(n)}${currency ? ` ${currency}` : ''}`;
  const companyHref = (uri: string) => path(`/companies/details/${encodeURIComponent(uri)}/`);

  /** Cells of the companies-search columns (spec §2), keyed by column key. */
  const companyCells = (row: CompanyRow): Record<string, Cell> => {
    const href = companyHref(row.uri);
    return {
      legal_name: { text: row.name, href, ...(row.town ? { town: row.town } : {}) },
      company_number: { text: row.company_number ?? '' },
      status: status(row.status_id),
      jurisdiction: jurisdiction(row.jurisdiction_id),
      registration_date: { text: date(row.registered_on) },
      primary_industry: { text: name(reference.industries.byId.get(row.primary_industry_id ?? -1)), href },
      size: { text: name(reference.sizes.byId.get(row.size_id ?? -1)), href },
      employees: { text: name(reference.employees.byId.get(row.employees_id ?? -1)), href },
    };
  };

  return {
    t,
    lang,
    reference,
    languageId,
    name,
    label,
    path,
    date,
    dateTime,
    number,
    amount,
    currencyCode,
    status,
    jurisdiction,
    code,
    companyHref,
    companyCells,
  };
}
