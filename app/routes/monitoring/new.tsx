import { useTranslation } from 'react-i18next';
import { localePath } from '../../../core/i18n/i18n.ts';
import { listNewTrackings } from '../../../core/monitoring/new-trackings.ts';
import { MonitoringPage } from '../../components/monitoring.tsx';
import { pageMeta } from '../../meta.ts';
import { reportsCell, statusText, trackingAction } from '../../presenters/monitoring.server.ts';
import { loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/new';

// /companies/monitoring/new/: the searches a user tracks for new companies (spec §2 "New-company
// monitoring": Name, Monitoring status, Reports), with pause, resume and delete.

export function loader(args: Route.LoaderArgs) {
  return loadHistoryPage(args, {
    titleKey: 'monitoring.new.title',
    descriptionKey: 'monitoring.new.description',
    columns: (p) => [
      p.t('monitoring.columns.name'),
      p.t('monitoring.columns.status'),
      p.t('monitoring.columns.reports'),
    ],
    list: listNewTrackings,
    row: (tracking, p) => ({
      id: tracking.id,
      name: tracking.name,
      status: tracking.status,
      cells: [
        { text: tracking.name, href: p.path(tracking.query) },
        { text: statusText(p, tracking.status) },
        reportsCell(p, tracking.reports, `${p.path('/companies/monitoring/new/reports/')}?tracking=${tracking.id}`),
      ],
    }),
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return trackingAction(request, context, 'new');
}

export default function NewCompanyMonitoring({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <MonitoringPage
      data={loaderData}
      trackings
      addHref={localePath(loaderData.seo.lang, '/companies/monitoring/new/add/')}
      texts={{
        title: t('monitoring.new.title'),
        queryLabel: t('monitoring.new.find'),
        empty: t('monitoring.new.empty'),
      }}
    />
  );
}
