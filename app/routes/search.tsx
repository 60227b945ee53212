import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { AppError } from '../../core/errors/app-error.ts';
import { isLang } from '../../core/i18n/i18n.ts';
import { staleReads } from '../../core/services.ts';
import { searchSelectable } from '../components/company-table.tsx';
import { CompareSelected } from '../components/comparison-actions.tsx';
import { ExportLink } from '../components/export-link.tsx';
import { HiddenFields } from '../components/hidden-fields.tsx';
import { useSuggestAttribute } from '../components/suggest-script.tsx';
import { TableViewActions } from '../components/table-view-actions.tsx';
import { SearchUserActions } from '../components/user-data.tsx';
import { pageMeta } from '../meta.ts';
import {
  keepSearchPage,
  keepsSearchPages,
  keptSearchPage,
  renderSearchParts,
  searchPageKey,
} from '../presenters/profile-parts.server.tsx';
import { loadSearchPage, sectionOfUrl } from '../presenters/search-page.server.ts';
import { savedTableView, tableView, tableViewChange } from '../presenters/table-view.server.ts';
import { searchUserData } from '../presenters/user-data.server.ts';
import { serverRendered } from '../server-rendered.ts';
import { authContext, servicesContext } from '../services.ts';
import type { Route } from './+types/search';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  // One module serves every section: /{section}/search/…
  const section = sectionOfUrl(url);
  const cookie = request.headers.get('cookie');
  const change = tableViewChange(url, cookie, section, url.protocol === 'https:');
  if (change) throw redirect(change.location, { headers: { 'set-cookie': change.setCookie } });
  try {
    const saved = await savedTableView(context, section);
    const view = tableView(cookie, section, saved.fallback);
    // The contact details the viewer bought show in the Contacts and Connections rows (ADR 0029).
    const viewer = context.get(authContext)?.user.id;
    // The page as kept for this search, view and data version (ADR 0043, "Search pages kept by data
    // version"): on a repeat, no search is sent and the filter side and the table are not rendered again.
    const key = keepsSearchPages(section)
      ? await searchPageKey(staleReads(services), services.siteUrl, lang, url, view)
      : null;
    let parts = key ? keptSearchPage(key) : undefined;
    if (!parts) {
      const found = await loadSearchPage(services, lang, url, params['*'], section, view, viewer);
      // A pasted identifier that one company holds opens its profile (ADR 0002, "Identifiers").
      if (found.goTo) throw redirect(found.goTo);
      parts = renderSearchParts(found, lang);
      // A search with a bound left out (a 400) is not kept.
      if (key && !found.invalidFilters) keepSearchPage(key, parts);
    }
    const { page } = parts;
    // ---- user data: a signed-in user's search history and lists; null for guests ----
    // A search with a bound left out is shown to be corrected, not kept in the history.
    const user = page.invalidFilters ? null : await searchUserData(context, page, url);
    // This page never hydrates: its view model is read by the server render only, not encoded for
    // the browser (app/server-rendered.ts).
    const loaded = serverRendered(
      {
        tableViewSaved: saved.hasSaved,
        here: `${url.pathname}${url.search}`,
        seo: {
          siteUrl: services.siteUrl,
          lang,
          path: page.canonicalPath,
          title: page.title,
          description: page.description,
        },
      },
      // The images of the kept parts (flags) go in the head's preloads (root.tsx), as when React saw them in this render.
      { page, parts, user, headImages: parts.preloads },
    );
    return page.invalidFilters ? data(loaded, { status: 400 }) : loaded;
  } catch (error) {
    if (error instanceof AppError && error.code === 'bad_request')
      throw data({ message: error.message }, { status: 400 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function SectionSearch({ loaderData }: Route.ComponentProps) {
  const { page, parts, user } = loaderData;
  const { t } = useTranslation();
  const suggestAttribute = useSuggestAttribute();
  // ---- user data: companies can be ticked and added to a list ----
  const selectable = searchSelectable(page.section, t);
  return (
    <div className="search-page">
      <h1>{page.title}</h1>
      {/* ---- layout (ADR 0022): the search box first, then results, the filters a panel above them on a phone ---- */}
      {page.hasQuery ? (
        <search>
          <form method="get" action={page.clearHref} className="search-bar">
            <label htmlFor="q" className="visually-hidden">
              {t('search.query')}
            </label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={page.q}
              placeholder={t('home.searchPlaceholder')}
              data-suggest={suggestAttribute}
            />
            <HiddenFields params={page.carry.search} />
            <button type="submit">{t('search.submit')}</button>
          </form>
        </search>
      ) : null}
      <nav className="section-nav" aria-label={t('search.sections')}>
        <ul>
          {page.sections.map((s) => (
            <li key={s.id}>
              <a href={s.href} aria-current={s.id === page.section ? 'page' : undefined}>
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="search-layout">
        <details className="search-filters" data-wide-open="">
          <summary>
            {t('search.filters')}
            {page.chips.length > 0 ? ` (${page.chips.length})` : ''}
          </summary>
          {/* The filter panel and the facets, rendered apart (renderSearchParts). */}
          <div className="search-side" dangerouslySetInnerHTML={{ __html: parts.side }} />
        </details>
        <section className="results" aria-labelledby="results-count">
          <div className="results-bar">
            <p id="results-count" className="count" aria-live="polite">
              {page.totalText}
            </p>
            <a href={page.advancedHref}>{t('advanced.link')}</a>
            <form method="get" action={page.clearHref} className="sort">
              <HiddenFields params={page.carry.sort} />
              <label htmlFor="sort">{t('search.sort')}</label>
              <select id="sort" name="sort" defaultValue={page.sort}>
                {page.sortOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              <button type="submit" className="secondary">
                {t('search.applySort')}
              </button>
            </form>
          </div>
          {page.notice ? (
            <p className="search-notice" role="status">
              {page.notice}
            </p>
          ) : null}
          {page.chips.length > 0 ? (
            <ul className="chips" aria-label={t('search.activeFilters')}>
              {page.chips.map((c) => (
                <li key={c.label}>
                  {c.label}{' '}
                  <a href={c.removeHref} aria-label={t('search.removeFilter', { name: c.label })}>
                    ×
                  </a>
                </li>
              ))}
              <li>
                <a href={page.clearHref}>{t('search.clear')}</a>
              </li>
            </ul>
          ) : null}
          {/* ---- results on a phone: what can be done with the results, behind one button
               there (a <details>, no script), open on a wide screen (app/islands/narrow-panels.js) ---- */}
          <details className="bulk-actions" data-wide-open="">
            <summary>{t('table.actions')}</summary>
            <div className="bulk-actions-body">
              {/* ---- export: this search (or its ticked rows) as a file ---- */}
              <ExportLink select={selectable ? `input[name="ids"][form="${selectable.form}"]` : undefined} />
              {/* ---- user data: add ticked companies to a list, save this search ---- */}
              <SearchUserActions
                user={user}
                canSelect={selectable !== undefined && parts.rowCount > 0}
                trackQuery={page.section === 'companies' ? page.canonicalPath : undefined}
              />
              {/* ---- comparison: add ticked companies to the comparison ---- */}
              {selectable && parts.rowCount > 0 ? (
                <CompareSelected form={selectable.form} signedIn={user !== null} />
              ) : null}
            </div>
          </details>
          {parts.rowCount === 0 ? (
            <div className="empty">
              <p>
                <strong>{page.hasQuery ? t('search.noResults') : t('search.noRecords')}</strong>
              </p>
              <p>{t('search.noResultsHint')}</p>
            </div>
          ) : (
            // The results table, rendered apart (renderSearchParts).
            <div className="row-cards" dangerouslySetInnerHTML={{ __html: parts.table }} />
          )}
          <details className="table-view" data-pref="table-view">
            <summary>{t('table.settings')}</summary>
            <form method="get" action={page.clearHref}>
              <HiddenFields params={page.carry.view} />
              <input type="hidden" name="table" value="1" />
              <fieldset>
                <legend>{t('table.style')}</legend>
                {page.tableStyles.map((style) => (
                  <label key={style}>
                    <input type="radio" name="style" value={style} defaultChecked={style === page.tableStyle} />{' '}
                    {t(`table.${style}`)}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>{t('table.columns')}</legend>
                {page.columnChoices.map((c) => (
                  <label key={c.key}>
                    <input type="checkbox" name="columns" value={c.key} defaultChecked={c.shown} /> {c.label}
                  </label>
                ))}
              </fieldset>
              <button type="submit" className="secondary">
                {t('table.apply')}
              </button>
            </form>
            {/* ---- user data: save this view as the user's default, or go back to it ---- */}
            <TableViewActions
              section={page.section}
              style={page.tableStyle}
              columns={page.columnChoices.filter((c) => c.shown).map((c) => c.key)}
              here={loaderData.here}
              hasSaved={loaderData.tableViewSaved}
              signedIn={user !== null}
            />
          </details>
          <nav className="pagination" aria-label={t('search.pagination')}>
            {page.prevHref ? (
              <a href={page.prevHref} rel="prev">
                ← {t('search.previous')}
              </a>
            ) : (
              <span />
            )}
            <span>
              {page.pages
                ? t('searchUx.pageOf', { page: page.page, pages: page.pages })
                : t('search.page', { page: page.page })}
            </span>
            {page.nextHref ? (
              <a href={page.nextHref} rel="next">
                {t('search.next')} →
              </a>
            ) : (
              <span />
            )}
          </nav>
          {/* ---- search UX (ADR 0022): go to a page by its number, when the count is known ---- */}
          {page.pages && page.pages > 1 ? (
            <form method="get" action={page.clearHref} className="page-jump">
              <HiddenFields params={page.carry.jump} />
              <label htmlFor="page-jump">{t('searchUx.goToPage')}</label>
              <input
                id="page-jump"
                name="page"
                type="number"
                min={1}
                max={page.pages}
                defaultValue={page.page}
                inputMode="numeric"
              />
              <button type="submit" className="secondary">
                {t('searchUx.go')}
              </button>
            </form>
          ) : null}
        </section>
      </div>
    </div>
  );
}
