import { useTranslation } from 'react-i18next';
import { clearSearches, deleteSearch, listSearches } from '../../../core/history/search-history.ts';
import { sectionById } from '../../../core/sections/sections.ts';
import { RowAction } from '../../components/account-form.tsx';
import { ClearHistory, HistoryFilters, HistoryPager } from '../../components/history.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { unprefixedPath } from '../../i18n/i18n.ts';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { historyAction, historyQuery, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/searches';

// The searches a user made in any section (spec §2 "Search history": Date, Query, Results; on the
// dashboard "Searches history": Searched on, Query, Results), at /companies/history/search/ and
// /dashboard/history/search/companies/; each query runs its search again; filters, delete, clear.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const path = unprefixedPath(url.pathname);
  const filters = historyQuery(url);
  const page = await listSearches(db, auth.user.id, filters.query);
  return {
    seo: userPageSeo(context, lang, path, 'history.search.title', 'history.search.description'),
    dateLabel: path.startsWith('/dashboard/') ? p.t('history.columns.searchedOn') : p.t('history.columns.date'),
    action: p.path(path),
    filters: filters.values,
    done: url.searchParams.get('done'),
    count: Number(url.searchParams.get('count') ?? '0') || 0,
    rows: page.data.map((entry) => {
      const section = sectionById(entry.section);
      const title = section ? p.label(section.title) : entry.section;
      return {
        id: entry.id,
        searchedOn: p.date(entry.created_at.slice(0, 10)),
        searchedAt: entry.created_at,
        query: entry.summary ? `${title}: ${entry.summary}` : title,
        href: p.path(entry.query),
        results: p.number(entry.results),
      };
    }),
    nextHref: page.next ? `${p.path(path)}?${filters.withParams({ after: String(page.next) })}` : null,
    firstHref: filters.query.after !== undefined ? `${p.path(path)}?${filters.withParams({})}` : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return historyAction(request, context, clearSearches, deleteSearch);
}

export default function SearchHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows } = loaderData;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('history.search.title')}</h1>
      {loaderData.done ? (
        <Notice>{t(`history.done.${loaderData.done}`, { count: loaderData.count, defaultValue: '' })}</Notice>
      ) : null}
      <HistoryFilters action={loaderData.action} values={loaderData.filters} queryLabel={t('history.findSearch')} />
      {rows.length === 0 ? (
        <p className="empty">{loaderData.filters.active ? t('history.noMatch') : t('history.search.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{loaderData.dateLabel}</th>
                <th scope="col">{t('history.columns.query')}</th>
                <th scope="col">{t('history.columns.results')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td data-label={loaderData.dateLabel}>
                    <time dateTime={row.searchedAt}>{row.searchedOn}</time>
                  </td>
                  <td data-label={t('history.columns.query')}>
                    <a href={row.href}>{row.query}</a>
                  </td>
                  <td data-label={t('history.columns.results')} className="number">
                    {row.results}
                  </td>
                  <td className="row-actions">
                    <RowAction
                      action={loaderData.action}
                      intent="delete"
                      fields={{ id: row.id }}
                      label={t('history.deleteOne', { name: row.query })}
                    >
                      {t('history.delete')}
                    </RowAction>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <HistoryPager firstHref={loaderData.firstHref} nextHref={loaderData.nextHref} />
      {rows.length > 0 ? <ClearHistory action={loaderData.action} confirm={t('history.search.clearConfirm')} /> : null}
    </div>
  );
}
