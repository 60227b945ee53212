import { useTranslation } from 'react-i18next';
import { clearCompanyViews, deleteCompanyView, listCompanyViews } from '../../../core/history/browsing-history.ts';
import { HistoryPage } from '../../components/history.tsx';
import { pageMeta } from '../../meta.ts';
import { historyAction, loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/browsing';

// The companies a user opened (spec §2 "Views history": Viewed on, Legal name, Jurisdiction), at
// /companies/history/browsing/ and /dashboard/history/views/companies/; filters, delete, clear.

export function loader(args: Route.LoaderArgs) {
  return loadHistoryPage(args, {
    titleKey: 'history.browsing.title',
    descriptionKey: 'history.browsing.description',
    columns: (p) => [p.t('history.columns.viewedOn'), p.t('columns.legal_name'), p.t('columns.jurisdiction')],
    list: listCompanyViews,
    row: (entry, p) => {
      const name = entry.company?.name ?? p.t('history.goneCompany');
      return {
        id: entry.id,
        name,
        cells: [
          { text: p.date(entry.created_at.slice(0, 10)), dateTime: entry.created_at },
          { text: name, href: entry.company ? p.companyHref(entry.company.uri) : null },
          entry.company ? p.jurisdiction(entry.company.jurisdiction_id) : { text: '' },
        ],
      };
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return historyAction(request, context, clearCompanyViews, deleteCompanyView);
}

export default function BrowsingHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <HistoryPage
      data={loaderData}
      texts={{
        title: t('history.browsing.title'),
        queryLabel: t('history.findCompany'),
        empty: t('history.browsing.empty'),
        clearConfirm: t('history.browsing.clearConfirm'),
      }}
    />
  );
}
