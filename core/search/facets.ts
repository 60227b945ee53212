// Facets: how many rows each value of a section's main dimensions would give, under the other
// filters of the search (a value's own filter is left out, so that choosing another value is one
// click). When every filter is a facet value, counts come from the section's cube (rows per
// combination of facet values, counted over the whole table and refreshed in the background):
// exact and instant. Otherwise from the first SAMPLE_ROWS + 1 matching rows: exact when the search
// has at most SAMPLE_ROWS rows; beyond, each value's share of the sample scaled by the planner's
// estimate of the search's rows, shown as estimates ("about 12,000"; ADR 0002, "Counts").
// The nested filters of POST …/search count the same way: the leaves the tree ANDs at its top are
// filters as the GET's, the rest of the tree a condition on every facet's rows (ADR 0033).

import { setImmediate } from 'node:timers/promises';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { cached } from '../companies/count-companies.ts';
import { plainNameQuery } from '../companies/name-query.ts';
import type { FilterParam } from '../filters/grammar.ts';
import { industryPath, type Reference } from '../reference/reference-data.ts';
import { enumValue } from '../sections/record-fields.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';
import { visibleRow } from '../takedowns/visible.ts';
import { plannedRows, roundEstimate } from './estimate-rows.ts';
import { filterConditions, refValues } from './filter-sql.ts';
import { type FilterTree, treeCondition, urlFilters } from './filter-tree.ts';
import type { SearchState } from './search-state.ts';

export type FacetValue = {
  /** The stored id (an industry facet shows sectors: the sector's id). */
  id: number;
  count: number;
  /** The count is an estimate (the search has more rows than the sample holds). */
  estimate: boolean;
};

export type Facet = { field: string; values: FacetValue[] };

/**
 * Rows a search that the cube cannot answer counts its facets over (as many as a name search's
 * relevance ranking looks at): exact when the search has no more, estimates beyond.
 */
const SAMPLE_ROWS = 2_000;

/**
 * Matching rows a spread sample (TABLESAMPLE SYSTEM, whole pages drawn across the table) aims at,
 * when drawing them reads at most SPREAD_MAX_PERCENT of the table; measured in the bench
 * ("count estimates").
 */
const SPREAD_ROWS = 4_000;
const SPREAD_MAX_PERCENT = 5;

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
    return p.values.map((v) => enumValue(values, v)?.id ?? -1);
  }
  return null;
}

/**
 * The section's facets (`section.facets`, or those of them in `fields`) under a search's filters
 * and nested filters, in the declared order.
 */
export async function facetCounts(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  state: SearchState,
  fields?: ReadonlySet<string>,
): Promise<Facet[]> {
  const dims = dimensions(section);
  const wanted = dims.flatMap((dim, i) => (!fields || fields.has(dim.field) ? [i] : []));
  const { filters, tree } = urlFilters(state);
  const predicates = state.q || tree ? null : cubePredicates(dims, filters, reference);
  const counts = predicates
    ? await fromCube(db, reference, section, dims, wanted, predicates)
    : await fromSample(db, reference, section, dims, wanted, { q: state.q, filters, tree });
  return wanted.map((i) => ({
    field: dims[i].field,
    values: [...counts[i].counts]
      .map(([id, count]) => ({ id, count, estimate: counts[i].estimate }))
      .sort((a, b) => b.count - a.count || a.id - b.id)
      .slice(0, FACET_VALUES),
  }));
}

type Counts = { counts: Map<number, number>; estimate: boolean };

const isIndustry = (dim: Dimension) => dim.decl.kind === 'reference' && dim.decl.ref === 'industries';

/**
 * The filters as tests on the cube's dimensions (one set of allowed values per dimension), or null
 * when some filter is not a facet value the cube holds (then the counts come from a sample).
 */
function cubePredicates(
  dims: Dimension[],
  filters: FilterParam[],
  reference: Reference,
): (Set<number> | null)[] | null {
  const predicates: (Set<number> | null)[] = dims.map(() => null);
  for (const f of filters) {
    const i = dims.findIndex((d) => d.field === f.field);
    if (i < 0) return null;
    const dim = dims[i];
    if (isIndustry(dim)) {
      // The cube holds sectors: a filter on deeper industries is counted from a sample.
      const sectors = f.values.map(Number);
      if (f.op !== 'eq' || !sectors.every((id) => reference.industries.byId.get(id)?.level === 1)) return null;
      predicates[i] = new Set(sectors);
      continue;
    }
    const ids = selectedIds(dim, f, reference);
    if (!ids) return null;
    predicates[i] = new Set(ids);
  }
  return predicates;
}

