import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { safeReturnTo } from '../../../core/accounts/return-to.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { KB_LINKS, kbPath } from '../../../core/kb/kb-paths.ts';
import { consentCookies, consentOf } from '../../../core/visitors/cookie-consent.ts';
import { CookieChoice } from '../../components/cookie-notice.tsx';
import { Notice } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/cookie-settings';

// /info/cookie-settings/: the choice of the cookie notice (ADR 0021), on a page of its own (the
// footer links here) and as the target of the notice's form on every page. The choice is kept in
// the `cookie_consent` cookie; refusing removes the statistics cookies and stops them being set.

const PATH = '/info/cookie-settings/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { reference, siteUrl } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  return {
    seo: {
      siteUrl,
      lang,
      path: PATH,
      title: p.t('cookies.title'),
      description: p.t('cookies.description'),
      noindex: true,
    },
    consent: consentOf(request.headers.get('cookie')) ?? 'none',
    saved: url.searchParams.get('done') === 'saved',
    policyHref: p.path(kbPath(KB_LINKS.cookies)),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langOf(params);
  const form = await request.formData();
  const choice = formText(form, 'choice');
  if (choice !== 'accepted' && choice !== 'refused')
    throw new Response('choice must be accepted or refused', { status: 400 });
  const back = safeReturnTo(formText(form, 'returnTo'), `${localePath(lang, PATH)}?done=saved`);
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const cookie of consentCookies(choice, context.get(clientContext).secure)) headers.append('Set-Cookie', cookie);
  return redirect(back, { headers });
}

export default function CookieSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="kb-page">
      <h1>{t('cookies.title')}</h1>
      {d.saved ? <Notice>{t('cookies.saved')}</Notice> : null}
      <p>{t('cookies.notice')}</p>
      <p>
        <strong>{t(`cookies.current_${d.consent}`)}</strong>
      </p>
      <CookieChoice returnTo="" />
      <p>
        <a href={d.policyHref}>{t('cookies.more')}</a>
      </p>
    </div>
  );
}
