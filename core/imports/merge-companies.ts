import { sql } from 'kysely';
import type { Tx } from './sql-rows.ts';

// Two companies that turn out to be one (docs/decisions/0014-importers.md "Merges"): a record whose
// keys name both. The second is merged into the first, in the import's transaction: its keys, the
// companies' members that were it, its change history and what users keep of it (lists, trackings,
// purchases, history, comparisons, reports) move to the survivor; then it is deleted, and
// company_merges keeps its URI, which answers with a permanent redirect to the survivor.

export type MergedCompany = { id: number; uri: string; name: string };

/** Merges `mergedId` into `survivorId`; returns what the merged company was, or null if it is gone already. */
export async function mergeCompany(
  tx: Tx,
  survivorId: number,
  mergedId: number,
  context: { source: string; importId: number },
): Promise<MergedCompany | null> {
  if (survivorId === mergedId) return null;
  const merged = (await sql<MergedCompany>`select id, uri, name from legal_entities where id = ${mergedId}`.execute(tx))
    .rows[0];
  if (!merged) return null;
  const moved = { from: mergedId, to: survivorId };
  await sql`insert into company_merges (merged_id, merged_uri, merged_name, survivor_id, import_id)
    values (${mergedId}, ${merged.uri}, ${merged.name}, ${survivorId}, ${context.importId})`.execute(tx);
  // Companies merged into this one earlier now lead to the survivor directly.
  await sql`update company_merges set survivor_id = ${survivorId} where survivor_id = ${mergedId}`.execute(tx);
  await sql`update company_keys set legal_entity_id = ${survivorId} where legal_entity_id = ${mergedId}`.execute(tx);
  await sql`update members set legal_entity_id = ${survivorId} where legal_entity_id = ${mergedId}`.execute(tx);
  await sql`update company_changes set legal_entity_id = ${survivorId} where legal_entity_id = ${mergedId}`.execute(tx);
  // What users keep: one row per user (and list) and company, so a row the survivor has already wins.
  await moveUnique(tx, 'watchlist_objects', ['user_id', 'watchlist_id'], moved);
  await moveUnique(tx, 'purchases', ['user_id'], moved);
  await moveUnique(tx, 'existing_objects_tracking', ['user_id'], moved);
  for (const table of ['browsing_history', 'existing_objects_reports'] as const)
    await sql`update ${sql.table(table)} set legal_entity_id = ${survivorId} where legal_entity_id = ${mergedId}`.execute(
      tx,
    );
  for (const table of ['saved_comparisons', 'new_objects_reports'] as const)
    await sql`update ${sql.table(table)} set legal_entity_ids = array_replace(legal_entity_ids, ${mergedId}::bigint, ${survivorId}::bigint)
      where ${mergedId}::bigint = any(legal_entity_ids)`.execute(tx);
  await sql`insert into company_changes (legal_entity_id, field, old_value, new_value, source, import_id)
    values (${survivorId}, 'merged', ${JSON.stringify(merged)}::jsonb, null, ${context.source}, ${context.importId})`.execute(
    tx,
  );
  await sql`delete from legal_entities where id = ${mergedId}`.execute(tx);
  return { id: Number(merged.id), uri: merged.uri, name: merged.name };
}

async function moveUnique(
  tx: Tx,
  table: 'watchlist_objects' | 'purchases' | 'existing_objects_tracking',
  scope: string[],
  moved: { from: number; to: number },
): Promise<void> {
  const same = sql.join(
    scope.map((column) => sql`s.${sql.ref(column)} = t.${sql.ref(column)}`),
    sql` and `,
  );
  await sql`update ${sql.table(table)} t set legal_entity_id = ${moved.to}
    where t.legal_entity_id = ${moved.from}
      and not exists (select 1 from ${sql.table(table)} s where ${same} and s.legal_entity_id = ${moved.to})`.execute(
    tx,
  );
  await sql`delete from ${sql.table(table)} where legal_entity_id = ${moved.from}`.execute(tx);
}
