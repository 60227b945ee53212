import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { activateAndSignIn } from '../../../core/accounts/activate-account.ts';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { signInCookies } from '../../../core/accounts/session-cookie.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountPage } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountPageHeaders } from '../../presenters/account-forms.server.ts';
import { clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/activation';

export const headers = accountPageHeaders;

const MESSAGES = {
  already_active: 'account.activation.alreadyActive',
  expired: 'account.activation.expired',
  invalid: 'account.activation.invalid',
} as const;

/**
 * Opening the emailed link activates the account and signs this browser in (once; the page is
 * never cached), then lands where the user was going when they signed up — the page and pending
 * action of the sign-in gate (`returnTo`, a path of this site), else the dashboard.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const client = context.get(clientContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const activation = await activateAndSignIn(services.db, params.code, client);
  if (activation.result === 'activated') {
    const returnTo = new URL(request.url).searchParams.get('returnTo');
    const landing = safeReturnTo(returnTo, localePath(lang, '/dashboard/'));
    throw redirect(landing, {
      headers: signInCookies(activation.token, client.secure, landing).map((cookie) => ['Set-Cookie', cookie]),
    });
  }
  const { result } = activation;
  const t = i18nFor(lang).t;
  return {
    result,
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: `/account/activation/${params.code}/`,
      title: t('account.activation.title'),
      description: t('account.activation.description'),
      social: false,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Activation({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const ok = loaderData.result === 'already_active';
  return (
    <AccountPage title={t('account.activation.title')}>
      <p role="status" className={ok ? 'form-notice' : 'form-alert'}>
        {t(MESSAGES[loaderData.result])}
      </p>
      <p>
        <a className="button" href={localePath(loaderData.seo.lang, '/account/login/')}>
          {t('account.activation.signIn')}
        </a>
      </p>
    </AccountPage>
  );
}
