import { useTranslation } from 'react-i18next';
import { countCompaniesByJurisdiction } from '../../../core/companies/count-companies.ts';
import { isLang } from '../../../core/i18n/i18n.ts';
import { flagCodeOf } from '../../../core/reference/reference-data.ts';
import { staleReads } from '../../../core/services.ts';
import { JurisdictionChart } from '../../components/charts/company-charts.tsx';
import { Flag } from '../../components/flag.tsx';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { loadCompanyStatistics } from '../../presenters/statistics.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/jurisdictions';

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const p = presenter(services.reference, lang);
  const [counts, statistics] = await Promise.all([
    countCompaniesByJurisdiction(staleReads(services)),
    loadCompanyStatistics(services, lang),
  ]);
  const entries = [...counts.entries()]
    .map(([id, count]) => {
      const location = services.reference.locations.byId.get(id);
      return {
        id,
        name: p.name(location),
        flag: flagCodeOf(services.reference, id),
        count: p.number(count),
        isCountry: location?.location_type_id === 1,
        href: p.path(`/companies/search/f/jurisdiction-${location?.uri}-${id}/`),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, lang));
  return {
    statistics: { total: statistics.total, jurisdictions: statistics.jurisdictions },
    countries: entries.filter((e) => e.isCountry),
    subdivisions: entries.filter((e) => !e.isCountry),
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/companies/directories/jurisdictions/',
      title: `${p.t('directories.jurisdictionsTitle')} — Registra`,
      description: p.t('directories.jurisdictionsDescription'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

type Entry = { id: number; name: string; flag: string; count: string; href: string };

function EntryList({ entries }: { entries: Entry[] }) {
  return (
    <ul className="directory">
      {entries.map((e) => (
        <li key={e.id}>
          <a href={e.href}>
            <Flag code={e.flag} />
            {e.name}
          </a>{' '}
          <span className="count">{e.count}</span>
        </li>
      ))}
    </ul>
  );
}

export default function Jurisdictions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="directory-page">
      <h1>{t('directories.jurisdictionsTitle')}</h1>
      <p>{t('directories.jurisdictionsDescription')}</p>
      <JurisdictionChart jurisdictions={loaderData.statistics.jurisdictions} total={loaderData.statistics.total} />
      <h2>{t('directories.country')}</h2>
      <EntryList entries={loaderData.countries} />
      <h2>{t('directories.subdivisions')}</h2>
      <EntryList entries={loaderData.subdivisions} />
    </div>
  );
}
