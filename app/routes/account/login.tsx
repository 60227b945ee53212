import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { withReturnTo } from '../../../core/accounts/account-links.ts';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { signInCookies } from '../../../core/accounts/session-cookie.ts';
import { signIn } from '../../../core/accounts/sign-in.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountAlert, AccountField, AccountPage, CsrfField } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { authContext, clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/login';

export const headers = accountPageHeaders;

export function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get('returnTo'), '');
  // Already signed in: nothing to do here.
  if (context.get(authContext)) throw redirect(returnTo || localePath(lang, '/'));
  const t = i18nFor(lang).t;
  return {
    returnTo,
    notice: url.searchParams.get('done') === 'password' ? 'passwordChanged' : null,
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/account/login/',
      title: t('account.login.title'),
      description: t('account.login.description'),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const client = context.get(clientContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const form = await request.formData();
  const email = formText(form, 'email');
  const returnTo = formText(form, 'returnTo');
  try {
    const { token } = await signIn(services, { email, password: formText(form, 'password'), returnTo }, client);
    const landing = safeReturnTo(returnTo, localePath(lang, '/'));
    return redirect(landing, {
      headers: signInCookies(token, client.secure, landing).map((cookie) => ['Set-Cookie', cookie]),
    });
  } catch (error) {
    return accountFormFailure(error, { email, returnTo: safeReturnTo(returnTo, '') });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = loaderData.seo.lang;
  const returnTo = actionData?.values?.returnTo ?? loaderData.returnTo;
  return (
    <AccountPage title={t('account.login.title')}>
      {loaderData.notice && !actionData ? <p className="form-notice">{t('account.login.passwordChanged')}</p> : null}
      <AccountAlert result={actionData} />
      <form method="post" action={localePath(lang, '/account/login/')} className="account-form" noValidate>
        <CsrfField />
        {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
        <AccountField
          name="email"
          type="email"
          label={t('account.fields.email')}
          autoComplete="username"
          result={actionData}
        />
        <AccountField
          name="password"
          type="password"
          label={t('account.fields.password')}
          autoComplete="current-password"
          result={actionData}
        />
        <button type="submit">{t('account.login.submit')}</button>
      </form>
      <p>
        <a href={withReturnTo(localePath(lang, '/account/password/recovery/'), returnTo)}>
          {t('account.login.forgot')}
        </a>
      </p>
      <p>
        {t('account.login.noAccount')}{' '}
        <a href={withReturnTo(localePath(lang, '/account/sign-up/'), returnTo)}>{t('account.login.signUp')}</a>
      </p>
    </AccountPage>
  );
}
