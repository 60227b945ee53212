import { useTranslation } from 'react-i18next';
import type { FacetView } from '../presenters/search-page.server.ts';
import { Flag } from './flag.tsx';

/** Counts per value of the section's main dimensions; each value links to the search narrowed to it. */
export function Facets({ facets }: { facets: FacetView[] }) {
  const { t } = useTranslation();
  const shown = facets.filter((f) => f.values.length > 0);
  if (shown.length === 0) return null;
  return (
    <nav className="facets" aria-label={t('search.facets')}>
      {shown.map((facet) => (
        <section key={facet.field} className="facet">
          <h3 id={`facet-${facet.field}`}>{facet.label}</h3>
          <ul aria-labelledby={`facet-${facet.field}`}>
            {facet.values.map((v) => (
              <li key={v.href}>
                <a href={v.href} aria-current={v.selected ? 'true' : undefined}>
                  <Flag code={v.flag} />
                  <span className="facet-label">{v.label}</span> <span className="facet-count">{v.count}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
