import { useTranslation } from 'react-i18next';
import { listSessions, revokeSessionByHandle } from '../../../core/accounts/account-settings.ts';
import { changePassword } from '../../../core/accounts/change-password.ts';
import { revokeUserSessions } from '../../../core/accounts/sessions.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, CsrfField, RowAction } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/security';

// Settings → security: change the password (every other session is signed out), and see and sign
// out the browsers signed in to the account.

export const headers = settingsHeaders;

/** A user agent is long: the page shows its start, the whole of it in a tooltip. */
const DEVICE_SHOWN = 90;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const sessions = await listSessions(db, auth.user.id, auth.sessionId);
  const when = (iso: string) => p.dateTime(iso);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/settings/security/',
      'settings.security.title',
      'settings.security.description',
    ),
    sessions: sessions.map((s) => ({
      handle: s.handle,
      device: s.user_agent ? s.user_agent.slice(0, DEVICE_SHOWN) : null,
      fullDevice: s.user_agent,
      ip: s.ip ?? '',
      signedIn: when(s.created_at),
      signedInAt: s.created_at,
      lastSeen: when(s.last_seen_at),
      lastSeenAt: s.last_seen_at,
      current: s.current,
    })),
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  try {
    if (intent === 'password') {
      const { revokedSessions } = await changePassword(services, {
        userId: auth.user.id,
        sessionId: auth.sessionId,
        currentPassword: formText(form, 'currentPassword'),
        newPassword: formText(form, 'password'),
      });
      return settingsDone(lang, 'security', 'password', revokedSessions);
    }
    if (intent === 'revoke') {
      const revoked = await revokeSessionByHandle(services.db, auth.user.id, formText(form, 'session'));
      return settingsDone(lang, 'security', revoked ? 'revoked' : 'gone');
    }
    if (intent === 'revoke-others') {
      const count = await revokeUserSessions(services.db, auth.user.id, auth.sessionId);
      return settingsDone(lang, 'security', 'revokedOthers', count);
    }
  } catch (error) {
    return accountFormFailure(error, { intent });
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function SecuritySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/security/');
  const { done, count } = loaderData;
  const notice =
    done === 'password'
      ? t('settings.security.passwordChanged', { count })
      : done === 'revoked'
        ? t('settings.security.revoked')
        : done === 'gone'
          ? t('settings.security.gone')
          : done === 'revokedOthers'
            ? t('settings.security.revokedOthers', { count })
            : null;
  const others = loaderData.sessions.filter((s) => !s.current).length;
  return (
    <SettingsPage page="security" notice={notice}>
      <section aria-labelledby="security-password">
        <h2 id="security-password">{t('settings.security.password')}</h2>
        <form method="post" action={action} className="account-form" noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="password" />
          <AccountAlert result={actionData} />
          <AccountField
            name="currentPassword"
            type="password"
            label={t('account.fields.currentPassword')}
            autoComplete="current-password"
            result={actionData}
          />
          <AccountField
            name="password"
            type="password"
            label={t('account.fields.newPassword')}
            autoComplete="new-password"
            hint={t('account.passwordHint')}
            result={actionData}
          />
          <button type="submit">{t('settings.security.passwordSubmit')}</button>
        </form>
      </section>
      <section aria-labelledby="security-sessions">
        <h2 id="security-sessions">{t('settings.security.sessions')}</h2>
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('settings.security.device')}</th>
                <th scope="col">{t('settings.security.ip')}</th>
                <th scope="col">{t('settings.security.signedIn')}</th>
                <th scope="col">{t('settings.security.lastSeen')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.sessions.map((s) => {
                const device = s.device ?? t('settings.security.unknownDevice');
                return (
                  <tr key={s.handle}>
                    <td data-label={t('settings.security.device')} title={s.fullDevice ?? undefined}>
                      {device}
                      {s.current ? <strong className="badge"> {t('settings.security.current')}</strong> : null}
                    </td>
                    <td data-label={t('settings.security.ip')}>{s.ip}</td>
                    <td data-label={t('settings.security.signedIn')}>
                      <time dateTime={s.signedInAt}>{s.signedIn}</time>
                    </td>
                    <td data-label={t('settings.security.lastSeen')}>
                      <time dateTime={s.lastSeenAt}>{s.lastSeen}</time>
                    </td>
                    <td className="row-actions">
                      {s.current ? null : (
                        <RowAction
                          action={action}
                          intent="revoke"
                          fields={{ session: s.handle }}
                          label={t('settings.security.revokeLabel', { device })}
                        >
                          {t('settings.security.revoke')}
                        </RowAction>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {others > 0 ? (
          <form method="post" action={action}>
            <CsrfField />
            <input type="hidden" name="intent" value="revoke-others" />
            <button type="submit" className="secondary">
              {t('settings.security.revokeOthers')}
            </button>
          </form>
        ) : null}
      </section>
    </SettingsPage>
  );
}
