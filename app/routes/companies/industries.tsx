import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import { countCompaniesByIndustry } from '../../../core/companies/count-companies.ts';
import { isLang } from '../../../core/i18n/i18n.ts';
import { industryPath } from '../../../core/reference/reference-data.ts';
import { staleReads } from '../../../core/services.ts';
import { SectorChart } from '../../components/charts/company-charts.tsx';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { loadCompanyStatistics } from '../../presenters/statistics.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/industries';

/** /companies/directories/industries/ (sectors) and …/f/{industry_uri}-{industry_id}/ (one industry's children). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { reference } = services;
  const lang = isLang(params.lang) ? params.lang : 'en';
  const p = presenter(reference, lang);
  let current: ReturnType<typeof reference.industries.byId.get>;
  if (params.industry !== undefined) {
    const m = /^(.*)-(\d+)$/.exec(params.industry);
    current = m ? reference.industries.byId.get(Number(m[2])) : undefined;
    if (!current) throw data({ message: 'industry not found' }, { status: 404 });
  }
  const [counts, statistics] = await Promise.all([
    countCompaniesByIndustry(staleReads(services), reference),
    // The sector chart is on the top-level page only.
    current ? null : loadCompanyStatistics(services, lang),
  ]);
  const children = current
    ? current.children.map((id) => reference.industries.byId.get(id)!)
    : reference.industries.items.filter((i) => i.level === 1);
  const entries = children
    .map((i) => ({
      id: i.id,
      code: i.code,
      name: p.name(i),
      count: counts.get(i.id) ?? 0,
      href:
        i.children.length > 0
          ? p.path(`/companies/directories/industries/f/${i.uri}-${i.id}/`)
          : p.path(`/companies/search/f/industry-${i.uri}-${i.id}/`),
      searchHref: p.path(`/companies/search/f/industry-${i.uri}-${i.id}/`),
    }))
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((e) => ({ ...e, count: p.number(e.count) }));
  const name = current ? p.name(current) : '';
  const path = current
    ? `/companies/directories/industries/f/${current.uri}-${current.id}/`
    : '/companies/directories/industries/';
  return {
    title: current ? p.t('directories.industryTitle', { industry: name }) : p.t('directories.industriesTitle'),
    current: current
      ? {
          count: p.number(counts.get(current.id) ?? 0),
          searchHref: p.path(`/companies/search/f/industry-${current.uri}-${current.id}/`),
          breadcrumbs: industryPath(reference, current.id)
            .slice(0, -1)
            .map((i) => ({ name: p.name(i), href: p.path(`/companies/directories/industries/f/${i.uri}-${i.id}/`) })),
        }
      : null,
    entries,
    statistics: statistics ? { total: statistics.total, sectors: statistics.sectors } : null,
    allHref: p.path('/companies/directories/industries/'),
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path,
      title: `${current ? p.t('directories.industryTitle', { industry: name }) : p.t('directories.industriesTitle')} — Registra`,
      description: current
        ? p.t('directories.industryDescription', { industry: name })
        : p.t('directories.industriesDescription'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Industries({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { current } = loaderData;
  return (
    <div className="directory-page">
      {current ? (
        <nav className="breadcrumbs" aria-label="breadcrumbs">
          <a href={loaderData.allHref}>{t('directories.allIndustries')}</a>
          {current.breadcrumbs.map((b) => (
            <span key={b.href}>
              {' › '}
              <a href={b.href}>{b.name}</a>
            </span>
          ))}
        </nav>
      ) : null}
      <h1>{loaderData.title}</h1>
      {current ? (
        <p>
          <a href={current.searchHref}>{t('search.results', { count: Number(current.count.replace(/\D/g, '')) })} →</a>
        </p>
      ) : (
        <p>{t('directories.industriesDescription')}</p>
      )}
      {loaderData.statistics ? (
        <SectorChart sectors={loaderData.statistics.sectors} total={loaderData.statistics.total} />
      ) : null}
      {loaderData.entries.length > 0 ? (
        <>
          {current ? <h2>{t('directories.subIndustries')}</h2> : null}
          <ul className="directory">
            {loaderData.entries.map((e) => (
              <li key={e.id}>
                <a href={e.href}>{e.name}</a> <span className="count">{e.count}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
