import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

// The search lexicon (name_words, name_word_deletes): each word of the visible companies' search
// names with the number of companies whose name holds it, and its one-letter deletions, for
// typo-tolerant search (core/companies/name-query.ts). Kept current by every company write through
// afterCompanyWrite (core/companies/company-writes.ts): moved by the changed names, or rebuilt.

/**
 * A company's search name (core/companies/normalize-name.ts) before and after a write (null: the
 * company is new, or was removed or taken down). Search names, not the names as read: a name read
 * from a file is a slice of the chunk it came in, and keeping it would keep the whole chunk alive.
 */
export type NameChange = { old: string | null; new: string | null };

/**
 * Rebuilds the lexicon of name words and its one-letter deletions from the companies not taken
 * down (ADR 0021), then refreshes their planner statistics.
 */
export async function rebuildNameWords(db: Db): Promise<void> {
  await sql`truncate name_words cascade`.execute(db.kysely);
  await sql`insert into name_words (word, documents) select word, ndoc from ts_stat('select name_tsv from legal_entities where taken_down_at is null')`.execute(
    db.kysely,
  );
  // Each word filed under what deleting one of its letters leaves ("bank" under "ank", "bnk", "bak",
  // "ban"); words of one or two letters stay out, their deletions would match nearly anything.
  await sql`
    insert into name_word_deletes (variant, word)
    select distinct overlay(w.word placing '' from i for 1), w.word
    from name_words w, generate_series(1, length(w.word)) i
    where length(w.word) >= 3`.execute(db.kysely);
  await sql`analyze name_words, name_word_deletes`.execute(db.kysely);
}

/**
 * Moves the lexicon's document counts by the changed names: each word of a new name counts one
 * company more, each word of an old name one fewer (the words as name_tsv has them: the distinct
 * lexemes of the search name); a word no name has any more goes, a new word comes with its
 * one-letter deletions. O(changed names), whatever the table's size; equal to a full rebuild.
 */
export async function refreshNameWords(db: Db, names: readonly NameChange[]): Promise<void> {
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
