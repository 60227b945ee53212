import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { currentCompanyUri } from '../../../core/companies/company-uri.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { isChangeField } from '../../../core/imports/fields.ts';
import { HISTORY_MAX_PAGE } from '../../../core/limits.ts';
import { staleReads } from '../../../core/services.ts';
import { ChangeValue } from '../../components/change-lines.tsx';
import { pageMeta } from '../../meta.ts';
import { loadCompanyHistoryPage } from '../../presenters/company-history.server.ts';
import { serverRendered } from '../../server-rendered.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/history';

/** The History tab's query: `field` (a change field of core/imports/fields.ts: a company's or a record section's) and `page` (from 1). */
function historyQuery(url: URL): { field: string | null; page: number } {
  const field = url.searchParams.get('field') || null;
  if (field !== null && field !== 'company' && !isChangeField(field)) {
    throw data({ message: `field: unknown field "${field.slice(0, 60)}"` }, { status: 400 });
  }
  const pageText = url.searchParams.get('page');
  const page = pageText === null || pageText === '' ? 1 : Number(pageText);
  if (!Number.isInteger(page) || page < 1 || page > HISTORY_MAX_PAGE) {
    throw data({ message: `page: a whole number from 1 to ${HISTORY_MAX_PAGE}` }, { status: 400 });
  }
  return { field, page };
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const query = historyQuery(url);
  // Contact details the viewer did not buy are hidden in the changes (ADR 0029).
  const history = await loadCompanyHistoryPage(services, lang, params.uri, query, context.get(authContext)?.user.id);
  if (!history) {
    const current = await currentCompanyUri(staleReads(services), params.uri);
    if (current) {
      throw redirect(localePath(lang, `/companies/details/${encodeURIComponent(current)}/history/${url.search}`), 301);
    }
    throw data({ message: 'company not found' }, { status: 404 });
  }
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: `/companies/details/${encodeURIComponent(history.uri)}/history/`,
        title: history.title,
        description: history.description,
      },
    },
    { history },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CompanyHistory({ loaderData }: Route.ComponentProps) {
  const { history } = loaderData;
  const { t } = useTranslation();
  return (
    <article className="profile company-history">
      <header className="profile-header">
        <h1>{history.title}</h1>
        <p className="muted">{history.description}</p>
      </header>
      <nav className="profile-tabs" aria-label={t('profile.tabs')}>
        <a href={history.profileHref}>{t('profile.tabProfile')}</a>{' '}
        <a href={history.historyHref} aria-current="page">
          {t('profile.tabHistory')}
        </a>
      </nav>
      {history.fields.length > 0 ? (
        <form method="get" action={history.historyHref} className="history-filter">
          <label>
            {t('companyHistory.field')}{' '}
            <select name="field" defaultValue={history.field ?? ''}>
              <option value="">{t('companyHistory.allFields')}</option>
              {history.fields.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="submit">{t('companyHistory.show')}</button>
        </form>
      ) : null}
      {history.total > 0 ? (
        <form method="get" action={history.compareHref} className="as-of-form">
          <label>
            {t('asOf.from')} <input type="date" name="from" required />
          </label>{' '}
          <label>
            {t('asOf.to')} <input type="date" name="to" />
          </label>{' '}
          <button type="submit">{t('asOf.compareDays')}</button>
        </form>
      ) : null}
      <p id="history-count">{history.totalText}</p>
      {history.rows.length === 0 ? (
        <p className="muted">{t('companyHistory.none')}</p>
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">{t('companyHistory.observed')}</th>
              <th scope="col">{t('companyHistory.field')}</th>
              <th scope="col">{t('companyHistory.before')}</th>
              <th scope="col">{t('companyHistory.after')}</th>
              <th scope="col">{t('companyHistory.source')}</th>
            </tr>
          </thead>
          <tbody>
            {history.rows.map((row) => (
              <tr key={row.id} data-change={row.id}>
                <td>{row.observed}</td>
                <td>{row.field}</td>
                <td>
                  {row.firstRecorded ? (
                    <span className="muted">{t('changeWords.firstRecorded')}</span>
                  ) : (
                    <ChangeValue items={row.before} />
                  )}
                </td>
                <td>
                  <ChangeValue items={row.after} />
                </td>
                <td>{row.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {history.newerHref || history.olderHref ? (
        <nav className="pagination" aria-label={t('search.pagination')}>
          {history.newerHref ? <a href={history.newerHref}>← {t('companyHistory.newer')}</a> : <span />}
          {history.olderHref ? (
            <a href={history.olderHref} rel="next">
              {t('companyHistory.older')} →
            </a>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </article>
  );
}
