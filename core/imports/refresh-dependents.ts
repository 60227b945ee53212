import { sql } from 'kysely';
import { type Db, execScript } from '../../db/client.ts';
import { rebuildNameWords } from '../../db/seed/seed-companies.ts';
import { refreshExportDocuments } from '../export/export-documents.ts';

// What depends on the companies an import changed (docs/decisions/0014-importers.md "Refresh"):
// their export documents and the search lexicon's words of their old and new names, refreshed
// for those companies only. Counts, facet cubes and statistics are whole-table aggregates each
// process keeps in memory: a running app notices the import (core/imports/data-version.ts) and
// recounts them.

/**
 * A company's search name (core/companies/normalize-name.ts) before and after an import (null: the
 * company is new, or was removed). Search names, not the names as read: a name read from a file is
 * a slice of the chunk it came in, and keeping it would keep the whole chunk alive until the end.
 */
export type NameChange = { old: string | null; new: string | null };

export async function refreshDependents(
  db: Db,
  changed: { ids: number[]; names: NameChange[]; allNames: boolean },
): Promise<void> {
  if (changed.ids.length === 0) return;
  if (changed.allNames) await rebuildNameWords(db);
  else await refreshNameWords(db, changed.names);
  await refreshExportDocuments(db, changed.ids);
}

/** Companies created or changed from which an import vacuums and analyzes what it wrote (core/imports/run-import.ts). */
export const VACUUM_AFTER = 10_000;

/** The tables an import writes (core/imports/write-companies.ts, company-fields.ts) and refreshes, parents first. */
export const IMPORTED_TABLES = [
  'legal_entities',
  'members',
  'legal_entity_names',
  'legal_entity_addresses',
  'legal_entity_dates',
  'legal_entity_identifiers',
  'legal_entity_industries',
  'legal_entity_statuses',
  'legal_entity_legal_forms',
  'legal_entity_members',
  'company_keys',
  'company_source_records',
  'company_changes',
  'company_provenance',
  'export_documents',
  'name_words',
  'name_word_deletes',
];

/**
 * After a large import: the planner's statistics of the written tables, and VACUUM's visibility
 * map and free space (an update leaves dead rows and index entries behind; without the visibility
 * map, counts and the lexicon's index-only scans read every heap row), as a fresh load has them —
 * search stays as fast as after a fresh load (docs/decisions/0014-importers.md "Refresh").
 * Autovacuum would come to it, later; VACUUM cannot run in a transaction.
 */
export async function vacuumImported(db: Db): Promise<void> {
  for (const table of IMPORTED_TABLES) {
    const statement = `vacuum (analyze) "${table}"`;
    if (db.pool) await db.pool.query(statement);
    else await execScript(db, statement);
  }
}

/**
 * Moves the lexicon's document counts by the changed names: each word of a new name counts one
 * company more, each word of an old name one fewer (the words as name_tsv has them: the distinct
 * lexemes of the search name); a word no name has any more goes, a new word comes with its
 * one-letter deletions. O(changed names), whatever the table's size.
 */
export async function refreshNameWords(db: Db, names: NameChange[]): Promise<void> {
  const pairs = names.filter((n) => n.old !== n.new);
  if (pairs.length === 0) return;
  await db.kysely.transaction().execute(async (tx) => {
    const deltas = (
      await sql<{ word: string; delta: number }>`
        with pairs as (select * from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as x(old text, new text))
        select word, sum(delta)::int as delta from (
          select unnest(tsvector_to_array(to_tsvector('simple', coalesce(new, '')))) as word, 1 as delta from pairs
          union all
          select unnest(tsvector_to_array(to_tsvector('simple', coalesce(old, '')))) as word, -1 as delta from pairs
        ) w group by word having sum(delta) <> 0`.execute(tx)
    ).rows;
    if (deltas.length === 0) return;
    const json = JSON.stringify(deltas);
    const added = await sql<{ word: string }>`
      insert into name_words (word, documents)
      select word, delta from jsonb_to_recordset(${json}::jsonb) as x(word text, delta int) where delta > 0
      on conflict (word) do update set documents = name_words.documents + excluded.documents
      returning word, (xmax = 0) as inserted`.execute(tx);
    await sql`update name_words w set documents = w.documents + x.delta
      from jsonb_to_recordset(${json}::jsonb) as x(word text, delta int) where x.delta < 0 and w.word = x.word`.execute(
      tx,
    );
    await sql`delete from name_words where documents <= 0`.execute(tx);
    const fresh = (added.rows as { word: string; inserted: boolean }[]).filter((r) => r.inserted).map((r) => r.word);
    if (fresh.length > 0)
      await sql`insert into name_word_deletes (variant, word)
        select distinct overlay(w.word placing '' from i for 1), w.word
        from unnest(${fresh}::text[]) w(word), generate_series(1, length(w.word)) i
        where length(w.word) >= 3
        on conflict do nothing`.execute(tx);
  });
}
