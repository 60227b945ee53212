import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Reference } from '../reference/reference-data.ts';
import type { SectionDecl } from '../sections/section.ts';
import { visibleRow } from '../takedowns/visible.ts';
import { plannedRows, roundEstimate } from './estimate-rows.ts';
import { sectionTotal } from './facets.ts';

/**
 * Exact counts stop here (ADR 0002, "Counts"): counting a frequent word's 10,000 matches took most
 * of a broad search's time, its first 1,001 a few milliseconds. Beyond, the total is an estimate.
 */
export const COUNT_CAP = 1_000;

/**
 * Rows of a section's table matching a search: `total` is exact when `totalIsEstimate` is false,
 * else an estimate ("about 52,000") that is never below `atLeast`, the rows counted exactly.
 */
export type MatchCount = { total: number; totalIsEstimate: boolean; atLeast: number };

/**
 * Rows of a section's table (alias `b`) matching `where`, none of a takedown (ADR 0021): exact up to COUNT_CAP, else the
 * planner's estimate, rounded (estimate-rows.ts). Without a filter, the table's total from the
 * section's facet cube (counted at start-up, recounted in the background as it ages), so that no
 * reader waits for a whole-table count.
 */
export async function countMatches(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  where: RawBuilder<unknown> | null,
): Promise<MatchCount> {
  if (!where) {
    const total = await sectionTotal(db, reference, section);
    return { total, totalIsEstimate: false, atLeast: total };
  }
  const r = await sql<{ n: number }>`select ${cappedCount(section, where)} as n`.execute(db.kysely);
  return matchCountOf(db, section, where, r.rows[0].n);
}

/**
 * The exact count of countMatches, as a scalar subquery that another statement can carry (a search's
 * page statement, ADR 0044): the rows matching `where`, none of a takedown, counted up to
 * COUNT_CAP + 1. Read it with matchCountOf.
 */
export function cappedCount(section: SectionDecl, where: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(select count(*)::int from (select 1 from ${sql.table(section.baseTable)} b where ${where} and ${visibleRow(section)} limit ${COUNT_CAP + 1}) t)`;
}

/** What a cappedCount of `n` says: exact up to COUNT_CAP, else the planner's estimate, never below `n`. */
export async function matchCountOf(
  db: Db,
  section: SectionDecl,
  where: RawBuilder<unknown>,
  n: number,
): Promise<MatchCount> {
  if (n <= COUNT_CAP) return { total: n, totalIsEstimate: false, atLeast: n };
  const estimate = await plannedRows(db, section.baseTable, where);
  return { total: roundEstimate(estimate, n), totalIsEstimate: true, atLeast: n };
}
