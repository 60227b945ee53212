import { useTranslation } from 'react-i18next';
import { companiesOfReports, listNewCompaniesReports, reportRangeOf } from '../../../core/monitoring/reports.ts';
import { MonitoringPage } from '../../components/monitoring.tsx';
import { pageMeta } from '../../meta.ts';
import { intParam, loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/new-reports';

// /companies/monitoring/new/reports/: the new companies found for the user's trackings (spec §2
// "New-company reports": Created on, Tracking, New companies), the companies linked to their
// profiles; `?tracking=` keeps one tracking's reports, `?reports=` one run's.

/** Companies a row names before "and N more". */
const SHOWN = 10;

export function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const tracking = intParam(url, 'tracking');
  // `?reports=` keeps the reports of one run: what a notification or the digest email links to.
  const reports = reportRangeOf(url.searchParams.get('reports'));
  return loadHistoryPage(args, {
    keep: {
      ...(tracking ? { tracking: String(tracking) } : {}),
      ...(reports ? { reports: url.searchParams.get('reports') ?? '' } : {}),
    },
    titleKey: 'monitoring.newReports.title',
    descriptionKey: 'monitoring.newReports.description',
    columns: (p) => [
      p.t('monitoring.columns.createdOn'),
      p.t('monitoring.columns.tracking'),
      p.t('monitoring.columns.newCompanies'),
    ],
    list: (db, userId, query) =>
      listNewCompaniesReports(db, userId, { ...query, tracking_id: tracking, reports: reports ?? undefined }),
    present: async (reports, services) => {
      const companies = await companiesOfReports(
        services.db,
        reports.flatMap((r) => r.company_ids.slice(0, SHOWN)),
      );
      return reports.map(() => companies);
    },
    row: (report, p, companies) => {
      const shown = report.company_ids.slice(0, SHOWN).flatMap((id) => {
        const company = companies.get(id);
        return company ? [{ text: company.name, href: p.companyHref(company.uri) }] : [];
      });
      const more = report.companies - shown.length;
      return {
        id: report.id,
        name: report.tracking,
        cells: [
          { text: p.date(report.created_on.slice(0, 10)), dateTime: report.created_on },
          { text: report.tracking },
          {
            text: String(report.companies),
            lines: more > 0 ? [...shown, { text: p.t('monitoring.newReports.more', { count: more }) }] : shown,
          },
        ],
      };
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function NewCompaniesReports({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <MonitoringPage
      data={loaderData}
      texts={{
        title: t('monitoring.newReports.title'),
        queryLabel: t('monitoring.new.find'),
        empty: t('monitoring.newReports.empty'),
      }}
    />
  );
}
