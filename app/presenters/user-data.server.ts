import { data, type RouterContext, redirect } from 'react-router';
import { AppError } from '../../core/errors/app-error.ts';
import { recordCompanyView } from '../../core/history/browsing-history.ts';
import { recordSearch } from '../../core/history/search-history.ts';
import { i18nFor, isLang, unprefixedPath } from '../../core/i18n/i18n.ts';
import { trackingOfCompany } from '../../core/monitoring/existing-trackings.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { dayStart, type ListQuery, type Page } from '../../core/user-data/list-query.ts';
import { userDataFieldsOf } from '../../core/user-data/user-data-errors.ts';
import { watchlistsOfCompany } from '../../core/watchlists/watchlist-objects.ts';
import { watchlistChoices } from '../../core/watchlists/watchlists.ts';
import type { Db } from '../../db/client.ts';
import type { Seo } from '../meta.ts';
import { requireUser } from '../require-user.server.ts';
import { type AppServices, authContext, servicesContext } from '../services.ts';
import { formText } from './account-forms.server.ts';
import type { ReportChangesView } from './change-lines.server.ts';
import { type Presenter, presenter } from './present.server.ts';
import type { SearchPageHead } from './search-page.server.ts';
import { summaryOf } from './search-summary.server.ts';

// Loader and action pieces of the pages of a user's data (lists, histories, saved searches) and
// of the reading pages that offer them (profile, search): all no-ops for guests.

type ContextReader = { get: <T>(context: RouterContext<T>) => T };

export function langOf(params: { lang?: string }): Lang {
  return isLang(params.lang) ? params.lang : 'en';
}

/** The metadata of a user's page (app/meta.ts keeps these paths out of search engines, spec §2). */
export function userPageSeo(
  context: ContextReader,
  lang: Lang,
  path: string,
  titleKey: string,
  descriptionKey: string,
): Seo {
  const { t } = i18nFor(lang);
  return {
    siteUrl: context.get(servicesContext).siteUrl,
    lang,
    path,
    title: t(titleKey),
    description: t(descriptionKey),
  };
}

/** Whole numbers of a repeated form field (ids), without repeats; anything else is dropped. */
export function formIds(form: FormData, name: string): number[] {
  const ids = new Set<number>();
  for (const value of form.getAll(name)) {
    if (typeof value !== 'string') continue;
    for (const part of value.split(',')) {
      const text = part.trim();
      if (/^\d{1,15}$/.test(text)) ids.add(Number(text));
    }
  }
  return [...ids];
}

