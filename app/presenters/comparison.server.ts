import type { RouterContext } from 'react-router';
import { formatAddress } from '../../core/companies/parts/addresses.ts';
import type { ComparisonDocument } from '../../core/comparison/comparison-pdf.ts';
import {
  type ComparedValue,
  comparisonRows,
  ROW_GROUPS,
  type RowGroup,
  type RowLabel,
} from '../../core/comparison/comparison-rows.ts';
import {
  COMPARISON_COOKIE,
  COMPARISON_COOKIE_MAX_AGE,
  comparisonCookieValue,
  MAX_COMPARED_COMPANIES,
  mergeComparisons,
  parseComparisonCookie,
} from '../../core/comparison/comparison-set.ts';
import { loadComparison } from '../../core/comparison/load-comparison.ts';
import { getSavedComparison, updateSavedComparison } from '../../core/comparison/saved-comparison.ts';
import { parseCookies, siteCookie } from '../../core/http/cookies.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { existingCompanyIds } from '../../core/watchlists/company-refs.ts';
import { type AppServices, authContext, clientContext, servicesContext } from '../services.ts';
import { type Presenter, presenter } from './present.server.ts';

// The comparison for the page, its actions and the PDF (spec §1, §4, §7): where the set lives (a
// guest's cookie, a signed-in user's saved row — a guest's cookie merges into it on their next
// comparison request after signing in), and the rows as the reader reads them.

type ContextReader = { get: <T>(context: RouterContext<T>) => T };

export type ComparisonState = {
  /** The companies compared, in order (ids that no longer name a company left out). */
  ids: number[];
  /** Set-Cookie values the response must carry (a merged or unreadable guest cookie is cleared). */
  setCookies: string[];
  /** Companies of a guest cookie just merged into the saved set, and those that did not fit. */
  merged: { added: number; refused: number };
  /** Ids read that name no company any more (dropped on the next change). */
  stale: Set<number>;
};

/** The Set-Cookie value that keeps a guest's set (or removes the cookie when the set is empty). */
export function comparisonCookie(ids: readonly number[], secure: boolean): string {
  const value = comparisonCookieValue(ids);
  return siteCookie(COMPARISON_COOKIE, value, value ? COMPARISON_COOKIE_MAX_AGE : 0, secure);
}

async function withoutStale(services: AppServices, ids: number[]) {
  const existing = await existingCompanyIds(services.db, ids);
  return { ids: ids.filter((id) => existing.has(id)), stale: new Set(ids.filter((id) => !existing.has(id))) };
}

/**
 * The comparison of this request. A guest's comes from the cookie (bad content is an empty set,
 * and the cookie is cleared); a signed-in user's from the database — and when they still carry a
 * guest cookie (they compared before signing in), its companies join their saved set once and the
 * cookie is cleared.
 */
export async function readComparison(context: ContextReader, request: Request): Promise<ComparisonState> {
  const services = context.get(servicesContext);
  const auth = context.get(authContext);
  const { secure } = context.get(clientContext);
  const cookies = parseCookies(request.headers.get('cookie') ?? undefined);
  const raw = cookies.get(COMPARISON_COOKIE);
  const fromCookie = parseComparisonCookie(raw);
  const clear = raw !== undefined && (auth !== null || (fromCookie.length === 0 && raw !== ''));
  const setCookies = clear ? [comparisonCookie([], secure)] : [];
  if (!auth) return { ...(await withoutStale(services, fromCookie)), setCookies, merged: { added: 0, refused: 0 } };

  const saved = await getSavedComparison(services.db, auth.user.id);
  const known = await withoutStale(services, [...new Set([...saved, ...fromCookie])]);
  if (fromCookie.length === 0) {
    return {
      ids: saved.filter((id) => !known.stale.has(id)),
      stale: known.stale,
      setCookies,
      merged: { added: 0, refused: 0 },
    };
  }
  const guest = fromCookie.filter((id) => !known.stale.has(id));
  const result = await updateSavedComparison(services.db, auth.user.id, (ids) =>
    mergeComparisons(
      ids.filter((id) => !known.stale.has(id)),
      guest,
    ),
  );
  return {
    ids: result.ids,
    stale: known.stale,
    setCookies,
    merged: { added: result.added.length, refused: result.refused.length },
  };
}

/**
 * Applies a change to the comparison of this request and keeps it: in the user's saved row (the
 * change runs on the row as locked in the database), or in the guest's cookie.
 */
