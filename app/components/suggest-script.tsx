import { useTranslation } from 'react-i18next';
import { inlineScript } from '../islands/inline-script.ts';
import suggestScript from '../islands/suggest.js?raw';

// Suggestions while typing for the search boxes of a page (app/islands/suggest.js, ADR 0022).

const SCRIPT = inlineScript(suggestScript);

/** The `data-suggest` attribute of a search box: the group headings of its suggestions, in the page's language. */
export function useSuggestAttribute(): string {
  const { t } = useTranslation();
  return JSON.stringify({
    label: t('suggest.label'),
    companies: t('suggest.companies'),
    people: t('suggest.people'),
    jurisdictions: t('suggest.jurisdictions'),
    industries: t('suggest.industries'),
  });
}

/** The island, once per page (root.tsx), after the search boxes it enhances. */
export function SuggestScript() {
  return <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
