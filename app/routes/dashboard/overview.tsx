import { useTranslation } from 'react-i18next';
import { listCompanyViews } from '../../../core/history/browsing-history.ts';
import { listSearches } from '../../../core/history/search-history.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { countUnread, listNotifications, notificationValues } from '../../../core/notifications/notifications.ts';
import { listWatchlists } from '../../../core/watchlists/watchlists.ts';
import { SETTINGS_PAGES, settingsPath } from '../../components/settings.tsx';
import { UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { balanceOf, creditsText } from '../../presenters/billing.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { presentKeptSearches } from '../../presenters/search-summary.server.ts';
import { settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/overview';

// The dashboard (spec §2 /dashboard/): the user's lists, the profiles and searches of late, and
// how many notifications wait — each a way into its full page.

export const headers = settingsHeaders;

/** Items per block of the overview. */
const RECENT = 5;

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const { db, reference } = services;
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const userId = auth.user.id;
  const [lists, views, searches, unread, latest, balance] = await Promise.all([
    listWatchlists(db, userId, { count: RECENT }),
    listCompanyViews(db, userId, { count: RECENT }),
    listSearches(db, userId, { count: RECENT }),
    countUnread(db, userId),
    listNotifications(db, userId, { count: RECENT, unread: true }),
    balanceOf(db, userId),
  ]);
  return {
    seo: userPageSeo(context, lang, '/dashboard/', 'dashboard.title', 'dashboard.description'),
    name: auth.user.name,
    balance: p.t('billing.dashboard.balance', { credits: creditsText(p, balance ?? 0) }),
    lists: lists.data.map((l) => ({
      id: l.id,
      name: l.name,
      href: p.path(`/companies/lists/${l.number}/`),
      total: l.total_objects,
    })),
    views: views.data.map((v) => ({
      id: v.id,
      name: v.company?.name ?? p.t('history.goneCompany'),
      href: v.company ? p.companyHref(v.company.uri) : null,
      on: p.date(v.created_at.slice(0, 10)),
      at: v.created_at,
    })),
    searches: (await presentKeptSearches(services, p, searches.data)).map((s, i) => ({
      id: searches.data[i].id,
      ...s,
    })),
    unread,
    notifications: latest.data.map((n) => ({ id: n.id, kind: n.kind, data: n.data, at: n.created_at })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const d = loaderData;
  return (
    <div className="user-data-page dashboard">
      <UserDataNav />
      <h1>{t('dashboard.title')}</h1>
      <div className="dashboard-grid">
        <section aria-labelledby="dash-credits">
          <h2 id="dash-credits">{t('billing.dashboard.title')}</h2>
          <p className="credit-balance">{d.balance}</p>
          <ul>
            <li>
              <a href={localePath(lang, '/info/pricing/')}>{t('billing.dashboard.buy')}</a>
            </li>
            <li>
              <a href={localePath(lang, '/dashboard/orders/')}>{t('billing.dashboard.orders')}</a>
            </li>
            <li>
              <a href={localePath(lang, '/dashboard/subscriptions/')}>{t('billing.dashboard.subscriptions')}</a>
            </li>
            <li>
              <a href={localePath(lang, '/dashboard/history/purchases/profiles/companies/')}>
                {t('billing.dashboard.purchases')}
              </a>
            </li>
          </ul>
        </section>
        <section aria-labelledby="dash-notifications">
          <h2 id="dash-notifications">{t('dashboard.notifications')}</h2>
          <p>{d.unread > 0 ? t('dashboard.unread', { count: d.unread }) : t('dashboard.noUnread')}</p>
          {d.notifications.length > 0 ? (
            <ul>
              {d.notifications.map((n) => (
                <li key={n.id}>
                  {t(`notifications.kinds.${n.kind}`, { ...notificationValues(n.data), defaultValue: n.kind })}
                </li>
              ))}
            </ul>
          ) : null}
          <a href={localePath(lang, '/dashboard/notifications/')}>{t('dashboard.seeAll')}</a>
        </section>
        <section aria-labelledby="dash-lists">
          <h2 id="dash-lists">{t('dashboard.lists')}</h2>
          {d.lists.length === 0 ? (
            <p className="empty">{t('dashboard.noLists')}</p>
          ) : (
            <ul>
              {d.lists.map((l) => (
                <li key={l.id}>
                  <a href={l.href}>{l.name}</a> · {t('dashboard.companies', { count: l.total })}
                </li>
              ))}
            </ul>
          )}
          <a href={localePath(lang, '/companies/lists/')}>
            {d.lists.length > 0 ? t('dashboard.seeAll') : t('dashboard.createList')}
          </a>
        </section>
        <section aria-labelledby="dash-views">
          <h2 id="dash-views">{t('dashboard.recentViews')}</h2>
          {d.views.length === 0 ? (
            <p className="empty">{t('dashboard.noViews')}</p>
          ) : (
            <ul>
              {d.views.map((v) => (
                <li key={v.id}>
                  {v.href ? <a href={v.href}>{v.name}</a> : v.name} · <time dateTime={v.at}>{v.on}</time>
                </li>
              ))}
            </ul>
          )}
          <a href={localePath(lang, '/dashboard/history/views/companies/')}>{t('dashboard.seeAll')}</a>
        </section>
        <section aria-labelledby="dash-searches">
          <h2 id="dash-searches">{t('dashboard.recentSearches')}</h2>
          {d.searches.length === 0 ? (
            <p className="empty">{t('dashboard.noSearches')}</p>
          ) : (
            <ul>
              {d.searches.map((s) => (
                <li key={s.id}>
                  <a href={s.href}>{s.text}</a> · {s.results}
                </li>
              ))}
            </ul>
          )}
          <a href={localePath(lang, '/dashboard/history/search/companies/')}>{t('dashboard.seeAll')}</a>
        </section>
        <section aria-labelledby="dash-settings">
          <h2 id="dash-settings">{t('dashboard.settings')}</h2>
          <ul>
            {SETTINGS_PAGES.map((id) => (
              <li key={id}>
                <a href={localePath(lang, settingsPath(id))}>{t(`settings.${id}.title`)}</a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
