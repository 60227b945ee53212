import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import exportLinkScript from '../islands/export-link.js?raw';
import { inlineScript } from '../islands/inline-script.ts';

// The "Export" control of search results and company lists: a link to the export page
// of this search (or list), carrying the ticked rows when scripts run (app/islands/export-link.js).

const SCRIPT = inlineScript(exportLinkScript);

/** The export page of the search on screen: /{section}/search/… → /{section}/export/… (same query). */
export function exportPathOf(pathname: string, search: string): string {
  return `${pathname.replace(/^((?:\/(?:de|fr))?\/[a-z-]+)\/search\//, '$1/export/')}${search}`;
}

export function ExportLink({ href, select, label }: { href?: string; select?: string; label?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  // Page and cursor stay: they are what "the current page" exports.
  const target = href ?? exportPathOf(location.pathname, location.search);
  return (
    <>
      <a className="export-link" href={target} data-export-select={select}>
        {label ?? t('export.link')}
      </a>
      {select ? <script dangerouslySetInnerHTML={{ __html: SCRIPT }} /> : null}
    </>
  );
}
