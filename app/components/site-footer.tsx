import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isLang, LANGUAGES, localePath, unprefixedPath } from '../../core/i18n/i18n.ts';
import { KB_LINKS, kbPath } from '../../core/kb/kb-paths.ts';

/** The footer of every page (ADR 0021): help, contact, pricing, the legal pages and the legal notice, data sources, languages. */
export function SiteFooter() {
  const { t } = useTranslation();
  const { lang: param } = useParams();
  const lang = isLang(param) ? param : 'en';
  const to = (path: string) => localePath(lang, path);
  const here = unprefixedPath(useLocation().pathname);
  return (
    <footer className="site-footer">
      <nav aria-label={t('footer.label')}>
        <ul>
          <li>
            <a href={to('/info/')}>{t('footer.help')}</a>
          </li>
          <li>
            <a href={to('/info/contact-us/')}>{t('footer.contact')}</a>
          </li>
          <li>
            <a href={to('/info/pricing/')}>{t('footer.pricing')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.dataSources))}>{t('footer.dataSources')}</a>
          </li>
          <li>
            <a href={to('/info/bulk-data/')}>{t('footer.bulkData')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.terms))}>{t('footer.terms')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.privacy))}>{t('footer.privacy')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.cookies))}>{t('footer.cookies')}</a>
          </li>
          <li>
            <a href={to('/info/cookie-settings/')}>{t('footer.cookieSettings')}</a>
          </li>
          <li>
            <a href={to('/info/legal-notice/')}>{t('footer.legalNotice')}</a>
          </li>
        </ul>
        {/* This page in each language (the header's switcher keeps the query; these are plain links). */}
        <ul className="footer-languages" aria-label={t('footer.languages')}>
          {LANGUAGES.map((l) => (
            <li key={l.lang}>
              <a
                href={localePath(l.lang, here)}
                hrefLang={l.hreflang}
                lang={l.hreflang}
                aria-current={l.lang === lang ? 'true' : undefined}
              >
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="copyright">© Registra</p>
    </footer>
  );
}