/** A whole-number form field, or null. */
export function formInt(form: FormData, name: string): number | null {
  const text = formText(form, name).trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** A page parameter that is a whole number (a cursor), or undefined. */
export function intParam(url: URL, name: string): number | undefined {
  const text = url.searchParams.get(name) ?? '';
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/**
 * Turns a field refusal of a user-data form into the page's answer (400, the fields and what the
 * user typed); a record that is not the user's is the 404 page; other failures go on to the
 * error boundary.
 */
export function userDataFormFailure(error: unknown, values: Record<string, string>) {
  const fields = userDataFieldsOf(error);
  if (fields) return data({ fields, values }, { status: 400 });
  return pageError(error);
}

/** A record that is not the user's (or was deleted meanwhile) is the 404 page; anything else goes on. */
export function pageError(error: unknown): never {
  if (error instanceof AppError && error.code === 'not_found') throw data({ message: error.message }, { status: 404 });
  throw error;
}

/** What the profile page offers a signed-in user: their lists, and those that hold this company. */
export type ProfileListsData = {
  lists: { number: number; name: string }[];
  holding: { number: number; name: string }[];
  /** The user tracks this company's updates. */
  tracked: boolean;
} | null;

/**
 * For a signed-in user opening a profile: records the view (browsing history) and reads their
 * lists. A guest costs nothing; a failure to record is logged and never breaks the page.
 */
export async function profileUserData(context: ContextReader, companyId: number): Promise<ProfileListsData> {
  const auth = context.get(authContext);
  if (!auth) return null;
  const { db } = context.get(servicesContext);
  const userId = auth.user.id;
  const [, lists, holding, tracking] = await Promise.all([
    recordCompanyView(db, userId, companyId).catch((error: unknown) => {
      console.error('browsing history not recorded', error);
    }),
    watchlistChoices(db, userId),
    watchlistsOfCompany(db, userId, companyId),
    trackingOfCompany(db, userId, companyId),
  ]);
  return {
    lists: lists.map((l) => ({ number: l.number, name: l.name })),
    holding: holding.map((l) => ({ number: l.number, name: l.name })),
    tracked: tracking !== null,
  };
}

/** What the search page keeps of a search: its path, a readable summary, the count. */
export type SearchForHistory = {
  section: string;
  /** The search's path without language prefix (the page's canonical path). */
  query: string;
  /** What was searched, readable: the query words and the filters. */
  summary: string;
  results: number;
  results_is_estimate: boolean;
  /** Only a first page that looks for something (words or a filter) is a search worth keeping. */
  searched: boolean;
};

/** The search of a search page, as the history and "save search" keep it. */
export function searchOfPage(page: SearchPageHead, url: URL): SearchForHistory {
  const summary = summaryOf(
    page.q,
    page.chips.map((c) => c.label),
  );
  return {
    section: page.section,
    query: page.canonicalPath,
    summary,
    results: page.total,
    results_is_estimate: page.totalIsEstimate,
    searched: page.page === 1 && !url.searchParams.has('after') && summary !== '',
  };
}

export type SearchUserData = {
  lists: { number: number; name: string }[];
  /** The search as "save search" keeps it. */
  search: { section: string; query: string; name: string };
} | null;

/**
 * For a signed-in user's search (any section): records it in the search history — after the
 * results are computed, never failing the page — and reads their lists for "add to list".
 * A guest costs nothing (null).
 */
export async function searchUserData(context: ContextReader, page: SearchPageHead, url: URL): Promise<SearchUserData> {
  const auth = context.get(authContext);
  if (!auth) return null;
  const { db } = context.get(servicesContext);
  const userId = auth.user.id;
  const search = searchOfPage(page, url);
  const [, lists] = await Promise.all([
    search.searched
      ? recordSearch(db, userId, search).catch((error: unknown) => {
          console.error('search history not recorded', error);
        })
      : null,
    watchlistChoices(db, userId),
  ]);
  return {
    lists: lists.map((l) => ({ number: l.number, name: l.name })),
    search: { section: search.section, query: search.query, name: search.summary || page.title },
  };
}

/**
 * The list filters of a history page's URL (q, from, to, after); bad days are ignored. `keep`: the
 * page's own filters (a report page's `tracking`), kept in its page links too.
 */
export function historyQuery(url: URL, keep: Record<string, string> = {}) {
  const text = (name: string, max: number) => (url.searchParams.get(name) ?? '').trim().slice(0, max);
  const q = text('q', 200);
  let from = text('from', 10);
  let to = text('to', 10);
  if (from && !dayStart(from)) from = '';
  if (to && !dayStart(to)) to = '';
  if (from && to && to < from) to = '';
  const after = intParam(url, 'after');
  const query: ListQuery = { q: q || undefined, from: from || undefined, to: to || undefined, after };
  const kept = { ...keep, ...(q ? { q } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
  /** The filters, and more parameters, as a query string. */
  const withParams = (extra: Record<string, string>) => new URLSearchParams({ ...kept, ...extra }).toString();
  return {
    query,
    values: { q, from, to, active: Boolean(q || from || to) },
    /** The page at `href` after this one (null on the last), and back to the first (null on the first). */
    pageLinks: (href: string, next: number | null) => ({
      nextHref: next ? `${href}?${withParams({ after: String(next) })}` : null,
      firstHref: after !== undefined ? `${href}?${withParams({})}` : null,
    }),
  };
}

/** A cell of a history table: text, a link, a moment (with its machine-readable time) or a number. */
export type HistoryCell = {
  text: string;
  href?: string | null;
  dateTime?: string;
  number?: boolean;
  /** The flag's ISO code, drawn before the text (a jurisdiction). */
  flag?: string;
  /** A cell of several lines (a report's changes or companies), each maybe a link. */
  lines?: { text: string; href?: string | null }[];
  /** A report's changes (app/presenters/change-lines.server.ts). */
  changes?: ReportChangesView;
};

/** A history entry as its table row; `name` labels its delete button. */
export type HistoryRow = {
  id: number;
  name: string;
  cells: HistoryCell[];
  /** A tracking's status: the row offers to pause or resume it. */
  status?: 'active' | 'paused';
};

/**
 * The loader of a history page: the signed-in user's entries (filtered by the URL, a page at a
 * time), the columns' labels, and what the last action did.
 */
export async function loadHistoryPage<T, R = undefined>(
  { request, params, context }: { request: Request; params: { lang?: string }; context: ContextReader },
  history: {
    titleKey: string;
    descriptionKey: string;
    columns: (p: Presenter, path: string) => string[];
    list: (db: Db, userId: number, query: ListQuery) => Promise<Page<T>>;
    /** What the rows read beyond the entries, once for the page (in the reader's language). */
    present?: (entries: T[], services: AppServices, p: Presenter) => Promise<R[]>;
    row: (entry: T, p: Presenter, presented: R) => HistoryRow;
    /** The page's own filters, kept in its page links (see historyQuery). */
    keep?: Record<string, string>;
  },
) {
  const lang = langOf(params);
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const { db, reference } = services;
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const path = unprefixedPath(url.pathname);
  const filters = historyQuery(url, history.keep);
  const page = await history.list(db, auth.user.id, filters.query);
  const presented = history.present ? await history.present(page.data, services, p) : [];
  return {
    seo: userPageSeo(context, lang, path, history.titleKey, history.descriptionKey),
    columns: history.columns(p, path),
    action: p.path(path),
    filters: filters.values,
    done: url.searchParams.get('done'),
    count: Number(url.searchParams.get('count') ?? '0') || 0,
    rows: page.data.map((entry, i) => history.row(entry, p, presented[i] as R)),
    ...filters.pageLinks(p.path(path), page.next),
  };
}

export type HistoryPageData = Awaited<ReturnType<typeof loadHistoryPage>>;

/**
 * The action of a history page: clear the whole history, or delete one entry; then back to the
 * page with what was done. `clear` and `remove` act on the signed-in user's own rows only.
 */
export async function historyAction(
  request: Request,
  context: ContextReader,
  clear: (db: Db, userId: number) => Promise<number>,
  remove: (db: Db, userId: number, id: number) => Promise<unknown>,
): Promise<Response> {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const url = new URL(request.url);
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'clear') {
    const count = await clear(db, auth.user.id);
    return redirect(`${url.pathname}?done=cleared&count=${count}`);
  }
  const id = formInt(form, 'id');
  if (intent === 'delete' && id !== null) {
    await remove(db, auth.user.id, id).catch(pageError);
    return redirect(`${url.pathname}?done=deleted`);
  }
  throw new Response('Unknown action', { status: 400 });
}
