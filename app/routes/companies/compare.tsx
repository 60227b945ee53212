import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { parseAsOfDay } from '../../../core/companies/as-of.ts';
import { currentCompanyUri } from '../../../core/companies/company-uri.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { staleReads } from '../../../core/services.ts';
import { pageMeta } from '../../meta.ts';
import { loadCompanyComparePage } from '../../presenters/company-history.server.ts';
import { serverRendered } from '../../server-rendered.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/compare';

/**
 * The compare view's query (docs/decisions/0028-company-as-of.md): `from` and `to`, two days, the
 * first not after the second; `to` is today when left out. Anything else is a 400 naming it.
 */
function compareQuery(url: URL): { from: string; to: string } {
  const today = new Date().toISOString().slice(0, 10);
  const day = (name: 'from' | 'to', fallback: string | null) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === '') {
      if (fallback !== null) return fallback;
      throw data({ message: `${name}: a date YYYY-MM-DD is needed` }, { status: 400 });
    }
    const parsed = parseAsOfDay(name, raw);
    if (!parsed.ok) throw data({ message: parsed.message }, { status: 400 });
    return parsed.day;
  };
  const from = day('from', null);
  const to = day('to', today);
  if (from > to) throw data({ message: 'from: a day no later than to' }, { status: 400 });
  return { from, to };
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const query = compareQuery(url);
  // Contact details the viewer did not buy are hidden in the changes (ADR 0029).
  const compare = await loadCompanyComparePage(services, lang, params.uri, query, context.get(authContext)?.user.id);
  if (!compare) {
    const current = await currentCompanyUri(staleReads(services), params.uri);
    if (current) {
      throw redirect(localePath(lang, `/companies/details/${encodeURIComponent(current)}/compare/${url.search}`), 301);
    }
    throw data({ message: 'company not found' }, { status: 404 });
  }
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: `/companies/details/${encodeURIComponent(compare.uri)}/compare/`,
        title: compare.title,
        description: compare.description,
        noindex: true,
      },
    },
    { compare },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CompanyCompare({ loaderData }: Route.ComponentProps) {
  const { compare } = loaderData;
  const { t } = useTranslation();
  return (
    <article className="profile company-compare">
      <header className="profile-header">
        <h1>{compare.title}</h1>
        <p className="muted">{compare.description}</p>
      </header>
      <nav className="profile-tabs" aria-label={t('profile.tabs')}>
        <a href={compare.profileHref}>{t('profile.tabProfile')}</a>{' '}
        <a href={compare.historyHref}>{t('profile.tabHistory')}</a>
      </nav>
      <form method="get" action={compare.compareHref} className="as-of-form">
        <label>
          {t('asOf.from')} <input type="date" name="from" defaultValue={compare.from} required />
        </label>{' '}
        <label>
          {t('asOf.to')} <input type="date" name="to" defaultValue={compare.to} required />
        </label>{' '}
        <button type="submit">{t('asOf.show')}</button>
      </form>
      <p id="compare-count">{compare.countText}</p>
      {compare.rows.length > 0 ? (
        <table className="history-table compare-table">
          <thead>
            <tr>
              <th scope="col">{t('asOf.field')}</th>
              <th scope="col">
                <a href={compare.fromHref}>{compare.beforeLabel}</a>
              </th>
              <th scope="col">
                <a href={compare.toHref}>{compare.afterLabel}</a>
              </th>
            </tr>
          </thead>
          <tbody>
            {compare.rows.map((row) => (
              <tr key={row.field} data-field={row.field}>
                <th scope="row">
                  <a href={row.historyHref}>{row.label}</a>
                </th>
                <td>{row.before}</td>
                <td>{row.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </article>
  );
}
