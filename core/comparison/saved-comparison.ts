import type { Db } from '../../db/client.ts';
import { MAX_COMPARED_COMPANIES } from './comparison-set.ts';

// A signed-in user's comparison, kept server-side (table saved_comparisons, migration 0009): one
// row per user with the company ids in order. Every statement is scoped to the caller's user id.

/** The ids of the user's comparison, in order (empty when they never compared anything). */
export async function getSavedComparison(db: Db, userId: number): Promise<number[]> {
  const row = await db.kysely
    .selectFrom('saved_comparisons')
    .select('legal_entity_ids')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return idsOf(row?.legal_entity_ids);
}

/**
 * Changes the user's comparison atomically: `change` gets the saved ids (row locked, so two
 * requests of one user cannot lose each other's change) and returns the new ones.
 */
export async function updateSavedComparison<T extends { ids: number[] }>(
  db: Db,
  userId: number,
  change: (saved: number[]) => T,
): Promise<T> {
  return db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('saved_comparisons')
      .values({ user_id: userId, legal_entity_ids: [] })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await trx
      .selectFrom('saved_comparisons')
      .select('legal_entity_ids')
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const saved = idsOf(row.legal_entity_ids);
    const result = change(saved);
    const ids = result.ids.slice(0, MAX_COMPARED_COMPANIES);
    if (ids.join() !== saved.join()) {
      await trx
        .updateTable('saved_comparisons')
        .set({ legal_entity_ids: ids, updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute();
    }
    return { ...result, ids };
  });
}

/** bigint[] arrives as numbers, numeric strings or (PGlite, sometimes) a `{1,2}` literal. */
function idsOf(value: unknown): number[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];
  return list.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
}