export async function changeComparison<T extends { ids: number[] }>(
  context: ContextReader,
  state: ComparisonState,
  change: (ids: number[]) => T,
): Promise<{ result: T; setCookies: string[] }> {
  const { db } = context.get(servicesContext);
  const auth = context.get(authContext);
  if (auth) {
    const result = await updateSavedComparison(db, auth.user.id, (ids) =>
      change(ids.filter((id) => !state.stale.has(id))),
    );
    return { result, setCookies: state.setCookies };
  }
  const result = change(state.ids);
  return { result, setCookies: [comparisonCookie(result.ids, context.get(clientContext).secure)] };
}

export type ComparedCompanyView = { id: number; uri: string; name: string; href: string };

export type ComparisonRowView = {
  key: string;
  label: string;
  /** Per company, its value as lines (none: not known). */
  values: string[][];
  differs: boolean;
};

export type ComparisonGroupView = { id: RowGroup; title: string; rows: ComparisonRowView[] };

export type ComparisonView = {
  companies: ComparedCompanyView[];
  groups: ComparisonGroupView[];
  differing: number;
  /** Related-record types none of the companies has, by name. */
  emptyRecordTypes: string[];
};

function labelOf(label: RowLabel, services: AppServices, p: Presenter): string {
  if (label.kind === 'text') return p.label(label.label);
  return p.name(services.reference[label.list].byId.get(label.id));
}

function linesOf(value: ComparedValue, services: AppServices, p: Presenter): string[] {
  const { reference } = services;
  switch (value.kind) {
    case 'empty':
      return [];
    case 'reference':
      return [p.name(reference[value.list].byId.get(value.id))].filter(Boolean);
    case 'status':
      return [p.t(value.active ? 'status.active' : 'status.inactive')];
    case 'date':
      return [p.date(value.date)];
    case 'year':
      return [String(value.year)];
    case 'money':
      return [p.amount(Number(value.amount), value.currencyId === null ? '' : p.currencyCode(value.currencyId))];
    case 'count':
      return [p.number(value.count)];
    case 'texts':
      return value.texts;
    case 'addresses':
      return value.addresses.map((a) =>
        formatAddress(a, a.country_id ? p.name(reference.locations.byId.get(a.country_id)) : null),
      );
  }
}

const GROUP_TITLE: Record<RowGroup, string> = {
  overview: 'comparison.groups.overview',
  addresses: 'profile.addresses',
  identifiers: 'profile.identifiers',
  financials: 'comparison.groups.financials',
  records: 'comparison.groups.records',
};

/** The compared companies and their rows in one language, ready for the page and the PDF. */
export async function loadComparisonView(
  services: AppServices,
  lang: Lang,
  ids: readonly number[],
): Promise<ComparisonView> {
  const companies = await loadComparison(services.db, ids);
  const p = presenter(services.reference, lang);
  const table = comparisonRows(companies);
  const groups = ROW_GROUPS.map((id) => ({
    id,
    title: p.t(GROUP_TITLE[id]),
    rows: table.rows
      .filter((r) => r.group === id)
      .map((r) => ({
        key: r.key,
        label: labelOf(r.label, services, p),
        values: r.values.map((v) => linesOf(v, services, p)),
        differs: r.differs,
      })),
  })).filter((g) => g.rows.length > 0);
  return {
    companies: companies.map((c) => ({ id: c.id, uri: c.uri, name: c.name, href: p.companyHref(c.uri) })),
    groups: companies.length > 0 ? groups : [],
    differing: table.rows.filter((r) => r.differs).length,
    emptyRecordTypes: companies.length > 0 ? table.emptyRecordTypes.map((l) => p.label(l)) : [],
  };
}

/** The comparison as the PDF shows it (spec §7 headers first: they are the first overview rows). */
export function comparisonDocument(
  view: ComparisonView,
  lang: Lang,
  services: AppServices,
  at: Date,
): ComparisonDocument {
  const p = presenter(services.reference, lang);
  const t = p.t;
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
  return {
    productName: t('site.name'),
    title: t('comparison.title'),
    dateText: t('comparison.pdf.madeOn', { date: p.date(at), time }),
    labelHeading: t('comparison.compared'),
    companies: view.companies.map((c) => c.name),
    groups: view.groups.map((g) => ({
      title: g.title,
      rows: g.rows.map((r) => ({
        label: r.label,
        values: r.values.map((lines) => (lines.length > 0 ? lines.join('\n') : '—')),
        differs: r.differs,
      })),
    })),
    differsText: t('comparison.differs'),
    legend: t('comparison.pdf.legend', { count: view.differing }),
    footnote:
      view.emptyRecordTypes.length > 0 ? t('comparison.noRecordsOf', { types: view.emptyRecordTypes.join(', ') }) : '',
    pageText: (page, pages) => t('comparison.pdf.page', { page, pages }),
    lang,
  };
}

export { MAX_COMPARED_COMPANIES };
