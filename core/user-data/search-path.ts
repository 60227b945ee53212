import { safeReturnTo } from '../accounts/return-to.ts';
import { parseSearchState, type SearchState } from '../search/search-state.ts';
import type { SectionDecl } from '../sections/section.ts';

// A search kept in the search history or saved under a name is its page's path without the
// language prefix: `/companies/search/f/jurisdiction-germany-276/?q=acme`. Pages link to it, so
// only a same-site path of a search section is accepted — never a URL that leads elsewhere.

export const SEARCH_PATH_MAX_LENGTH = 2000;

/**
 * The search path of a section, normalised (language prefix dropped), or null when the value is
 * not a search page of that section of this site.
 */
export function searchPathOf(section: string, value: string): string | null {
  if (value.length > SEARCH_PATH_MAX_LENGTH) return null;
  const safe = safeReturnTo(value, '');
  if (!safe) return null;
  const path = safe.replace(/^\/(de|fr)(?=\/)/, '').replace(/#.*$/, '');
  const base = `/${section}/search/`;
  if (!path.startsWith(base)) return null;
  const rest = path.slice(base.length);
  // The search itself (query string), or a readable filter path (/f/…), nothing else (not /advanced/).
  if (rest !== '' && !rest.startsWith('?') && !rest.startsWith('f/')) return null;
  return path;
}

/** The search state of a kept search path of a section; null when it no longer parses. */
export function searchStateOfPath(section: SectionDecl, path: string): SearchState | null {
  const url = new URL(path, 'http://registra.invalid');
  const base = `/${section.id}/search/`;
  if (!url.pathname.startsWith(base)) return null;
  const rest = url.pathname.slice(base.length);
  const segments = rest.startsWith('f/') ? rest.slice(2).split('/').filter(Boolean) : [];
  const parsed = parseSearchState(section, url.searchParams, segments);
  return parsed.ok ? parsed.state : null;
}
