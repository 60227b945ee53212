import { companyNames } from '../../core/companies/company-names.ts';
import type { SearchEntry } from '../../core/history/search-history.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { searchStateOfPath } from '../../core/user-data/search-path.ts';
import type { AppServices } from '../services.ts';
import type { Presenter } from './present.server.ts';
import { chipLabel, resultsText } from './search-page.server.ts';

// How a search reads outside its page (search history, the dashboard): derived from its path at
// read time, in the reader's language, by the same chip labels the search page shows — a search
// made on /de/… reads in French on /fr/…, and a renamed filter label reads as it does today.

/** A search's summary: the name query in quotes, then its filters as the page's chips read them. */
export function summaryOf(q: string, filterLabels: string[]): string {
  return [q ? `“${q}”` : '', ...filterLabels].filter(Boolean).join(' · ');
}

/** A kept search as a line of a page: its section and summary, a link that runs it, its count. */
export type KeptSearchView = { text: string; href: string; results: string };

type KeptSearch = Pick<SearchEntry, 'section' | 'query' | 'summary' | 'results' | 'results_is_estimate'>;

/**
 * Kept searches as their lines read in the presenter's language (one query for the names of the
 * companies their filters name). A path that no longer parses falls back to the stored summary.
 */
export async function presentKeptSearches(
  services: AppServices,
  p: Presenter,
  entries: KeptSearch[],
): Promise<KeptSearchView[]> {
  const parsed = entries.map((e) => {
    const section = sectionById(e.section);
    return { section, state: section ? searchStateOfPath(section, e.query) : null };
  });
  const names = await companyNames(
    services.db,
    parsed.flatMap((s) => s.state?.filters ?? []).flatMap((f) => (f.field === 'company' ? f.values.map(Number) : [])),
  );
  return entries.map((entry, i) => {
    const { section, state } = parsed[i];
    const title = section ? p.label(section.title) : entry.section;
    const summary =
      section && state
        ? summaryOf(
            state.q,
            state.filters.flatMap((f) => {
              const decl = section.filters.find((d) => d.field === f.field);
              return decl ? [chipLabel(decl, f, services.reference, p, names)] : [];
            }),
          )
        : entry.summary;
    return {
      text: summary ? `${title}: ${summary}` : title,
      href: p.path(entry.query),
      results: resultsText(p, section, entry.results, entry.results_is_estimate),
    };
  });
}
