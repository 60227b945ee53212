import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { cached } from '../companies/count-companies.ts';

/** Exact counts stop here; beyond it the product shows "More than 10,000" (spec §9: export "all" is 10,000 too). */
export const COUNT_CAP = 10_000;

/** Rows of `table` (alias `b`) matching `where`: exact up to COUNT_CAP, else a lower bound. */
export async function countMatches(
  db: Db,
  table: string,
  where: RawBuilder<unknown> | null,
): Promise<{ total: number; totalIsLowerBound: boolean }> {
  if (!where) {
    // The unfiltered total changes only with imports, and counting a table scans all of it: the
    // last count serves at once and is recounted in the background as it ages (server/main.ts
    // counts every section's at start-up), so no reader waits for a scan.
    const total = await cached(db, `total:${table}`, async () => {
      const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db.kysely);
      return r.rows[0].n;
    });
    return { total, totalIsLowerBound: false };
  }
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${sql.table(table)} b where ${where} limit ${COUNT_CAP + 1}) t`.execute(
    db.kysely,
  );
  const n = r.rows[0].n;
  return n > COUNT_CAP ? { total: COUNT_CAP, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}
