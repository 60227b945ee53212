import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { KB_LINKS, kbPath } from '../../core/kb/kb-paths.ts';
import { LanguageSwitcher } from './language-switcher.tsx';

/** The footer of every page (ADR 0021): help, contact, pricing, the legal pages, data sources, languages. */
export function SiteFooter() {
  const { t } = useTranslation();
  const { lang: param } = useParams();
  const lang = isLang(param) ? param : 'en';
  const to = (path: string) => localePath(lang, path);
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
            <a href={to(kbPath(KB_LINKS.terms))}>{t('footer.terms')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.privacy))}>{t('footer.privacy')}</a>
          </li>
          <li>
            <a href={to(kbPath(KB_LINKS.cookies))}>{t('footer.cookies')}</a>
          </li>
        </ul>
      </nav>
      <LanguageSwitcher label={t('footer.languages')} />
      <p className="copyright">© Registra</p>
    </footer>
  );
}
