import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { listNotifications, markRead, notificationValues } from '../../../core/notifications/notifications.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { doneOf, settingsHeaders } from '../../presenters/settings.server.ts';
import { formIds, intParam, langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/notifications';

// /dashboard/notifications/: what happened in the account, newest first, 50 a page; each links to
// what it announces (opening one marks it read); unread ones are marked, and can be marked read
// one by one or all at once.

export const headers = settingsHeaders;

const PATH = '/dashboard/notifications/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const page = await listNotifications(db, auth.user.id, { after: intParam(url, 'after') });
  return {
    seo: userPageSeo(context, lang, PATH, 'notifications.title', 'notifications.description'),
    rows: page.data.map((n) => ({
      id: n.id,
      kind: n.kind,
      data: n.data,
      at: n.created_at,
      on: p.dateTime(n.created_at),
      unread: n.read_at === null,
      // Opens the notification: marked read, then the page it announces (dashboard/notification.ts).
      href: p.path(`${PATH}${n.id}/`),
    })),
    nextHref: page.next ? `${p.path(PATH)}?after=${page.next}` : null,
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent !== 'read' && intent !== 'read-all') throw new Response('Unknown action', { status: 400 });
  const count = await markRead(db, auth.user.id, intent === 'read-all' ? 'all' : formIds(form, 'id'));
  return redirect(`${localePath(langOf(params), PATH)}?done=read&count=${count}`);
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, PATH);
  const { rows } = loaderData;
  const anyUnread = rows.some((r) => r.unread);
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{t('notifications.title')}</h1>
      {loaderData.done === 'read' ? <Notice>{t('notifications.read', { count: loaderData.count })}</Notice> : null}
      {rows.length === 0 ? (
        <p className="empty">{t('notifications.empty')}</p>
      ) : (
        <ul className="notifications">
          {rows.map((n) => (
            <li key={n.id} className={n.unread ? 'unread' : undefined}>
              {n.unread ? <strong className="badge">{t('notifications.unread')}</strong> : null}{' '}
              <time dateTime={n.at}>{n.on}</time>{' '}
              <a href={n.href}>
                {t(`notifications.kinds.${n.kind}`, { ...notificationValues(n.data), defaultValue: n.kind })}
              </a>
              {n.unread ? (
                <form method="post" action={action} className="inline-form">
                  <CsrfField />
                  <input type="hidden" name="intent" value="read" />
                  <input type="hidden" name="id" value={n.id} />
                  <button type="submit" className="link-button">
                    {t('notifications.markRead')}
                  </button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {anyUnread ? (
        <form method="post" action={action}>
          <CsrfField />
          <input type="hidden" name="intent" value="read-all" />
          <button type="submit" className="secondary">
            {t('notifications.markAllRead')}
          </button>
        </form>
      ) : null}
      {loaderData.nextHref ? (
        <nav className="pagination" aria-label={t('search.pagination')}>
          <a href={loaderData.nextHref} rel="next">
            {t('notifications.more')} →
          </a>
        </nav>
      ) : null}
    </div>
  );
}
