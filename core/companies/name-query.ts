import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { nameWords } from './normalize-name.ts';

/** Corrections tried per query word that is not a known name word. */
const CORRECTIONS = 4;
/** Trigram similarity a correction needs (pg_trgm's default of 0.3 misses swapped letters in short words). */
const CORRECTION_THRESHOLD = 0.2;

export type NameQuery = {
  /** Every word must match (a misspelt word matches through its corrections). */
  strict: string;
  /** The same without the misspelt words, tried when `strict` finds nothing; null when nothing would remain. */
  relaxed: string | null;
  /** The normalised query, for ranking. */
  normalized: string;
  /** True when some word was not a known name word. */
  corrected: boolean;
};

/**
 * Turns a name query into full-text queries over `legal_entities.name_tsv`. Words that occur in
 * some company name are kept as they are; a word that occurs in none (a typo) is replaced by the
 * closest known words, found through the trigram index on the `name_words` lexicon (PERFORMANCE.md:
 * typo tolerance on words, not on whole names).
 */
export async function buildNameQuery(k: Kysely<Database>, q: string): Promise<NameQuery | null> {
  const words = [...new Set(nameWords(q))].slice(0, 8);
  if (words.length === 0) return null;
  const known = await k.selectFrom('name_words').select('word').where('word', 'in', words).execute();
  const knownSet = new Set(known.map((r) => r.word));
  const unknown = words.filter((w) => !knownSet.has(w));
  const corrections = unknown.length > 0 ? await correct(k, unknown) : new Map<string, string[]>();
  const strict = words.map((word) => {
    const alternatives = [word, ...(corrections.get(word) ?? [])];
    return alternatives.length === 1 ? word : `(${alternatives.join(' | ')})`;
  });
  const kept = words.filter((w) => knownSet.has(w));
  return {
    strict: strict.join(' & '),
    relaxed: unknown.length > 0 && kept.length > 0 ? kept.join(' & ') : null,
    normalized: words.join(' '),
    corrected: unknown.length > 0,
  };
}

async function correct(k: Kysely<Database>, words: string[]): Promise<Map<string, string[]>> {
  return k.transaction().execute(async (trx) => {
    await sql`select set_config('pg_trgm.similarity_threshold', ${String(CORRECTION_THRESHOLD)}, true)`.execute(trx);
    const out = new Map<string, string[]>();
    for (const word of words) {
      const close = await sql<{ word: string }>`
        select word from name_words
        where word % ${word}
        order by similarity(word, ${word}) desc, documents desc
        limit ${CORRECTIONS}`.execute(trx);
      out.set(
        word,
        close.rows.map((r) => r.word),
      );
    }
    return out;
  });
}
