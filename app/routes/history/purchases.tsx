import { useTranslation } from 'react-i18next';
import { clearPurchaseHistory, listPurchases, setPurchaseHidden } from '../../../core/purchases/purchases.ts';
import { HistoryPage } from '../../components/history.tsx';
import { pageMeta } from '../../meta.ts';
import { historyAction, loadHistoryPage } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/purchases';

// /dashboard/history/purchases/profiles/companies/ (spec §2 "Purchases history": Company,
// Jurisdiction, Purchased on); filters, remove and clear. Removing hides a purchase from the
// history: the profile stays bought (core/purchases/purchases.ts).

export function loader(args: Route.LoaderArgs) {
  return loadHistoryPage(args, {
    titleKey: 'history.purchases.title',
    descriptionKey: 'history.purchases.description',
    columns: (p) => [p.t('history.columns.company'), p.t('columns.jurisdiction'), p.t('history.columns.purchasedOn')],
    list: listPurchases,
    row: (purchase, p) => {
      const name = purchase.company?.name ?? p.t('history.goneCompany');
      return {
        id: purchase.id,
        name,
        cells: [
          { text: name, href: purchase.company ? p.companyHref(purchase.company.uri) : null },
          purchase.company ? p.jurisdiction(purchase.company.jurisdiction_id) : { text: '' },
          { text: p.date(purchase.created_at.slice(0, 10)), dateTime: purchase.created_at },
        ],
      };
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export function action({ request, context }: Route.ActionArgs) {
  return historyAction(request, context, clearPurchaseHistory, (db, userId, id) =>
    setPurchaseHidden(db, userId, id, true),
  );
}

export default function PurchasesHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <HistoryPage
      data={loaderData}
      texts={{
        title: t('history.purchases.title'),
        queryLabel: t('history.findCompany'),
        empty: t('history.purchases.empty'),
        clearConfirm: t('history.purchases.clearConfirm'),
      }}
    />
  );
}
