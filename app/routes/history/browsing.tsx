import { useTranslation } from 'react-i18next';
import { clearCompanyViews, deleteCompanyView, listCompanyViews } from '../../../core/history/browsing-history.ts';
import { RowAction } from '../../components/account-form.tsx';
import { ClearHistory, HistoryFilters, HistoryPager } from '../../components/history.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { unprefixedPath } from '../../i18n/i18n.ts';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { historyAction, historyQuery, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/browsing';

// The companies a user opened (spec §2 "Views history": Viewed on, Legal name, Jurisdiction), at
// /companies/history/browsing/ and /dashboard/history/views/companies/; filters, delete, clear.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const path = unprefixedPath(url.pathname);
  const filters = historyQuery(url);
  const page = await listCompanyViews(db, auth.user.id, filters.query);
  return {
    seo: userPageSeo(context, lang, path, 'history.browsing.title', 'history.browsing.description'),
    action: p.path(path),
    filters: filters.values,
    done: url.searchParams.get('done'),
    count: Number(url.searchParams.get('count') ?? '0') || 0,
    rows: page.data.map((entry) => {
      const jurisdiction = entry.company ? p.jurisdiction(entry.company.jurisdiction_id) : null;
      return {
        id: entry.id,
        viewedOn: p.date(entry.created_at.slice(0, 10)),
        viewedAt: entry.created_at,
        name: entry.company?.name ?? p.t('history.goneCompany'),
        href: entry.company ? p.companyHref(entry.company.uri) : null,
        jurisdiction: jurisdiction ? `${jurisdiction.flag ?? ''} ${jurisdiction.text}`.trim() : '',
      };
    }),
    nextHref: page.next ? `${p.path(path)}?${filters.withParams({ after: String(page.next) })}` : null,
    firstHref: filters.query.after !== undefined ? `${p.path(path)}?${filters.withParams({})}` : null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return historyAction(request, context, clearCompanyViews, deleteCompanyView);
}

export default function BrowsingHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { rows } = loaderData;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('history.browsing.title')}</h1>
      {loaderData.done ? (
        <Notice>{t(`history.done.${loaderData.done}`, { count: loaderData.count, defaultValue: '' })}</Notice>
      ) : null}
      <HistoryFilters action={loaderData.action} values={loaderData.filters} queryLabel={t('history.findCompany')} />
      {rows.length === 0 ? (
        <p className="empty">{loaderData.filters.active ? t('history.noMatch') : t('history.browsing.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('history.columns.viewedOn')}</th>
                <th scope="col">{t('columns.legal_name')}</th>
                <th scope="col">{t('columns.jurisdiction')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td data-label={t('history.columns.viewedOn')}>
                    <time dateTime={row.viewedAt}>{row.viewedOn}</time>
                  </td>
                  <td data-label={t('columns.legal_name')}>
                    {row.href ? <a href={row.href}>{row.name}</a> : row.name}
                  </td>
                  <td data-label={t('columns.jurisdiction')}>{row.jurisdiction}</td>
                  <td className="row-actions">
                    <RowAction
                      action={loaderData.action}
                      intent="delete"
                      fields={{ id: row.id }}
                      label={t('history.deleteOne', { name: row.name })}
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
      {rows.length > 0 ? (
        <ClearHistory action={loaderData.action} confirm={t('history.browsing.clearConfirm')} />
      ) : null}
    </div>
  );
}
