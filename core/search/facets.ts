// Facets: how many rows each value of a section's main dimensions would give, under the other
// filters of the search (a value's own filter is left out, so that choosing another value is one
// click). Counts come from whole-table rollups cached for ten minutes when the other filters are
// none or one facet value (exact and instant), else from the first COUNT_CAP + 1 matching rows:
// exact when the search has at most COUNT_CAP rows, otherwise shown as lower bounds ("at least").

import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { cached } from '../companies/count-companies.ts';
import { plainNameQuery } from '../companies/name-query.ts';
import type { FilterParam } from '../filters/grammar.ts';
import { industryPath, type Reference } from '../reference/reference-data.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';
import { COUNT_CAP } from './count-matches.ts';
import { filterConditions, refValues } from './filter-sql.ts';
import type { SearchState } from './search-state.ts';

export type FacetValue = {
  /** The stored id (an industry facet shows sectors: the sector's id). */
  id: number;
  count: number;
  /** The count is a lower bound (the search has more than COUNT_CAP rows). */
  atLeast: boolean;
};

export type Facet = { field: string; values: FacetValue[] };

/** Values shown per facet, most frequent first. */
export const FACET_VALUES = 12;

type Dimension = { field: string; column: string; decl: FilterDecl };

function dimensions(section: SectionDecl): Dimension[] {
  return section.facets.map((field) => {
    const decl = section.filters.find((f) => f.field === field);
    if (!decl || (decl.kind !== 'reference' && decl.kind !== 'enum') || (decl.kind === 'reference' && decl.via)) {
      throw new Error(`${section.id}: facet ${field} must be a reference or enum filter on the base table`);
    }
    return { field, column: decl.column, decl };
  });
}

/** The ids an equality filter on a dimension selects, or null when it is another kind of filter. */
function selectedIds(dim: Dimension, p: FilterParam, reference: Reference): number[] | null {
  if (p.op !== 'eq') return null;
  if (dim.decl.kind === 'reference') return refValues(dim.decl, p, reference);
  if (dim.decl.kind === 'enum') {
    const values = dim.decl.values;
    return p.values.map((v) => values.find((e) => e.uri === v || String(e.id) === v)?.id ?? -1);
  }
  return null;
}

export async function facetCounts(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  state: SearchState,
): Promise<Facet[]> {
  const dims = dimensions(section);
  const table = section.baseTable;
  return Promise.all(
    dims.map(async (dim) => {
      const others = state.filters.filter((f) => f.field !== dim.field);
      let counts: Map<number, number>;
      let atLeast = false;
      const other = others.length === 1 ? dims.find((d) => d.field === others[0].field) : undefined;
      const otherIds = other ? selectedIds(other, others[0], reference) : null;
      if (!state.q && others.length === 0) {
        counts = await rollup(db, table, dim.column);
      } else if (!state.q && other && otherIds) {
        const pairs = await pairRollup(db, table, dim.column, other.column);
        const wanted = new Set(otherIds);
        counts = new Map();
        for (const [value, by] of pairs) {
          let n = 0;
          for (const [otherValue, count] of by) if (wanted.has(otherValue)) n += count;
          if (n > 0) counts.set(value, n);
        }
      } else {
        const conditions: Expression<SqlBool>[] = filterConditions(section, others, reference);
        const name = state.q ? plainNameQuery(state.q) : null;
        if (name) conditions.push(sql<SqlBool>`b.name_tsv @@ to_tsquery('simple', ${name.strict})`);
        const sample = await sql<{ id: number | null; n: number }>`
          select id, count(*)::int as n from (
            select ${sql.ref(`b.${dim.column}`)} as id from ${sql.table(table)} b
            where ${conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`}
            limit ${COUNT_CAP + 1}
          ) x group by id`.execute(db.kysely);
        counts = new Map(sample.rows.filter((r) => r.id !== null).map((r) => [r.id as number, r.n]));
        atLeast = sample.rows.reduce((sum, r) => sum + r.n, 0) > COUNT_CAP;
      }
      if (dim.decl.kind === 'reference' && dim.decl.ref === 'industries') counts = bySector(counts, reference);
      const values = [...counts]
        .map(([id, count]) => ({ id, count, atLeast }))
        .sort((a, b) => b.count - a.count || a.id - b.id)
        .slice(0, FACET_VALUES);
      return { field: dim.field, values };
    }),
  );
}

function bySector(counts: Map<number, number>, reference: Reference): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, n] of counts) {
    const sector = industryPath(reference, id)[0]?.id;
    if (sector !== undefined) out.set(sector, (out.get(sector) ?? 0) + n);
  }
  return out;
}

/** Rows per value of one column over the whole table. */
function rollup(db: Db, table: string, column: string): Promise<Map<number, number>> {
  return cached(db, `facet:${table}:${column}`, async () => {
    const r = await sql<{ id: number | null; n: number }>`
      select ${sql.ref(column)} as id, count(*)::int as n from ${sql.table(table)} group by 1`.execute(db.kysely);
    return new Map(r.rows.filter((x) => x.id !== null).map((x) => [x.id as number, x.n]));
  });
}

/** Rows per pair of values of two columns over the whole table: value of `column` → other value → rows. */
function pairRollup(
  db: Db,
  table: string,
  column: string,
  otherColumn: string,
): Promise<Map<number, Map<number, number>>> {
  return cached(db, `facet:${table}:${column}:${otherColumn}`, async () => {
    const r = await sql<{ a: number | null; b: number | null; n: number }>`
      select ${sql.ref(column)} as a, ${sql.ref(otherColumn)} as b, count(*)::int as n
      from ${sql.table(table)} group by 1, 2`.execute(db.kysely);
    const out = new Map<number, Map<number, number>>();
    for (const { a, b, n } of r.rows) {
      if (a === null || b === null) continue;
      let by = out.get(a);
      if (!by) {
        by = new Map();
        out.set(a, by);
      }
      by.set(b, n);
    }
    return out;
  });
}
