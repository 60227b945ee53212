import { z } from 'zod';
import type { Facet } from '../../core/search/facets.ts';
import type { SectionDecl } from '../../core/sections/section.ts';

// `facets` of the data API's searches (every section, GET and POST …/search): the fields a section
// declares as facets (`SectionDecl.facets`, ADR 0001/0005), counted as its search page counts them
// (core/search/facets.ts) into `meta.facets` (FacetsMetaSchema).

/**
 * The `facets` parameter of a section's searches: field names joined by `,` or `|` (a JSON body may
 * also give a list). An unknown name is a 400 naming it and listing the section's facets.
 */
export function facetsParam(section: SectionDecl) {
  const allowed = section.facets.join(', ');
  const names = section.facets.join('|');
  return z
    .preprocess(
      (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v),
      z.string({ error: `facets must be field names joined by commas: ${allowed}` }).transform((raw, ctx) => {
        const names = raw.split(/[,|]/).map((s) => s.trim());
        const unknown = names.find((n) => !section.facets.includes(n));
        if (unknown !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message:
              unknown === ''
                ? `facets: an empty facet name; the facets of ${section.id} are ${allowed}`
                : `facets: unknown facet "${unknown}"; the facets of ${section.id} are ${allowed}`,
          });
          return z.NEVER;
        }
        return new Set(names);
      }),
    )
    .meta({
      description: `Facet counts of the matches in \`meta.facets\`: ${allowed}, comma-separated (the search page’s facets).`,
      pattern: `^(${names})([,|](${names}))*$`,
    });
}

/** Facets as `meta.facets` shows them: each field asked for, its values. */
export function facetsMeta(facets: Facet[]): Record<string, Facet['values']> {
  return Object.fromEntries(facets.map((f) => [f.field, f.values]));
}
