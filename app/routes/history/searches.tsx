import { useTranslation } from 'react-i18next';
import { clearSearches, deleteSearch, listSearches } from '../../../core/history/search-history.ts';
import { HistoryPage } from '../../components/history.tsx';
import { pageMeta } from '../../meta.ts';
import { presentKeptSearches } from '../../presenters/search-summary.server.ts';
import { historyAction, loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/searches';

// The searches a user made in any section (spec §2 "Search history": Date, Query, Results; on the
// dashboard "Searches history": Searched on, Query, Results), at /companies/history/search/ and
// /dashboard/history/search/companies/; each query runs its search again; filters, delete, clear.

export function loader(args: Route.LoaderArgs) {
  return loadHistoryPage(args, {
    titleKey: 'history.search.title',
    descriptionKey: 'history.search.description',
    columns: (p, path) => [
      path.startsWith('/dashboard/') ? p.t('history.columns.searchedOn') : p.t('history.columns.date'),
      p.t('history.columns.query'),
      p.t('history.columns.results'),
    ],
    list: listSearches,
    present: (entries, services, p) => presentKeptSearches(services, p, entries),
    row: (entry, p, search) => ({
      id: entry.id,
      name: search.text,
      cells: [
        { text: p.date(entry.created_at.slice(0, 10)), dateTime: entry.created_at },
        { text: search.text, href: search.href },
        { text: search.results, number: true },
      ],
    }),
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return historyAction(request, context, clearSearches, deleteSearch);
}

export default function SearchHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <HistoryPage
      data={loaderData}
      texts={{
        title: t('history.search.title'),
        queryLabel: t('history.findSearch'),
        empty: t('history.search.empty'),
        clearConfirm: t('history.search.clearConfirm'),
      }}
    />
  );
}
