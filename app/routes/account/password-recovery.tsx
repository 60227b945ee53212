import { useTranslation } from 'react-i18next';
import { requestPasswordRecovery } from '../../../core/accounts/password-recovery.ts';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, AccountPage, CsrfField } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/password-recovery';

export const headers = accountPageHeaders;

export function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const t = i18nFor(lang).t;
  return {
    // Where the sign-in gate was going: the emailed link carries it to the sign-in after the reset (ADR 0030).
    returnTo: safeReturnTo(new URL(request.url).searchParams.get('returnTo'), ''),
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/account/password/recovery/',
      title: t('account.recovery.title'),
      description: t('account.recovery.description'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await request.formData();
  const email = formText(form, 'email');
  const returnTo = safeReturnTo(formText(form, 'returnTo'), '');
  try {
    await requestPasswordRecovery(services, { email, returnTo }, context.get(clientContext));
    // The same answer whether or not the email has an account.
    return { done: true as const, email: email.trim() };
  } catch (error) {
    return accountFormFailure(error, { email, returnTo });
  }
}

export default function PasswordRecovery({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const returnTo =
    (actionData && 'values' in actionData ? actionData.values?.returnTo : undefined) ?? loaderData.returnTo;
  if (actionData && 'done' in actionData) {
    return (
      <AccountPage title={t('account.recovery.doneTitle')}>
        <p role="status" className="form-notice">
          {t('account.recovery.doneText', { email: actionData.email })}
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage title={t('account.recovery.title')}>
      <p>{t('account.recovery.intro')}</p>
      <AccountAlert result={actionData} />
      <form method="post" action={localePath(lang, '/account/password/recovery/')} className="account-form" noValidate>
        <CsrfField />
        {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
        <AccountField
          name="email"
          type="email"
          label={t('account.fields.email')}
          autoComplete="email"
          result={actionData}
        />
        <button type="submit">{t('account.recovery.submit')}</button>
      </form>
    </AccountPage>
  );
}
