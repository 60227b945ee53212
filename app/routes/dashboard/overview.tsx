import { useTranslation } from 'react-i18next';
import { creditsSpentSince } from '../../../core/billing/ledger.ts';
import { listCompanyViews } from '../../../core/history/browsing-history.ts';
import { listSearches } from '../../../core/history/search-history.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { listsLastChanges, trackedCompaniesByChange, weekBefore } from '../../../core/monitoring/last-changes.ts';
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

// The dashboard (spec §2 /dashboard/), a work surface (docs/decisions/0015-monitoring.md "The
// dashboard"): the tracked companies by their last change (`?changed=week`: only those changed in
// the last seven days), the lists with theirs, credits left and used this month, the latest
// notifications as links, the profiles and searches of late — each a way into its full page. On
// a phone the content comes first and the account's navigation after it.

export const headers = settingsHeaders;

/** Items per block of the overview. */
const RECENT = 5;

/** Tracked companies the overview lists. */
const TRACKED = 10;

/** The first moment of the month `now` is in (UTC, like the ledger's days). */
function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const { db, reference } = services;
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const userId = auth.user.id;
  const now = new Date();
  const since = weekBefore(now);
  const changedOnly = new URL(request.url).searchParams.get('changed') === 'week';
  const [lists, views, searches, unread, latest, balance, spent, tracked] = await Promise.all([
    listWatchlists(db, userId, { count: RECENT }),
    listCompanyViews(db, userId, { count: RECENT }),
    listSearches(db, userId, { count: RECENT }),
    countUnread(db, userId),
    listNotifications(db, userId, { count: RECENT }),
    balanceOf(db, userId),
    creditsSpentSince(db, userId, monthStart(now)),
    trackedCompaniesByChange(db, userId, { since, count: TRACKED, changedOnly }),
  ]);
  const listChanges = await listsLastChanges(
    db,
    userId,
    lists.data.map((l) => l.id),
    since,
  );
  const lastChange = (at: string | null) =>
    at ? p.t('dashboard.lastChange', { date: p.date(at) }) : p.t('dashboard.noChange');
  return {
    seo: userPageSeo(context, lang, '/dashboard/', 'dashboard.title', 'dashboard.description'),
    name: auth.user.name,
    balance: p.t('billing.dashboard.balance', { credits: creditsText(p, balance ?? 0) }),
    spent: p.t('billing.dashboard.usedThisMonth', { credits: creditsText(p, spent) }),
    tracked: {
      total: tracked.total,
      changed: tracked.changed,
      changedOnly,
      rows: tracked.data.map((c) => ({
        id: c.tracking_id,
        name: c.company?.name ?? p.t('monitoring.updateReports.gone'),
        href: c.company ? p.companyHref(c.company.uri) : null,
        at: c.last_change,
        lastChange: lastChange(c.last_change),
        reportsHref: `${p.path('/companies/monitoring/updates/reports/')}?tracking=${c.tracking_id}`,
      })),
    },
    lists: lists.data.map((l) => {
      const changes = listChanges.get(l.id);
      return {
        id: l.id,
        name: l.name,
        href: p.path(`/companies/lists/${l.number}/`),
        total: l.total_objects,
        at: changes?.last_change ?? null,
        lastChange: lastChange(changes?.last_change ?? null),
        changed: changes?.changed ?? 0,
      };
    }),
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
    notifications: latest.data.map((n) => ({
      id: n.id,
      kind: n.kind,
      data: n.data,
      at: n.created_at,
      on: p.date(n.created_at),
      unread: n.read_at === null,
      // Opens it: marked read, then the page it announces (dashboard/notification.ts).
      href: p.path(`/dashboard/notifications/${n.id}/`),
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const d = loaderData;
  const dashboard = localePath(lang, '/dashboard/');
  return (
    <div className="user-data-page dashboard">
      <h1>{t('dashboard.title')}</h1>
      <div className="dashboard-grid">
        <section aria-labelledby="dash-tracked" id="tracked">
          <h2 id="dash-tracked">{t('dashboard.tracked')}</h2>
          {d.tracked.total === 0 ? (
            <p className="empty">{t('monitoring.updates.empty')}</p>
          ) : (
            <>
              <p>
                {t('dashboard.trackedCount', { count: d.tracked.total })}{' '}
                <a href={`${dashboard}?changed=week#tracked`} aria-current={d.tracked.changedOnly ? 'true' : undefined}>
                  {t('dashboard.changedWeek', { count: d.tracked.changed })}
                </a>
              </p>
              {d.tracked.changedOnly ? (
                <p>
                  {d.tracked.rows.length > 0 ? t('dashboard.changedOnly') : t('dashboard.noneChanged')}{' '}
                  <a href={`${dashboard}#tracked`}>{t('dashboard.showAllTracked')}</a>
                </p>
              ) : null}
              <ul className="dashboard-tracked">
                {d.tracked.rows.map((c) => (
                  <li key={c.id}>
                    {c.href ? <a href={c.href}>{c.name}</a> : c.name} ·{' '}
                    {c.at ? (
                      <a href={c.reportsHref}>
                        <time dateTime={c.at}>{c.lastChange}</time>
                      </a>
                    ) : (
                      c.lastChange
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
          <a href={localePath(lang, '/companies/monitoring/updates/')}>{t('dashboard.seeAll')}</a>
        </section>
        <section aria-labelledby="dash-notifications">
          <h2 id="dash-notifications">{t('dashboard.notifications')}</h2>
          <p>{d.unread > 0 ? t('dashboard.unread', { count: d.unread }) : t('dashboard.noUnread')}</p>
          {d.notifications.length > 0 ? (
            <ul className="dashboard-notifications">
              {d.notifications.map((n) => (
                <li key={n.id} className={n.unread ? 'unread' : undefined}>
                  <time dateTime={n.at}>{n.on}</time> ·{' '}
                  <a href={n.href}>
                    {t(`notifications.kinds.${n.kind}`, { ...notificationValues(n.data), defaultValue: n.kind })}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <a href={localePath(lang, '/dashboard/notifications/')}>{t('dashboard.seeAll')}</a>
        </section>
        <section aria-labelledby="dash-credits">
          <h2 id="dash-credits">{t('billing.dashboard.title')}</h2>
          <p className="credit-balance" data-balance="dashboard">
            {d.balance}
          </p>
          <p className="credits-spent">{d.spent}</p>
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
        <section aria-labelledby="dash-lists">
          <h2 id="dash-lists">{t('dashboard.lists')}</h2>
          {d.lists.length === 0 ? (
            <p className="empty">{t('dashboard.noLists')}</p>
          ) : (
            <ul>
              {d.lists.map((l) => (
                <li key={l.id}>
                  <a href={l.href}>{l.name}</a> · {t('dashboard.companies', { count: l.total })} ·{' '}
                  {l.at ? <time dateTime={l.at}>{l.lastChange}</time> : l.lastChange}
                  {l.changed > 0 ? <> · {t('dashboard.changedWeek', { count: l.changed })}</> : null}
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
      <UserDataNav />
    </div>
  );
}
