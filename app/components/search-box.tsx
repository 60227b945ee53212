import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { useSuggestAttribute } from './suggest-script.tsx';

/**
 * A companies search form whose box suggests while typing: the home page's big box and the header's.
 * Without script it is a plain GET form to the search; with it, app/islands/suggest.js (inlined
 * once per page by root.tsx) makes the box an ARIA combobox.
 */
export function SearchBox({
  id,
  className = 'search-bar',
  label,
  placeholder,
  submit,
}: {
  /** The input's id: unique on the page, the suggestions list is `${id}-suggestions`. */
  id: string;
  className?: string;
  label: string;
  placeholder: string;
  submit: string;
}) {
  const { lang } = useParams();
  const suggestAttribute = useSuggestAttribute();
  return (
    <form method="get" action={localePath(isLang(lang) ? lang : 'en', '/companies/search/')} className={className}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} name="q" type="search" placeholder={placeholder} data-suggest={suggestAttribute} />
      <button type="submit">{submit}</button>
    </form>
  );
}

/**
 * The header's search (ADR 0022): on a wide screen a box beside the brand (the panel opened by
 * app/islands/narrow-panels.js, like the menu); on a phone a "Search" button that unfolds it under the
 * header and puts the cursor in it. A `<details>` panel, so without script the button still works.
 */
export function HeaderSearch() {
  const { t } = useTranslation();
  return (
    <details className="site-search" data-wide-open="" data-focus-on-open="">
      <summary>{t('layout.search')}</summary>
      <search className="site-search-body" aria-label={t('layout.searchRegion')}>
        <SearchBox
          id="site-q"
          className="search-bar site-search-form"
          label={t('layout.searchLabel')}
          placeholder={t('layout.searchPlaceholder')}
          submit={t('layout.searchSubmit')}
        />
      </search>
    </details>
  );
}
