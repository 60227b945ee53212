import { useTranslation } from 'react-i18next';
import { activateAccount } from '../../../core/accounts/activate-account.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountPage } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountPageHeaders } from '../../presenters/account-forms.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/activation';

export const headers = accountPageHeaders;

const MESSAGES = {
  activated: 'account.activation.activated',
  already_active: 'account.activation.alreadyActive',
  expired: 'account.activation.expired',
  invalid: 'account.activation.invalid',
} as const;

/** Opening the emailed link activates the account (once; the page is never cached). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const result = await activateAccount(services.db, params.code);
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
  const ok = loaderData.result === 'activated' || loaderData.result === 'already_active';
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
