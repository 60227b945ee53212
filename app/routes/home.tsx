import { useTranslation } from 'react-i18next';
import { findCompanies } from '../../core/companies/find-companies.ts';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import { staleReads } from '../../core/services.ts';
import { useChartFormat } from '../components/charts/chart-format.ts';
import { JurisdictionChart, RegistrationYearChart, StatusChart } from '../components/charts/company-charts.tsx';
import { Flag } from '../components/flag.tsx';
import { SearchBox } from '../components/search-box.tsx';
import { pageMeta } from '../meta.ts';
import { presenter } from '../presenters/present.server.ts';
import { loadCompanyStatistics } from '../presenters/statistics.server.ts';
import type { RouteHandle } from '../root.tsx';
import { servicesContext } from '../services.ts';
import type { Route } from './+types/home';

const SAMPLE_CARDS = 6;

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const p = presenter(services.reference, lang);
  const [result, statistics] = await Promise.all([
    findCompanies(
      staleReads(services),
      services.reference,
      { q: '', filters: [], sort: companiesSection.defaultSort, page: 1 },
      SAMPLE_CARDS,
    ),
    loadCompanyStatistics(services, lang),
  ]);
  const location = (id: number) => services.reference.locations.byId.get(id);
  const cards = result.rows.map((row) => {
    const jurisdiction = p.jurisdiction(row.jurisdiction_id);
    return {
      legalName: row.name,
      jurisdiction: jurisdiction.text,
      flag: jurisdiction.flag,
      countryCode: location(row.jurisdiction_id)?.country_code ?? '',
      status: p.status(row.status_id),
      registeredOn: p.date(row.registered_on),
      href: p.companyHref(row.uri),
    };
  });
  return {
    cards,
    statistics: {
      total: statistics.total,
      jurisdictions: statistics.jurisdictions,
      statuses: statistics.statuses,
      years: statistics.years,
    },
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/',
      title: p.t('home.title', { count: result.total }),
      description: p.t('home.description'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

/** The big box above stands in for the header's: one search box, not two, on the home page (root.tsx). */
export const handle: RouteHandle = { pageSearch: true };

const FEATURES = [
  ['growth', 'growthText'],
  ['productivity', 'productivityText'],
  ['unique', 'uniqueText'],
  ['useCases', 'useCasesText'],
] as const;

export default function Home({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = isLang(params.lang) ? params.lang : 'en';
  const format = useChartFormat();
  const { statistics } = loaderData;
  return (
    <div className="home">
      <section className="hero">
        <h1>{t('home.heading')}</h1>
        <p>{t('site.tagline')}</p>
        <search>
          <SearchBox
            id="home-q"
            label={t('home.searchLabel')}
            placeholder={t('home.searchPlaceholder')}
            submit={t('home.searchButton')}
          />
        </search>
      </section>
      <section className="features">
        {FEATURES.map(([title, text]) => (
          <div key={title} className="feature">
            <h2>{t(`home.${title}`)}</h2>
            <p>{t(`home.${text}`)}</p>
          </div>
        ))}
      </section>
      <section aria-labelledby="statistics" className="statistics">
        <h2 id="statistics">{t('statistics.heading')}</h2>
        <p className="statistics-total">
          <strong>{format.number(statistics.total)}</strong>{' '}
          {t('statistics.totalCompanies', { count: statistics.total })}
        </p>
        <div className="chart-grid">
          <JurisdictionChart jurisdictions={statistics.jurisdictions} total={statistics.total} />
          <StatusChart statuses={statistics.statuses} total={statistics.total} />
          <RegistrationYearChart years={statistics.years} total={statistics.total} />
        </div>
        <p>
          <a href={localePath(lang, '/companies/directories/jurisdictions/')}>{t('statistics.allJurisdictions')} →</a>
          {' · '}
          <a href={localePath(lang, '/companies/directories/industries/')}>{t('statistics.allIndustries')} →</a>
        </p>
      </section>
      <section aria-labelledby="samples">
        <h2 id="samples">{t('home.samples')}</h2>
        <ul className="cards">
          {loaderData.cards.map((card) => (
            <li key={card.href} className="card" data-country={card.countryCode}>
              <h3>
                <a href={card.href}>{card.legalName}</a>
              </h3>
              <p>
                <Flag code={card.flag} />
                {card.jurisdiction}
              </p>
              <p>
                <span className={`badge status-${card.status.tone}`}>{card.status.text}</span> · {card.registeredOn}
              </p>
            </li>
          ))}
        </ul>
        <p>
          <a href={localePath(lang, '/companies/search/')}>{t('home.browseAll')} →</a>
        </p>
      </section>
    </div>
  );
}
