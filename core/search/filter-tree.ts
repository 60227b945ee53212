import { type Expression, type SqlBool, sql } from 'kysely';
import { type FilterParam, type GrammarError, isGrammarError, paramKey } from '../filters/grammar.ts';
import type { Reference } from '../reference/reference-data.ts';
import type { SectionDecl } from '../sections/section.ts';
import { filterConditions } from './filter-sql.ts';
import { parseFilterPair } from './search-state.ts';

// Nested boolean filters (docs/decisions/0020-api-keys-matching-reconciliation.md): the body of
// POST …/search says `{"all": [...]}`, `{"any": [...]}` or `{"not": {...}}` around leaves written in
// the search URL's own vocabulary, one parameter each (`{"jurisdiction": "de|fr"}`,
// `{"registration_date:from": "2020"}`), so that a leaf means exactly what the GET parameter means.

export type FilterTree = { all: FilterTree[] } | { any: FilterTree[] } | { not: FilterTree } | { leaf: FilterParam };

/** How deep a tree may nest, and how many nodes it may have: a bound on the SQL it becomes. */
export const FILTER_TREE_MAX_DEPTH = 8;
export const FILTER_TREE_MAX_NODES = 100;

type Parsed = { ok: true; tree: FilterTree } | { ok: false; errors: GrammarError[] };

/** Parses a JSON filter tree against a section's filters; every problem names its path (`filter.all.1.any.0`). */
export function parseFilterTree(section: SectionDecl, json: unknown, path = 'filter'): Parsed {
  const errors: GrammarError[] = [];
  let nodes = 0;
  const walk = (node: unknown, at: string, depth: number): FilterTree | null => {
    nodes += 1;
    if (nodes > FILTER_TREE_MAX_NODES) {
      if (nodes === FILTER_TREE_MAX_NODES + 1)
        errors.push({ parameter: path, message: `${path} has more than ${FILTER_TREE_MAX_NODES} nodes` });
      return null;
    }
    if (depth > FILTER_TREE_MAX_DEPTH) {
      errors.push({ parameter: at, message: `${at} nests deeper than ${FILTER_TREE_MAX_DEPTH} levels` });
      return null;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      errors.push({
        parameter: at,
        message: `${at} must be an object: {"all": […]}, {"any": […]}, {"not": …} or a filter`,
      });
      return null;
    }
    const entries = Object.entries(node);
    if (entries.length !== 1) {
      errors.push({ parameter: at, message: `${at} must have exactly one key` });
      return null;
    }
    const [key, value] = entries[0];
    if (key === 'all' || key === 'any') {
      if (!Array.isArray(value) || value.length === 0) {
        errors.push({ parameter: `${at}.${key}`, message: `${at}.${key} must be a non-empty list` });
        return null;
      }
      const children = value.map((child, i) => walk(child, `${at}.${key}.${i}`, depth + 1));
      if (children.some((c) => c === null)) return null;
      return key === 'all' ? { all: children as FilterTree[] } : { any: children as FilterTree[] };
    }
    if (key === 'not') {
      const child = walk(value, `${at}.not`, depth + 1);
      return child ? { not: child } : null;
    }
    // A leaf: one parameter of the section's search URL, its value a string as in the URL.
    if (typeof value !== 'string') {
      errors.push({ parameter: `${at}.${key}`, message: `${at}.${key} must be a string, as in the search URL` });
      return null;
    }
    const parsed = parseFilterPair(section, key, value);
    if (parsed === null) {
      errors.push({ parameter: `${at}.${key}`, message: `${at}.${key} is empty` });
      return null;
    }
    if (isGrammarError(parsed)) {
      errors.push({ parameter: `${at}.${parsed.parameter}`, message: `${at}: ${parsed.message}` });
      return null;
    }
    return { leaf: parsed };
  };
  const tree = walk(json, path, 1);
  return tree && errors.length === 0 ? { ok: true, tree } : { ok: false, errors };
}

/**
 * The SQL condition of a tree on the section's base table (alias `b`). A leaf is the GET
 * parameter's own condition (core/search/filter-sql.ts); `not` treats an unknown value as not
 * matching, so that `not` of a filter finds every row the filter does not.
 */
export function treeCondition(section: SectionDecl, tree: FilterTree, reference: Reference): Expression<SqlBool> {
  if ('leaf' in tree) return filterConditions(section, [tree.leaf], reference)[0];
  if ('not' in tree) return sql<SqlBool>`not coalesce((${treeCondition(section, tree.not, reference)}), false)`;
  const parts = ('all' in tree ? tree.all : tree.any).map((child) => treeCondition(section, child, reference));
  return sql<SqlBool>`(${sql.join(parts, 'all' in tree ? sql` and ` : sql` or `)})`;
}

/** The conditions of a search state: its URL filters, and its tree when it has one. */
export function stateConditions(
  section: SectionDecl,
  state: { filters: FilterParam[]; tree?: FilterTree },
  reference: Reference,
): Expression<SqlBool>[] {
  const conditions = filterConditions(section, state.filters, reference);
  return state.tree ? [...conditions, treeCondition(section, state.tree, reference)] : conditions;
}

/**
 * A state's filters as the GET would say as many of them as it can (ADR 0033): the leaves the tree
 * ANDs at its top (the tree itself when it is a leaf, the leaves of its top `all`, of an `all`
 * inside it, …) join the URL's filters; whatever else the tree says stays a tree. A leaf whose
 * parameter is already a filter stays in the tree: in a URL a parameter is one filter, its values
 * ORed, where two leaves under `all` are ANDed. Facets read filters this way, so that a facet
 * leaves out its own filter as the GET's does.
 */
export function urlFilters(state: { filters: FilterParam[]; tree?: FilterTree }): {
  filters: FilterParam[];
  tree?: FilterTree;
} {
  if (!state.tree) return { filters: state.filters };
  const filters = [...state.filters];
  const rest: FilterTree[] = [];
  const visit = (node: FilterTree) => {
    if ('all' in node) node.all.forEach(visit);
    else if ('leaf' in node && !filters.some((f) => paramKey(f) === paramKey(node.leaf))) filters.push(node.leaf);
    else rest.push(node);
  };
  visit(state.tree);
  if (rest.length === 0) return { filters };
  return { filters, tree: rest.length === 1 ? rest[0] : { all: rest } };
}
