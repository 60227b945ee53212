import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Exact counts stop here; beyond it the product shows "More than 10,000" (spec §9: export "all" is 10,000 too). */
export const COUNT_CAP = 10_000;

/** Unfiltered totals per database and table, counted at most once a minute. */
const totals = new WeakMap<Db, Map<string, { at: number; total: number }>>();

/** Rows of `table` (alias `b`) matching `where`: exact up to COUNT_CAP, else a lower bound. */
export async function countMatches(
  db: Db,
  table: string,
  where: RawBuilder<unknown> | null,
): Promise<{ total: number; totalIsLowerBound: boolean }> {
  if (!where) {
    // The unfiltered total changes only with imports: count once a minute, not per request.
    let byTable = totals.get(db);
    if (!byTable) {
      byTable = new Map();
      totals.set(db, byTable);
    }
    let cached = byTable.get(table);
    if (!cached || Date.now() - cached.at > 60_000) {
      const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db.kysely);
      cached = { at: Date.now(), total: r.rows[0].n };
      byTable.set(table, cached);
    }
    return { total: cached.total, totalIsLowerBound: false };
  }
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${sql.table(table)} b where ${where} limit ${COUNT_CAP + 1}) t`.execute(
    db.kysely,
  );
  const n = r.rows[0].n;
  return n > COUNT_CAP ? { total: COUNT_CAP, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}
