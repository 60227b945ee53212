import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { withReturnTo } from '../../../core/accounts/account-links.ts';
import { peekCode } from '../../../core/accounts/one-time-codes.ts';
import { resetPassword } from '../../../core/accounts/password-recovery.ts';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, AccountPage, CsrfField } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/password-reset';

export const headers = accountPageHeaders;

/** The emailed recovery link: a form for the new password while the code is valid (opening it does not use it). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const { state } = await peekCode(services.db, params.code, 'password_recovery');
  const t = i18nFor(lang).t;
  return {
    valid: state === 'valid',
    // The sign-in gate's page and pending action, from the emailed link (ADR 0030): the sign-in after the reset lands there.
    returnTo: safeReturnTo(new URL(request.url).searchParams.get('returnTo'), ''),
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: `/account/password/recovery/${params.code}/`,
      title: t('account.reset.title'),
      description: t('account.reset.description'),
      social: false,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const form = await request.formData();
  try {
    await resetPassword(services, { code: params.code, password: formText(form, 'password') });
    const returnTo = safeReturnTo(new URL(request.url).searchParams.get('returnTo'), '');
    return redirect(
      `${withReturnTo(localePath(lang, '/account/login/'), returnTo)}${returnTo ? '&' : '?'}done=password`,
    );
  } catch (error) {
    return accountFormFailure(error, {});
  }
}

export default function PasswordReset({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const codeRefused = actionData?.alert?.key === 'codeInvalid';
  if (!loaderData.valid || codeRefused) {
    return (
      <AccountPage title={t('account.reset.title')}>
        <p role="alert" className="form-alert">
          {t('account.errors.codeInvalid')}
        </p>
        <p>
          <a href={withReturnTo(localePath(lang, '/account/password/recovery/'), loaderData.returnTo)}>
            {t('account.reset.again')}
          </a>
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage title={t('account.reset.title')}>
      <p>{t('account.reset.intro')}</p>
      <AccountAlert result={actionData} />
      <form
        method="post"
        action={withReturnTo(localePath(lang, `/account/password/recovery/${params.code}/`), loaderData.returnTo)}
        className="account-form"
        noValidate
      >
        <CsrfField />
        <AccountField
          name="password"
          type="password"
          label={t('account.fields.newPassword')}
          autoComplete="new-password"
          hint={t('account.passwordHint')}
          result={actionData}
        />
        <button type="submit">{t('account.reset.submit')}</button>
      </form>
    </AccountPage>
  );
}
