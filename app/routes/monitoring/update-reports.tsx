import { useTranslation } from 'react-i18next';
import { listUpdateReports, reportRangeOf } from '../../../core/monitoring/reports.ts';
import { MonitoringPage } from '../../components/monitoring.tsx';
import { pageMeta } from '../../meta.ts';
import { loadReportWords, reportChangesView } from '../../presenters/change-lines.server.ts';
import { intParam, loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/update-reports';

// /companies/monitoring/updates/reports/: what changed in the tracked companies (spec §2 "Update
// reports": Created on, Legal name, Jurisdiction, Updates), each change in words with its dates and
// source, linking to the company's history at its field; the fields a source filled for the first
// time folded in one group (docs/decisions/0026-changes-in-words.md); `?tracking=` keeps one
// tracking's reports, `?reports=` one run's.

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
    titleKey: 'monitoring.updateReports.title',
    descriptionKey: 'monitoring.updateReports.description',
    columns: (p) => [
      p.t('monitoring.columns.createdOn'),
      p.t('monitoring.columns.legalName'),
      p.t('monitoring.columns.jurisdiction'),
      p.t('monitoring.columns.updates'),
    ],
    list: (db, userId, query) =>
      listUpdateReports(db, userId, { ...query, tracking_id: tracking, reports: reports ?? undefined }),
    // The legal forms the page's changes name, read once for the page.
    present: async (reports, services, p) => {
      const words = await loadReportWords(services.db, p, reports);
      return reports.map(() => words);
    },
    row: (report, p, words) => {
      const name = report.company?.name ?? p.t('monitoring.updateReports.gone');
      return {
        id: report.id,
        name,
        cells: [
          { text: p.date(report.created_on.slice(0, 10)), dateTime: report.created_on },
          { text: name, href: report.company ? p.companyHref(report.company.uri) : null },
          report.company ? p.jurisdiction(report.company.jurisdiction_id) : { text: '' },
          { text: String(report.updates), changes: reportChangesView(p, words, report) },
        ],
      };
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function UpdateReports({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <MonitoringPage
      data={loaderData}
      texts={{
        title: t('monitoring.updateReports.title'),
        queryLabel: t('monitoring.updates.find'),
        empty: t('monitoring.updateReports.empty'),
      }}
    />
  );
}
