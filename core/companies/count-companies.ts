import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';

/** Counts by a dimension scan the whole table: recounted at most every ten minutes. Companies taken down are not counted (ADR 0021). */
const TTL_MS = 10 * 60_000;
/** `expiredAt`: when the data last changed under the count (expireCachedCounts). */
type Entry = { at: number; value: Promise<unknown>; refreshing: boolean; expiredAt?: number };
const caches = new WeakMap<Db, Map<string, Entry>>();
/** How many counts of a database have been replaced by a recount (countsGeneration). */
const generations = new WeakMap<Db, number>();

function countsGeneration(db: Db): number {
  return generations.get(db) ?? 0;
}

/**
 * What the counts a page shows depend on, as a key: how many counts of `db` a finished recount has
 * replaced, and the ten minutes after which a reader recounts.
 * What is kept of pages that show counts names it (app/presenters/profile-parts.server.tsx): a
 * recount shows on the next page, and a page kept past ten minutes is rendered again, reading the
 * counts (which starts their recount), as when every page read them.
 */
export function countsState(db: Db): string {
  return `${countsGeneration(db)}/${Math.floor(Date.now() / TTL_MS)}`;
}

function replaceCount(db: Db, cache: Map<string, Entry>, key: string, entry: Entry): void {
  cache.set(key, entry);
  generations.set(db, countsGeneration(db) + 1);
}

/**
 * A whole-table count per database and key. The first call waits for it; later calls get the
 * last count at once, and one that finds it older than ten minutes recounts in the background
 * (stale while revalidating), so no reader waits for a recount. A failed count is not kept.
 */
export function cached<T>(db: Db, key: string, compute: () => Promise<T>): Promise<T> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(key);
  if (hit) {
    if (Date.now() - hit.at >= TTL_MS && !hit.refreshing) {
      hit.refreshing = true;
      const started = Date.now();
      compute().then(
        // A count begun before the data changed again is kept, but as stale: the next reader recounts.
        (value) =>
          replaceCount(db, cache, key, {
            at: (hit.expiredAt ?? 0) >= started ? 0 : Date.now(),
            value: Promise.resolve(value),
            refreshing: false,
          }),
        () => {
          hit.refreshing = false;
        },
      );
    }
    return hit.value as Promise<T>;
  }
  const value = compute().catch((error) => {
    caches.get(db)?.delete(key);
    throw error;
  });
  // A first count moves no generation: a page could only show it by waiting for it.
  cache.set(key, { at: Date.now(), value, refreshing: false });
  return value;
}

/**
 * Marks every count of a database stale (data changed under it: docs/decisions/0014-importers.md):
 * the next reader gets the last count at once and starts the recount.
 */
export function expireCachedCounts(db: Db): void {
  const now = Date.now();
  for (const entry of caches.get(db)?.values() ?? []) {
    entry.at = 0;
    entry.expiredAt = now;
  }
}

async function countBy(db: Db, column: 'jurisdiction_id' | 'primary_industry_id'): Promise<Map<number, number>> {
  const rows = await sql<{ id: number | null; n: number }>`
    select ${sql.ref(column)} as id, count(*)::int as n from legal_entities where ${visibleCompany()} group by 1`.execute(
    db.kysely,
  );
  return new Map(rows.rows.filter((r) => r.id !== null).map((r) => [r.id as number, r.n]));
}

/** Companies per jurisdiction (location id). */
export function countCompaniesByJurisdiction(db: Db): Promise<Map<number, number>> {
  return cached(db, 'jurisdiction', () => countBy(db, 'jurisdiction_id'));
}

/** Companies per industry, each industry counting its own and all its sub-industries' companies (primary industry). */
export function countCompaniesByIndustry(db: Db, reference: Reference): Promise<Map<number, number>> {
  return cached(db, 'industry', async () => {
    const direct = await countBy(db, 'primary_industry_id');
    const total = new Map<number, number>();
    for (const [id, n] of direct) {
      for (let i = reference.industries.byId.get(id); i; i = reference.industries.byId.get(i.parent_id ?? -1)) {
        total.set(i.id, (total.get(i.id) ?? 0) + n);
      }
    }
    return total;
  });
}
