import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useRouteLoaderData } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { KB_LINKS, kbPath } from '../../core/kb/kb-paths.ts';
import type { RootData } from '../root.tsx';
import { CsrfField } from './account-form.tsx';

// The cookie notice (ADR 0021): until a visitor chooses, every page shows it; a plain form (no
// script needed) posts the choice to /info/cookie-settings/, which comes back to the same page.

function useLangPath() {
  const { lang } = useParams();
  return (path: string) => localePath(isLang(lang) ? lang : 'en', path);
}

/** Accept or refuse, posted to the cookie settings; `returnTo` '' stays on the settings page. */
export function CookieChoice({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const to = useLangPath();
  return (
    <form method="post" action={to('/info/cookie-settings/')} className="cookie-choice">
      <CsrfField />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <button type="submit" name="choice" value="accepted">
        {t('cookies.accept')}
      </button>
      <button type="submit" name="choice" value="refused" className="secondary">
        {t('cookies.refuse')}
      </button>
    </form>
  );
}

export function CookieNotice() {
  const { t } = useTranslation();
  const to = useLangPath();
  const location = useLocation();
  const root = useRouteLoaderData('root') as RootData | undefined;
  if (!root || root.cookieConsent !== null) return null;
  if (location.pathname.endsWith('/info/cookie-settings/')) return null;
  return (
    <section className="cookie-notice" aria-label={t('cookies.label')}>
      <p>
        {t('cookies.notice')} <a href={to(kbPath(KB_LINKS.cookies))}>{t('cookies.more')}</a>
      </p>
      <CookieChoice returnTo={`${location.pathname}${location.search}`} />
    </section>
  );
}
