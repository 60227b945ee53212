import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { nameWords } from './normalize-name.ts';

/** Corrections tried per query word that is not a known name word. */
const CORRECTIONS = 3;

/**
 * Turns a name query into a full-text query over `legal_entities.name_tsv`. Words that occur in
 * some company name are kept as they are; a word that occurs in none (a typo) is replaced by the
 * closest known words, found through the trigram index on the `name_words` lexicon.
 */
export async function buildNameTsQuery(k: Kysely<Database>, q: string): Promise<string | null> {
  const words = [...new Set(nameWords(q))].slice(0, 8);
  if (words.length === 0) return null;
  const known = await k.selectFrom('name_words').select('word').where('word', 'in', words).execute();
  const knownSet = new Set(known.map((r) => r.word));
  const terms: string[] = [];
  for (const word of words) {
    if (knownSet.has(word)) {
      terms.push(word);
      continue;
    }
    const close = await sql<{ word: string }>`
      select word from name_words
      where word % ${word}
      order by similarity(word, ${word}) desc, documents desc
      limit ${CORRECTIONS}`.execute(k);
    const alternatives = [word, ...close.rows.map((r) => r.word)];
    terms.push(alternatives.length === 1 ? word : `(${alternatives.join(' | ')})`);
  }
  return terms.join(' & ');
}
