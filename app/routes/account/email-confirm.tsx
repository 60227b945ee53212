import { useTranslation } from 'react-i18next';
import { confirmEmailChange } from '../../../core/accounts/email-change.ts';
import { i18nFor, isLang, localePath } from '../../../core/i18n/i18n.ts';
import { AccountPage } from '../../components/account-form.tsx';
import { pageMeta } from '../../meta.ts';
import { accountPageHeaders } from '../../presenters/account-forms.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/email-confirm';

export const headers = accountPageHeaders;

/** The link sent to a new address: opening it moves the account to that address (once). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const result = await confirmEmailChange(services, params.code);
  const t = i18nFor(lang).t;
  return {
    result,
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: `/account/email/confirm/${params.code}/`,
      title: t('account.emailConfirm.title'),
      description: t('account.emailConfirm.description'),
      social: false,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function EmailConfirm({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const ok = loaderData.result === 'changed';
  return (
    <AccountPage title={t('account.emailConfirm.title')}>
      <p role="status" className={ok ? 'form-notice' : 'form-alert'}>
        {t(`account.emailConfirm.${loaderData.result}`)}
      </p>
      <p>
        <a className="button" href={localePath(loaderData.seo.lang, '/dashboard/settings/profile/')}>
          {t('account.emailConfirm.next')}
        </a>
      </p>
    </AccountPage>
  );
}