/**
 * Rows per combination of facet values: `values[g * dims + i]` is group g's value of dimension i
 * (-1 when unknown), `rows[g]` its row count; `byValue[i]` lists the groups of each value of
 * dimension i, and `totals[i]` the rows per value (the unfiltered facet).
 */
type Cube = {
  dims: number;
  values: Int32Array;
  rows: Float64Array;
  byValue: Map<number, number[]>[];
  totals: Map<number, number>[];
  /** `pairs[i][j].get(v)`: rows per value of dimension i among the rows whose dimension j is v. */
  pairs: Map<number, Map<number, number>>[][];
  /** Rows of the whole table. */
  total: number;
};

/**
 * The section's cube over the whole table (industries at sector level): one GROUP BY, kept and
 * refreshed in the background every ten minutes (warmFacets computes it at start-up).
 */
function cube(db: Db, reference: Reference, section: SectionDecl, dims: Dimension[]): Promise<Cube> {
  return cached(db, `facet-cube:${section.id}`, async () => {
    const industry = dims.find(isIndustry);
    const sectorOf = industry
      ? sql`left join (values ${sql.join(
          [...sectors(reference)].map(([id, sector]) => sql`(${id}::int, ${sector}::int)`),
        )}) as m(industry, sector) on m.industry = b.${sql.ref(industry.column)}`
      : sql``;
    const columns = dims.map((d, i) =>
      isIndustry(d) ? sql`m.sector as ${sql.ref(`d${i}`)}` : sql`b.${sql.ref(d.column)} as ${sql.ref(`d${i}`)}`,
    );
    const groups = await groupCounts(
      db,
      section,
      (range) => sql<Record<string, number | null>>`
      select ${sql.join(columns)}, count(*)::int as n from ${sql.table(section.baseTable)} b ${sectorOf}
      where ${range} and ${visibleRow(section)}
      group by ${sql.join(dims.map((_, i) => sql.raw(String(i + 1))))}`,
    );
    const k = dims.length;
    const values = new Int32Array(groups.length * k);
    const rows = new Float64Array(groups.length);
    const byValue = dims.map(() => new Map<number, number[]>());
    const totals = dims.map(() => new Map<number, number>());
    groups.forEach((row, g) => {
      rows[g] = row.n as number;
      for (let i = 0; i < k; i++) {
        const value = (row[`d${i}`] ?? -1) as number;
        values[g * k + i] = value;
        const list = byValue[i].get(value);
        if (list) list.push(g);
        else byValue[i].set(value, [g]);
        if (value !== -1) totals[i].set(value, (totals[i].get(value) ?? 0) + rows[g]);
      }
    });
    const pairs = dims.map((_, i) => dims.map((__, j) => (i === j ? new Map() : pairCounts(values, rows, k, i, j))));
    return { dims: k, values, rows, byValue, totals, pairs, total: rows.reduce((sum, n) => sum + n, 0) };
  });
}

/** Companies a cube statement counts at a time on PGlite. */
const PGLITE_CUBE_COMPANIES = 4_000;

/**
 * The rows of a cube's GROUP BY (`query` of a condition on the rows' company ids). PostgreSQL
 * runs it once. PGlite has one connection and runs a statement without yielding, so a whole-table
 * count would hold every request behind it: there it runs over ranges of company ids, a turn of
 * the event loop between them, and the groups of the ranges are added up.
 */
export async function groupCounts(
  db: Db,
  section: SectionDecl,
  query: (range: RawBuilder<SqlBool>) => RawBuilder<Record<string, number | null>>,
  companiesAtATime = PGLITE_CUBE_COMPANIES,
): Promise<Record<string, number | null>[]> {
  if (db.kind !== 'pglite') return (await query(sql<SqlBool>`true`).execute(db.kysely)).rows;
  const key = sql.ref(`b.${section.companyKey}`);
  const bounds = await sql<{ low: number | null; high: number | null }>`
    select min(${key})::int8 as low, max(${key})::int8 as high from ${sql.table(section.baseTable)} b`.execute(
    db.kysely,
  );
  const { low, high } = bounds.rows[0];
  const merged = new Map<string, Record<string, number | null>>();
  for (let from = Number(low ?? 0); low !== null && from <= Number(high); from += companiesAtATime) {
    const range = sql<SqlBool>`${key} >= ${from} and ${key} < ${from + companiesAtATime}`;
    for (const row of (await query(range).execute(db.kysely)).rows) {
      const { n, ...group } = row;
      const id = JSON.stringify(group);
      const seen = merged.get(id);
      if (seen) seen.n = (seen.n as number) + (n as number);
      else merged.set(id, { ...row });
    }
    await setImmediate();
  }
  return [...merged.values()];
}

