import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { cachedLegalEntityCounts, expireLegalEntityCounts } from '../api/legal-entity-statistics.ts';
import { expireCachedCounts } from '../companies/count-companies.ts';

// A running app sees an import made by another process (the CLI) within seconds
// (docs/decisions/0014-importers.md "Refresh"): it polls the data's version — the last change and
// the last finished import — and when it moves, it recounts the whole-table aggregates it keeps in
// memory (counts, facet cubes, statistics) in the background and drops its kept pages. Search,
// profiles and exports read the tables, which the import has already updated.

/**
 * The data's version: moves with every company write (bumpDataVersion, called by afterCompanyWrite:
 * the seed, each batch of an import, a takedown), every committed change and every import's start
 * and end.
 */
export async function readDataVersion(db: Db): Promise<string> {
  const row = await sql<{ version: string }>`select concat_ws('/',
      (select last_value from company_writes),
      (select max(id) from company_changes),
      (select max(id) from imports where status <> 'running'),
      (select count(*) from imports where status = 'running'),
      (select max(id) from takedown_log)) as version`.execute(db.kysely);
  return row.rows[0]?.version ?? '';
}

/** Moves the data's version: other processes forget their aggregates on their next poll (watchDataVersion). */
export async function bumpDataVersion(db: Db): Promise<void> {
  await sql`select nextval('company_writes')`.execute(db.kysely);
}

/** Expires what the process keeps of the whole tables; the next readers recount them (serving the old counts meanwhile). */
export function forgetAggregates(db: Db): void {
  expireCachedCounts(db);
  // Start the statistics' recount now rather than on the next page view — where they were counted:
  // a process that never read them (the CLI importing batch after batch) does not start counting.
  if (expireLegalEntityCounts(db)) cachedLegalEntityCounts(db).counts.catch(() => {});
}

/** Polls the data's version every `intervalMs`; calls `onChange` after forgetting the aggregates. Returns stop(). */
export function watchDataVersion(db: Db, intervalMs: number, onChange: () => void = () => {}): () => void {
  let last: string | null = null;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const version = await readDataVersion(db);
      if (last !== null && version !== last) {
        forgetAggregates(db);
        onChange();
      }
      last = version;
    } catch {
      // A database outage: the next tick tries again.
    } finally {
      busy = false;
    }
  };
  // The version the app starts from is read at once: an import that begins before the first
  // interval has passed is then seen as a change, not taken for the starting point.
  void tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
