import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { withReturnTo } from '../../../core/accounts/account-links.ts';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { signUp } from '../../../core/accounts/sign-up.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, AccountPage, CsrfField } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { authContext, clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/sign-up';

export const headers = accountPageHeaders;

export function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  // Where the sign-in gate's "Create an account" came from: the activation link lands there (ADR 0007).
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get('returnTo'), '');
  if (context.get(authContext)) throw redirect(returnTo || localePath(lang, '/'));
  const t = i18nFor(lang).t;
  return {
    returnTo,
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/account/sign-up/',
      title: t('account.signUp.title'),
      description: t('account.signUp.description'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const form = await request.formData();
  const values = {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    returnTo: safeReturnTo(formText(form, 'returnTo'), ''),
  };
  try {
    await signUp(
      services,
      { ...values, password: formText(form, 'password'), language: lang },
      context.get(clientContext),
    );
    // The same answer whether or not the email already had an account.
    return { done: true as const, email: values.email.trim() };
  } catch (error) {
    return accountFormFailure(error, values);
  }
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const returnTo =
    (actionData && 'values' in actionData ? actionData.values?.returnTo : undefined) ?? loaderData.returnTo;
  if (actionData && 'done' in actionData) {
    return (
      <AccountPage title={t('account.signUp.doneTitle')}>
        <p role="status" className="form-notice">
          {t('account.signUp.doneText', { email: actionData.email })}
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage title={t('account.signUp.title')}>
      <AccountAlert result={actionData} />
      <form method="post" action={localePath(lang, '/account/sign-up/')} className="account-form" noValidate>
        <CsrfField />
        {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
        <AccountField
          name="name"
          type="text"
          label={t('account.fields.name')}
          autoComplete="name"
          result={actionData}
        />
        <AccountField
          name="email"
          type="email"
          label={t('account.fields.email')}
          autoComplete="email"
          result={actionData}
        />
        <AccountField
          name="password"
          type="password"
          label={t('account.fields.password')}
          autoComplete="new-password"
          hint={t('account.passwordHint')}
          result={actionData}
        />
        <button type="submit">{t('account.signUp.submit')}</button>
      </form>
      <p>
        {t('account.signUp.haveAccount')}{' '}
        <a href={withReturnTo(localePath(lang, '/account/login/'), returnTo)}>{t('account.login.submit')}</a>
      </p>
    </AccountPage>
  );
}