function pairCounts(
  values: Int32Array,
  rows: Float64Array,
  k: number,
  i: number,
  j: number,
): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  for (let g = 0; g < rows.length; g++) {
    const value = values[g * k + i];
    if (value === -1) continue;
    const by = values[g * k + j];
    let counts = out.get(by);
    if (!counts) {
      counts = new Map();
      out.set(by, counts);
    }
    counts.set(value, (counts.get(value) ?? 0) + rows[g]);
  }
  return out;
}

async function fromCube(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  dims: Dimension[],
  wanted: number[],
  predicates: (Set<number> | null)[],
): Promise<Counts[]> {
  const c = await cube(db, reference, section, dims);
  const active = predicates.flatMap((p, j) => (p ? [j] : []));
  const out: Counts[] = dims.map(() => ({ counts: new Map(), estimate: false }));
  const walked: number[] = [];
  for (const i of wanted) {
    // A facet counts under the other filters (its own filter is left out).
    const others = active.filter((j) => j !== i);
    if (others.length === 0) out[i].counts = c.totals[i];
    else if (others.length === 1) {
      // One other filter: add up the pair counts of its values.
      const counts = out[i].counts;
      for (const v of predicates[others[0]] as Set<number>) {
        for (const [value, n] of c.pairs[i][others[0]].get(v) ?? []) counts.set(value, (counts.get(value) ?? 0) + n);
      }
    } else if (predicates[i]) out[i].counts = walkCube(c, predicates, others, [i])[0];
    // Facets without a filter of their own all count under every filter: one walk serves them all.
    else walked.push(i);
  }
  if (walked.length > 0) {
    walkCube(c, predicates, active, walked).forEach((counts, n) => {
      out[walked[n]].counts = counts;
    });
  }
  return out;
}

/**
 * Rows per value of each dimension in `into`, over the cube's groups that pass every filter in
 * `filters`: walks the groups of the filter with the fewest and tests the others.
 */
