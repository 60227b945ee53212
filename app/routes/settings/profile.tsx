import { useTranslation } from 'react-i18next';
import { requestEmailChange } from '../../../core/accounts/email-change.ts';
import { updateProfile } from '../../../core/accounts/update-profile.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, CsrfField } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, formText } from '../../presenters/account-forms.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/profile';

// Settings → profile: the user's name, and a change of email address confirmed from the new address.

export const headers = settingsHeaders;

export function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const lang = langOf(params);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/settings/profile/',
      'settings.profile.title',
      'settings.profile.description',
    ),
    name: auth.user.name,
    email: auth.user.email,
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
    if (intent === 'name') {
      await updateProfile(services.db, auth.user.id, { name: formText(form, 'name') });
      return settingsDone(lang, 'profile', 'name');
    }
    if (intent === 'email') {
      await requestEmailChange(services, {
        userId: auth.user.id,
        email: formText(form, 'email'),
        currentPassword: formText(form, 'currentPassword'),
      });
      return settingsDone(lang, 'profile', 'email');
    }
  } catch (error) {
    return accountFormFailure(error, { intent, name: formText(form, 'name'), email: formText(form, 'email') });
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function ProfileSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/profile/');
  const failed = actionData?.values?.intent;
  const notice =
    loaderData.done === 'name'
      ? t('settings.profile.saved')
      : loaderData.done === 'email'
        ? t('settings.profile.emailSent')
        : null;
  return (
    <SettingsPage page="profile" notice={notice}>
      <section aria-labelledby="profile-name">
        <h2 id="profile-name">{t('account.fields.name')}</h2>
        <form method="post" action={action} className="account-form" noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="name" />
          {failed === 'name' ? <AccountAlert result={actionData} /> : null}
          <AccountField
            name="name"
            type="text"
            label={t('account.fields.name')}
            autoComplete="name"
            defaultValue={loaderData.name}
            result={failed === 'name' ? actionData : undefined}
          />
          <button type="submit">{t('settings.profile.save')}</button>
        </form>
      </section>
      <section aria-labelledby="profile-email">
        <h2 id="profile-email">{t('settings.profile.emailTitle')}</h2>
        <p>{t('settings.profile.emailIntro', { email: loaderData.email })}</p>
        <form method="post" action={action} className="account-form" noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="email" />
          {failed === 'email' ? <AccountAlert result={actionData} /> : null}
          <AccountField
            name="email"
            type="email"
            label={t('settings.profile.newEmail')}
            autoComplete="email"
            result={failed === 'email' ? actionData : undefined}
          />
          <AccountField
            name="currentPassword"
            type="password"
            label={t('account.fields.currentPassword')}
            autoComplete="current-password"
            result={failed === 'email' ? actionData : undefined}
          />
          <button type="submit">{t('settings.profile.emailSubmit')}</button>
        </form>
      </section>
    </SettingsPage>
  );
}
