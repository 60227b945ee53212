import { useTranslation } from 'react-i18next';
import { listExistingTrackings } from '../../../core/monitoring/existing-trackings.ts';
import { MonitoringPage } from '../../components/monitoring.tsx';
import { pageMeta } from '../../meta.ts';
import { reportsCell, sectionsCell, statusText, trackingAction } from '../../presenters/monitoring.server.ts';
import { loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/updates';

// /companies/monitoring/updates/: the companies a user tracks (spec §2 "Monitoring updates":
// Legal name, Jurisdiction, Monitoring status, Reports), with pause, resume and stop tracking,
// and what each reports (everything, or the parts chosen: docs/decisions/0027-monitored-records.md).

export function loader(args: Route.LoaderArgs) {
  return loadHistoryPage(args, {
    titleKey: 'monitoring.updates.title',
    descriptionKey: 'monitoring.updates.description',
    columns: (p) => [
      p.t('monitoring.columns.legalName'),
      p.t('monitoring.columns.jurisdiction'),
      p.t('monitoring.columns.status'),
      p.t('monitoring.columns.sections'),
      p.t('monitoring.columns.reports'),
    ],
    list: listExistingTrackings,
    row: (tracking, p) => {
      const name = tracking.company?.name ?? p.t('monitoring.updateReports.gone');
      return {
        id: tracking.id,
        name,
        status: tracking.status,
        cells: [
          { text: name, href: tracking.company ? p.companyHref(tracking.company.uri) : null },
          tracking.company ? p.jurisdiction(tracking.company.jurisdiction_id) : { text: '' },
          { text: statusText(p, tracking.status) },
          sectionsCell(p, tracking),
          reportsCell(
            p,
            tracking.reports,
            `${p.path('/companies/monitoring/updates/reports/')}?tracking=${tracking.id}`,
          ),
        ],
      };
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return trackingAction(request, context, 'existing');
}

export default function MonitoringUpdates({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <MonitoringPage
      data={loaderData}
      trackings
      texts={{
        title: t('monitoring.updates.title'),
        queryLabel: t('monitoring.updates.find'),
        empty: t('monitoring.updates.empty'),
      }}
    />
  );
}