function walkCube(
  c: Cube,
  predicates: (Set<number> | null)[],
  filters: number[],
  into: number[],
): Map<number, number>[] {
  const groupCount = (j: number) => {
    let n = 0;
    for (const v of predicates[j] as Set<number>) n += c.byValue[j].get(v)?.length ?? 0;
    return n;
  };
  let start = filters[0];
  let fewest = groupCount(start);
  for (const j of filters.slice(1)) {
    const n = groupCount(j);
    if (n < fewest) [start, fewest] = [j, n];
  }
  const tests = filters.filter((j) => j !== start).map((j) => [j, predicates[j] as Set<number>] as const);
  const counts = into.map(() => new Map<number, number>());
  const k = c.dims;
  for (const v of predicates[start] as Set<number>) {
    for (const g of c.byValue[start].get(v) ?? []) {
      let matches = true;
      for (const [j, allowed] of tests) {
        if (!allowed.has(c.values[g * k + j])) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      for (let n = 0; n < into.length; n++) {
        const value = c.values[g * k + into[n]];
        if (value !== -1) counts[n].set(value, (counts[n].get(value) ?? 0) + c.rows[g]);
      }
    }
  }
  return counts;
}

/**
 * Counts from the first SAMPLE_ROWS + 1 matching rows: exact when the search has no more; else
 * each value's share of the sample times the planner's estimate of the rows matching (never
 * below the value's rows in the sample), rounded as an estimate. Facets whose own filter is not
 * in the search share one query. The rest of a tree (what no URL filter says) holds for every facet.
 */
async function fromSample(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  dims: Dimension[],
  wanted: number[],
  search: { q: string; filters: FilterParam[]; tree?: FilterTree },
): Promise<Counts[]> {
  const out: Counts[] = dims.map(() => ({ counts: new Map(), estimate: false }));
  const name = search.q ? plainNameQuery(search.q) : null;
  const cap = SAMPLE_ROWS;
  const filtered = new Set(search.filters.map((f) => f.field));
  const batches = new Map<string, number[]>();
  for (const i of wanted) {
    const key = filtered.has(dims[i].field) ? dims[i].field : '';
    batches.set(key, [...(batches.get(key) ?? []), i]);
  }
  await Promise.all(
    [...batches].map(async ([excluded, members]) => {
      const others = search.filters.filter((f) => f.field !== excluded);
      const conditions: Expression<SqlBool>[] = filterConditions(section, others, reference);
      if (search.tree) conditions.push(treeCondition(section, search.tree, reference));
      if (name) conditions.push(sql<SqlBool>`b.name_tsv @@ to_tsquery('simple', ${name.strict})`);
      const filtered = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
      // Rows of a takedown are left out of the sample (ADR 0021), not of the planner's estimate:
      // it would take the `not in` for half the rows (a handful of ids among millions).
      const where = sql`${filtered} and ${visibleRow(section)}`;
      const table = sql.table(section.baseTable);
      let sample = await sampleCounts(db, dims, members, sql`${table} b`, where, cap + 1);
      const estimate = sample.rows > cap;
      let matches = sample.rows;
      if (estimate) {
        matches = Math.max(await plannedRows(db, section.baseTable, filtered), sample.rows);
        // The first rows an index or the table yields cluster (the earliest dates of a range, the
        // records of a few companies): when cheap, count over pages drawn across the whole table.
        // A name search's rows come from a bitmap, in table order, and matching a name on every
        // row of the drawn pages costs more than its frequent words' target allows.
        const percent = (100 * SPREAD_ROWS) / matches;
        if (!name && percent <= SPREAD_MAX_PERCENT) {
          const from = sql`${table} b tablesample system (${sql.lit(Number(percent.toFixed(4)))}) repeatable (0)`;
          const spread = await sampleCounts(db, dims, members, from, where, null);
          if (spread.rows >= SPREAD_ROWS / 4) sample = spread;
        }
      }
      const scale = matches / sample.rows;
      members.forEach((i, m) => {
        const counts = sample.counts[m];
        const byValue = isIndustry(dims[i]) ? bySector(counts, reference) : counts;
        if (estimate) for (const [value, n] of byValue) byValue.set(value, roundEstimate(n * scale, n));
        out[i] = { counts: byValue, estimate };
      });
    }),
  );
  return out;
}

/**
 * Rows per value of each member dimension among the rows of `from` matching `where` (at most
 * `limit`), and the rows counted. Counted by the database, one grouping set per facet and () for
 * the sample's size: only (value, rows) pairs travel, not the sample's rows (parsing 2,001 rows
 * was most of a range search's page time).
 */
async function sampleCounts(
  db: Db,
  dims: Dimension[],
  members: number[],
  from: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
  limit: number | null,
): Promise<{ counts: Map<number, number>[]; rows: number }> {
  const refs = members.map((i) => sql.ref(`d${i}`));
  const columns = members.map((i) => sql`b.${sql.ref(dims[i].column)}::int as ${sql.ref(`d${i}`)}`);
  const r = await sql<Record<string, number | null>>`
    select grouping(${sql.join(refs)})::int as grouped_out, ${sql.join(refs)}, count(*)::int as n
    from (select ${sql.join(columns)} from ${from} where ${where} ${limit === null ? sql`` : sql`limit ${limit}`}) sample
    group by grouping sets (${sql.join(refs.map((ref) => sql`(${ref})`))}, ())`.execute(db.kysely);
  // grouping() is a bit per column, the first column's the highest, set when not grouped by.
  const all = (1 << members.length) - 1;
  const positionOf = new Map(members.map((_, m) => [all & ~(1 << (members.length - 1 - m)), m]));
  const counts = members.map(() => new Map<number, number>());
  let rows = 0;
  for (const row of r.rows) {
    const grouped = row.grouped_out as number;
    if (grouped === all) rows = row.n as number;
    const m = positionOf.get(grouped);
    const value = m === undefined ? null : row[`d${members[m]}`];
    if (m !== undefined && value !== null) counts[m].set(value, row.n as number);
  }
  return { counts, rows };
}

function bySector(counts: Map<number, number>, reference: Reference): Map<number, number> {
  const sectorOf = sectors(reference);
  const out = new Map<number, number>();
  for (const [id, n] of counts) {
    const sector = sectorOf.get(id);
    if (sector !== undefined) out.set(sector, (out.get(sector) ?? 0) + n);
  }
  return out;
}

/** Each industry's sector (its top-level ancestor), once per reference data. */
const sectorCache = new WeakMap<Reference, Map<number, number>>();
function sectors(reference: Reference): Map<number, number> {
  let sectorOf = sectorCache.get(reference);
  if (!sectorOf) {
    sectorOf = new Map(reference.industries.items.map((i) => [i.id, industryPath(reference, i.id)[0].id]));
    sectorCache.set(reference, sectorOf);
  }
  return sectorOf;
}

/**
 * Rows of a section's whole table, from its cube: the unfiltered search's total, as current as
 * its facets, without a count of its own.
 */
export async function sectionTotal(db: Db, reference: Reference, section: SectionDecl): Promise<number> {
  return (await cube(db, reference, section, dimensions(section))).total;
}

/**
 * Computes every section's facet cube (at start-up), one after the other, with a turn of the event
 * loop in between: on PGlite (one connection, a statement blocks the process) requests that came
 * meanwhile run their queries before the next cube.
 */
export async function warmFacets(db: Db, reference: Reference, sections: SectionDecl[]): Promise<void> {
  for (const section of sections) {
    await cube(db, reference, section, dimensions(section));
    await setImmediate();
  }
}
