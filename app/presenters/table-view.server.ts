import { parseCookies, siteCookie } from '../../core/http/cookies.ts';
import type { SectionDecl } from '../../core/sections/section.ts';
import {
  DEFAULT_TABLE_STYLE,
  getTableViewSetting,
  TABLE_STYLES,
  type TableStyle,
} from '../../core/table-views/table-view-settings.ts';
import { authContext, type ContextReader, servicesContext } from '../services.ts';

// Table view per search section for everyone (spec §4: the table style per page is kept in a
// cookie, default style-2): the style and which declared columns show. Changed through a GET form
// whose parameters `style`, `columns` and `table` the loader turns into the cookie before it
// redirects to the same search without them.

export { DEFAULT_TABLE_STYLE, TABLE_STYLES, type TableStyle };
export const TABLE_COOKIE = 'table_view';
const COOKIE_MAX_AGE = 365 * 24 * 3600;

export type TableView = { style: TableStyle; columns: string[] | null };
type Stored = Record<string, { s?: string; c?: string[] }>;

/** Parameters of the table-view form (never search parameters); `view=saved` goes back to the user's saved view. */
export const TABLE_PARAMS = new Set(['style', 'columns', 'table', 'view']);

function readCookie(cookieHeader: string | null): Stored {
  const raw = parseCookies(cookieHeader).get(TABLE_COOKIE);
  if (!raw) return {};
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Stored) : {};
  } catch {
    return {};
  }
}

/**
 * The table view of a section as the cookie keeps it; what the cookie does not say comes from the
 * fallback (a signed-in user's saved settings), else the defaults. Unknown or stale entries are dropped.
 */
export function tableView(
  cookieHeader: string | null,
  section: SectionDecl,
  fallback: Partial<TableView> = {},
): TableView {
  const entry = readCookie(cookieHeader)[section.id];
  const style = TABLE_STYLES.find((s) => s === entry?.s) ?? fallback.style ?? DEFAULT_TABLE_STYLE;
  const known = new Set(section.columns.map((c) => c.key));
  const columns = Array.isArray(entry?.c) ? entry.c.filter((c) => typeof c === 'string' && known.has(c)) : [];
  const fallbackColumns = fallback.columns?.filter((c) => known.has(c)) ?? [];
  return {
    style,
    columns: columns.length > 0 ? columns : fallbackColumns.length > 0 ? fallbackColumns : null,
  };
}

/**
 * When the URL carries the table-view form, the Set-Cookie value for the new view and the URL to
 * redirect to (the same search without the form's parameters); otherwise null.
 */
export function tableViewChange(
  url: URL,
  cookieHeader: string | null,
  section: SectionDecl,
  secure: boolean,
): { setCookie: string; location: string } | null {
  if (![...TABLE_PARAMS].some((p) => url.searchParams.has(p))) return null;
  const stored = readCookie(cookieHeader);
  const next = new URL(url);
  for (const p of TABLE_PARAMS) next.searchParams.delete(p);
  const location = `${next.pathname}${next.search}`;
  const cookie = (value: Stored) => siteCookie(TABLE_COOKIE, JSON.stringify(value), COOKIE_MAX_AGE, secure);
  if (url.searchParams.get('view') === 'saved') {
    // This page forgets its own choice: the user's saved view (or the default) applies again.
    delete stored[section.id];
    return { setCookie: cookie(stored), location };
  }
  const current = tableView(cookieHeader, section);
  const style = TABLE_STYLES.find((s) => s === url.searchParams.get('style')) ?? current.style;
  let columns = current.columns;
  if (url.searchParams.has('table')) {
    const known = new Set(section.columns.map((c) => c.key));
    const chosen = url.searchParams.getAll('columns').filter((c) => known.has(c));
    columns = chosen.length > 0 && chosen.length < known.size ? chosen : null;
  }
  stored[section.id] = { s: style, ...(columns ? { c: columns } : {}) };
  return { setCookie: cookie(stored), location };
}

/**
 * What a signed-in user saved for a section's table — the section's saved view, else the table
 * style of settings → interface — and whether the section has a saved view; nothing for guests.
 */
export async function savedTableView(
  context: ContextReader,
  section: SectionDecl,
): Promise<{ fallback: Partial<TableView>; hasSaved: boolean }> {
  const auth = context.get(authContext);
  if (!auth) return { fallback: {}, hasSaved: false };
  const saved = await getTableViewSetting(context.get(servicesContext).db, auth.user.id, section.id);
  if (saved) return { fallback: { style: saved.style, columns: saved.columns }, hasSaved: true };
  return { fallback: { style: auth.tableStyle }, hasSaved: false };
}
