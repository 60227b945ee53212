import { useTranslation } from 'react-i18next';
import { UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import type { Route } from './+types/purchases';

// /dashboard/history/purchases/profiles/companies/ (spec §2 "Purchases history": Company,
// Jurisdiction, Purchased on). Profiles cannot be bought yet, so the history is empty for everyone.

export function loader({ params, context }: Route.LoaderArgs) {
  requireUser(context);
  const lang = langOf(params);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/history/purchases/profiles/companies/',
      'history.purchases.title',
      'history.purchases.description',
    ),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function PurchasesHistory() {
  const { t } = useTranslation();
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('history.purchases.title')}</h1>
      <div className="table-wrap">
        <table className="results-table style-2">
          <thead>
            <tr>
              <th scope="col">{t('history.columns.company')}</th>
              <th scope="col">{t('columns.jurisdiction')}</th>
              <th scope="col">{t('history.columns.purchasedOn')}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td colSpan={3} className="empty">
                {t('history.purchases.empty')}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}
