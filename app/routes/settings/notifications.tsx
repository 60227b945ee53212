import { useTranslation } from 'react-i18next';
import {
  EMAIL_NOTIFICATIONS,
  getAccountSettings,
  updateEmailNotifications,
} from '../../../core/accounts/account-settings.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, CsrfField } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure } from '../../presenters/account-forms.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/notifications';

// Settings → notifications: which optional emails the user receives.

export const headers = settingsHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const settings = await getAccountSettings(db, auth.user.id);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/settings/notifications/',
      'settings.notifications.title',
      'settings.notifications.description',
    ),
    emails: settings.emails as string[],
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const form = await request.formData();
  const emails = form.getAll('emails').filter((v): v is string => typeof v === 'string');
  try {
    await updateEmailNotifications(db, auth.user.id, emails);
  } catch (error) {
    return accountFormFailure(error, {});
  }
  return settingsDone(langOf(params), 'notifications', 'saved');
}

export default function NotificationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/notifications/');
  return (
    <SettingsPage page="notifications" notice={loaderData.done === 'saved' ? t('settings.notifications.saved') : null}>
      <form method="post" action={action} className="account-form">
        <CsrfField />
        <AccountAlert result={actionData} />
        <fieldset>
          <legend>{t('settings.notifications.intro')}</legend>
          {EMAIL_NOTIFICATIONS.map((kind) => (
            <label key={kind}>
              <input type="checkbox" name="emails" value={kind} defaultChecked={loaderData.emails.includes(kind)} />{' '}
              {t(`settings.notifications.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
        <p className="field-hint">{t('settings.notifications.always')}</p>
        <button type="submit">{t('settings.notifications.save')}</button>
      </form>
    </SettingsPage>
  );
}
