import { z } from 'zod';
import { FILTER_TREE_MAX_DEPTH, FILTER_TREE_MAX_NODES, parseFilterTree } from '../../core/search/filter-tree.ts';
import { MAX_PAGE, MAX_QUERY_LENGTH, parseSearchState, type SearchState } from '../../core/search/search-state.ts';
import type { SectionDecl } from '../../core/sections/section.ts';
import { badRequest } from './route.ts';

// POST …/search, the twin of a section's GET search (docs/decisions/0020-api-keys-matching-reconciliation.md):
// the same parameters as JSON, and `filter`, nested any/all/not over the GET's filter vocabulary.

export const FILTER_DESCRIPTION =
  'Nested filters: `{"all": [...]}`, `{"any": [...]}`, `{"not": {...}}` around leaves that are one GET filter ' +
  'parameter each, written as in the URL (`{"jurisdiction": "de|fr"}`, `{"registration_date:from": "2020"}`, ' +
  `\`{"contacts[website]:is_known": ""}\`). At most ${FILTER_TREE_MAX_NODES} nodes, ${FILTER_TREE_MAX_DEPTH} levels deep. ` +
  'ANDed with nothing else: the body has no flat filters. `not` finds every row its filter does not find.';

/** The body fields every POST …/search shares; a section adds its own (count, sections, q). */
export function searchBodyFields(section: SectionDecl, sortKeys: [string, ...string[]]) {
  return {
    filter: z.unknown().optional().describe(FILTER_DESCRIPTION),
    sort: z
      .enum(sortKeys)
      .optional()
      .describe(`Order: ${sortKeys.join(', ')} (default ${section.defaultSort}).`),
    page: z.number().int().min(1).max(MAX_PAGE).optional().describe('Page number (offset paging); prefer `after`.'),
    after: z.string().optional().describe('Keyset cursor: `meta.next` of the previous page.'),
  };
}

export const queryField = z
  .string()
  .max(MAX_QUERY_LENGTH)
  .optional()
  .describe(
    'Company name query (typo-tolerant), or an identifier a company holds (company number with or without leading zeros or the register’s letters, LEI, VAT number, SEC CIK): the companies holding it come first. As `q` of the GET.',
  );

/** The search state of a POST …/search body: its plain fields through the GET's parser, then the tree. */
export function stateOfBody(
  section: SectionDecl,
  body: { q?: string; filter?: unknown; sort?: string; page?: number; after?: string },
): SearchState {
  const params = new URLSearchParams();
  if (body.q !== undefined) params.set('q', body.q);
  if (body.sort !== undefined) params.set('sort', body.sort);
  if (body.page !== undefined) params.set('page', String(body.page));
  if (body.after !== undefined) params.set('after', body.after);
  const parsed = parseSearchState(section, params);
  if (!parsed.ok) throw badRequest(parsed.errors);
  if (body.filter === undefined) return parsed.state;
  const tree = parseFilterTree(section, body.filter);
  if (!tree.ok) throw badRequest(tree.errors);
  return { ...parsed.state, tree: tree.tree };
}
