import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { rebuildNameWords } from '../../db/seed/seed-companies.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { refreshExportDocuments } from '../export/export-documents.ts';

// What depends on the companies an import changed (docs/decisions/0014-importers.md "Refresh"):
// their export documents and the search lexicon's words of their old and new names, refreshed
// for those companies only. Counts, facet cubes and statistics are whole-table aggregates each
// process keeps in memory: a running app notices the import (core/imports/data-version.ts) and
// recounts them.

/** Changed names beyond which the whole lexicon is rebuilt (one pass is cheaper than per word). */
const REBUILD_LEXICON_FROM = 20_000;

export async function refreshDependents(
  db: Db,
  changed: { ids: number[]; names: string[]; allNames: boolean },
): Promise<void> {
  if (changed.ids.length === 0) return;
  if (changed.allNames || changed.names.length >= REBUILD_LEXICON_FROM) await rebuildNameWords(db);
  else await refreshNameWords(db, changed.names);
  await refreshExportDocuments(db, changed.ids);
}

/** Recounts the lexicon's words of these names (adding new words, dropping those no name has any more). */
export async function refreshNameWords(db: Db, names: string[]): Promise<void> {
  const searchNames = [...new Set(names.filter(Boolean).map(normalizeName))];
  if (searchNames.length === 0) return;
  await db.kysely.transaction().execute(async (tx) => {
    const words = (
      await sql<{ word: string }>`select distinct unnest(tsvector_to_array(to_tsvector('simple', n))) as word
        from unnest(${searchNames}::text[]) n`.execute(tx)
    ).rows.map((r) => r.word);
    if (words.length === 0) return;
    const counts = (
      await sql<{ word: string; documents: number }>`select w.word,
          (select count(*) from legal_entities l where l.name_tsv @@ phraseto_tsquery('simple', w.word))::int as documents
        from unnest(${words}::text[]) w(word)`.execute(tx)
    ).rows;
    const gone = counts.filter((c) => c.documents === 0).map((c) => c.word);
    const kept = counts.filter((c) => c.documents > 0);
    if (gone.length > 0) await sql`delete from name_words where word = any(${gone}::text[])`.execute(tx);
    if (kept.length === 0) return;
    await sql`insert into name_words (word, documents)
      select word, documents from jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) as x(word text, documents int)
      on conflict (word) do update set documents = excluded.documents`.execute(tx);
    await sql`insert into name_word_deletes (variant, word)
      select distinct overlay(w.word placing '' from i for 1), w.word
      from unnest(${kept.map((k) => k.word)}::text[]) w(word), generate_series(1, length(w.word)) i
      where length(w.word) >= 3
      on conflict do nothing`.execute(tx);
  });
}
