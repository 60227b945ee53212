import {
  changeFieldLabel,
  changeInWords,
  changeSourceText,
  changeValueText,
  loadChangeWords,
} from '../../core/changes/change-words.ts';
import { readChangesBetween } from '../../core/companies/as-of.ts';
import { readCompanyHistory } from '../../core/companies/company-history.ts';
import { IMPORT_FIELD_NAMES, type ImportField, importFieldLabel } from '../../core/imports/fields.ts';
import { HISTORY_PAGE_SIZE } from '../../core/limits.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { staleReads } from '../../core/services.ts';
import { findVisibleCompany } from '../../core/takedowns/visible.ts';
import type { AppServices } from '../services.ts';
import { presenter } from './present.server.ts';

export type HistoryRow = {
  id: number;
  observed: string;
  field: string;
  /** The value's items before and after (none: nothing); a first record has nothing before. */
  before: string[];
  after: string[];
  firstRecorded: boolean;
  /** When the source dated it, who said so, and when Registra saw it. */
  source: string;
};

/** A company's History tab (docs/decisions/0014-importers.md's company_changes), one page of it. */
export type CompanyHistoryPage = {
  id: number;
  name: string;
  uri: string;
  title: string;
  description: string;
  profileHref: string;
  historyHref: string;
  /** The compare view (docs/decisions/0028-company-as-of.md): what changed between two days. */
  compareHref: string;
  /** The field filter: every field the company has changes of, labelled in the page's language. */
  fields: { value: string; label: string }[];
  field: string | null;
  rows: HistoryRow[];
  total: number;
  totalText: string;
  newerHref: string | null;
  olderHref: string | null;
};

export async function loadCompanyHistoryPage(
  services: AppServices,
  lang: Lang,
  uri: string,
  query: { field: string | null; page: number },
  viewer?: number,
): Promise<CompanyHistoryPage | null> {
  // A company taken down has no History tab either: a 404 as its profile (ADR 0021).
  const company = await findVisibleCompany(staleReads(services), uri);
  if (!company) return null;
  const id = Number(company.id);
  const history = await readCompanyHistory(staleReads(services), id, {
    field: query.field ?? undefined,
    page: query.page,
    viewer,
  });
  const p = presenter(services.reference, lang);
  const words = await loadChangeWords(
    staleReads(services).kysely,
    services.reference,
    lang,
    history.changes.map((c) => ({ field: c.field, old: c.old_value, new: c.new_value })),
  );
  const historyHref = p.path(`/companies/details/${encodeURIComponent(company.uri)}/history/`);
  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (query.field) params.set('field', query.field);
    if (page > 1) params.set('page', String(page));
    const search = params.toString();
    return search ? `${historyHref}?${search}` : historyHref;
  };
  const pages = Math.max(1, Math.ceil(history.total / HISTORY_PAGE_SIZE));
  return {
    id,
    name: company.name,
    uri: company.uri,
    title: p.t('companyHistory.title', { name: company.name }),
    description: p.t('companyHistory.description', { name: company.name }),
    profileHref: p.companyHref(company.uri),
    historyHref,
    compareHref: p.path(`/companies/details/${encodeURIComponent(company.uri)}/compare/`),
    fields: history.fields.map((f) => ({ value: f, label: importFieldLabel(f, lang) })),
    field: query.field,
    rows: history.changes.map((c) => {
      const w = changeInWords({ field: c.field, old: c.old_value, new: c.new_value }, words);
      return {
        id: c.id,
        observed: p.date(c.observed_at),
        field: w.field,
        before: w.old,
        after: w.new,
        firstRecorded: w.firstRecorded,
        source: changeSourceText(c, lang),
      };
    }),
    total: history.total,
    totalText: p.t('companyHistory.count', { count: history.total }),
    newerHref: query.page > 1 ? pageHref(Math.min(query.page - 1, pages)) : null,
    olderHref: query.page < pages ? pageHref(query.page + 1) : null,
  };
}

/** A company's changes between two days (docs/decisions/0028-company-as-of.md), field by field. */
export type CompanyComparePage = {
  name: string;
  uri: string;
  title: string;
  description: string;
  profileHref: string;
  historyHref: string;
  compareHref: string;
  from: string;
  to: string;
  fromHref: string;
  toHref: string;
  beforeLabel: string;
  afterLabel: string;
  rows: { field: string; label: string; before: string; after: string; historyHref: string }[];
  countText: string;
};

export async function loadCompanyComparePage(
  services: AppServices,
  lang: Lang,
  uri: string,
  query: { from: string; to: string },
  viewer?: number,
): Promise<CompanyComparePage | null> {
  const reads = staleReads(services);
  const company = await findVisibleCompany(reads, uri);
  if (!company) return null;
  const fields = await readChangesBetween(reads, Number(company.id), query.from, query.to, viewer);
  const p = presenter(services.reference, lang);
  const path = (tail: string) => p.path(`/companies/details/${encodeURIComponent(company.uri)}/${tail}`);
  const order = (field: string) => {
    const i = IMPORT_FIELD_NAMES.indexOf(field as ImportField);
    return i === -1 ? IMPORT_FIELD_NAMES.length : i;
  };
  const none = p.t('asOf.none');
  // Each value in words, as the History tab writes it (core/changes/change-words.ts).
  const words = await loadChangeWords(
    reads.kysely,
    services.reference,
    lang,
    fields.map((f) => ({ field: f.field, old: f.before, new: f.after })),
  );
  const text = (field: string, value: unknown) => changeValueText(field, value, words) || none;
  return {
    name: company.name,
    uri: company.uri,
    title: p.t('asOf.compareTitle', { name: company.name }),
    description: p.t('asOf.compareDescription', { name: company.name }),
    profileHref: p.companyHref(company.uri),
    historyHref: path('history/'),
    compareHref: path('compare/'),
    from: query.from,
    to: query.to,
    fromHref: `${p.companyHref(company.uri)}?as_of=${query.from}`,
    toHref: `${p.companyHref(company.uri)}?as_of=${query.to}`,
    beforeLabel: p.t('asOf.before', { date: p.date(query.from) }),
    afterLabel: p.t('asOf.after', { date: p.date(query.to) }),
    rows: fields
      .sort((a, b) => order(a.field) - order(b.field) || (a.field < b.field ? -1 : 1))
      .map((f) => ({
        field: f.field,
        label: changeFieldLabel(f.field, lang),
        before: text(f.field, f.before),
        after: text(f.field, f.after),
        historyHref: `${path('history/')}?${new URLSearchParams({ field: f.field })}`,
      })),
    countText: fields.length === 0 ? p.t('asOf.noChanges') : p.t('asOf.changedCount', { count: fields.length }),
  };
}
