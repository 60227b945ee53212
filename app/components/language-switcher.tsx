import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isLang, LANGUAGES, localePath, unprefixedPath } from '../../core/i18n/i18n.ts';

/** Links to the same page in each language (keeps path and query). */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const location = useLocation();
  const { lang } = useParams();
  const current = isLang(lang) ? lang : 'en';
  const path = unprefixedPath(location.pathname);
  return (
    <nav className="languages" aria-label={t('nav.language')}>
      {LANGUAGES.map((l) => (
        <a
          key={l.lang}
          href={`${localePath(l.lang, path)}${location.search}`}
          hrefLang={l.hreflang}
          lang={l.hreflang}
          aria-current={l.lang === current ? 'true' : undefined}
        >
          {l.label}
        </a>
      ))}
    </nav>
  );
}
