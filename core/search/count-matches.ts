import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Reference } from '../reference/reference-data.ts';
import type { SectionDecl } from '../sections/section.ts';
import { sectionTotal } from './facets.ts';

/** Exact counts stop here; beyond it the product shows "More than 10,000" (spec §9: export "all" is 10,000 too). */
export const COUNT_CAP = 10_000;

/**
 * Rows of a section's table (alias `b`) matching `where`: exact up to COUNT_CAP, else a lower
 * bound. Without a filter, the table's total from the section's facet cube (counted at start-up,
 * recounted in the background as it ages), so that no reader waits for a whole-table count.
 */
export type MatchCount = { total: number; totalIsLowerBound: boolean };

/**
 * A page query and its count, run together: both settle before either failure is thrown, so no
 * query outlives its request and no rejection goes unhandled (an unhandled one ends the process).
 */
export async function withCount<T>(page: Promise<T>, counting: Promise<MatchCount>): Promise<[T, MatchCount]> {
  const [read, count] = await Promise.allSettled([page, counting]);
  if (read.status === 'rejected') throw read.reason;
  if (count.status === 'rejected') throw count.reason;
  return [read.value, count.value];
}

export async function countMatches(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  where: RawBuilder<unknown> | null,
): Promise<MatchCount> {
  if (!where) return { total: await sectionTotal(db, reference, section), totalIsLowerBound: false };
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${sql.table(section.baseTable)} b where ${where} limit ${COUNT_CAP + 1}) t`.execute(
    db.kysely,
  );
  const n = r.rows[0].n;
  return n > COUNT_CAP ? { total: COUNT_CAP, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}
