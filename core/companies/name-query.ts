import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { osaDistance } from './edit-distance.ts';
import { nameWords } from './normalize-name.ts';

/** Corrections tried per query word (a misspelt word in buildNameQuery, every word in nearWholeNames). */
const CORRECTIONS = 4;
/** Trigram similarity a fallback candidate needs (pg_trgm's default of 0.3 misses swapped letters in short words). */
const CORRECTION_THRESHOLD = 0.2;
/** Closest words by trigram similarity fetched per misspelt word, then ranked again by edit distance. */
const TRIGRAM_CANDIDATES = 30;

export type NameQuery = {
  /** Every word must match (a misspelt word matches through its corrections). */
  strict: string;
  /** The same without the misspelt words, tried when `strict` finds nothing; null when nothing would remain. */
  relaxed: string | null;
  /** The normalised query, each misspelt word replaced by its closest correction: for ranking. */
  normalized: string;
  /** True when some word was not a known name word. */
  corrected: boolean;
};

/** A known name word and the number of companies whose name holds it. */
export type WordCandidate = { word: string; documents: number };

const MAX_QUERY_WORDS = 8;

function queryWords(q: string): string[] {
  return [...new Set(nameWords(q))].slice(0, MAX_QUERY_WORDS);
}

/**
 * The name query as typed (every word must match), with no database work: tried first, since
 * most queries are spelt right; `buildNameQuery` corrects when it finds nothing.
 */
export function plainNameQuery(q: string): NameQuery | null {
  const words = queryWords(q);
  if (words.length === 0) return null;
  return { strict: words.join(' & '), relaxed: null, normalized: words.join(' '), corrected: false };
}

/**
 * Turns a name query into full-text queries over `legal_entities.name_tsv`. Words that occur in
 * some company name are kept as they are; a word that occurs in none (a typo) is replaced by the
 * closest known words of the `name_words` lexicon (PERFORMANCE.md: typo tolerance on words, not
 * on whole names).
 */
export async function buildNameQuery(k: Kysely<Database>, q: string): Promise<NameQuery | null> {
  const words = queryWords(q);
  if (words.length === 0) return null;
  const known = await k.selectFrom('name_words').select('word').where('word', 'in', words).execute();
  const knownSet = new Set(known.map((r) => r.word));
  const unknown = words.filter((w) => !knownSet.has(w));
  const corrections = unknown.length > 0 ? await correctWords(k, unknown, 'trigrams') : new Map<string, string[]>();
  const strict = words.map((word) => {
    const alternatives = [word, ...(corrections.get(word) ?? [])];
    return alternatives.length === 1 ? word : `(${alternatives.join(' | ')})`;
  });
  const kept = words.filter((w) => knownSet.has(w));
  return {
    strict: strict.join(' & '),
    relaxed: unknown.length > 0 && kept.length > 0 ? kept.join(' & ') : null,
    // Ranked against the corrected spelling: a swap shares few trigrams with its own word
    // ("gauhtier" shares 3 with "gautier", 2 with "gauthier").
    normalized: words.map((word) => corrections.get(word)?.[0] ?? word).join(' '),
    corrected: unknown.length > 0,
  };
}

/**
 * Whole names one corrected word away from the query: its normalised name with one word, known or
 * not, replaced by one of that word's closest corrections; the closest corrections first. For a
 * query that spells real words but another company's whole name ("Nenoeon Sp.k.", a word of five
 * names, for Neoneon Sp.k.). Only the symmetric-delete candidates are tried: one edit in one word,
 * a few index probes in one statement, ~1 ms at 1M (with the trigram fallback, a transaction and
 * 4–7 ms).
 */
export async function nearWholeNames(k: Kysely<Database>, q: string): Promise<string[]> {
  const words = queryWords(q);
  if (words.length === 0) return [];
  return namesWithOneWordReplaced(nameWords(q), await correctWords(k, words, 'symmetric-delete'));
}

/**
 * `words` joined as a name once per correction of one of them, the first corrections of every
 * word before the second ones.
 */
export function namesWithOneWordReplaced(words: string[], corrections: Map<string, string[]>): string[] {
  const names = new Set<string>();
  const depth = Math.max(0, ...words.map((word) => corrections.get(word)?.length ?? 0));
  for (let rank = 0; rank < depth; rank++) {
    words.forEach((word, i) => {
      const correction = corrections.get(word)?.[rank];
      if (correction) names.add([...words.slice(0, i), correction, ...words.slice(i + 1)].join(' '));
    });
  }
  return [...names];
}

/** The distinct words left by deleting one letter of `word`. */
export function oneLetterDeletions(word: string): string[] {
  const letters = Array.from(word);
  if (letters.length < 2) return [];
  const out = new Set<string>();
  for (let i = 0; i < letters.length; i++) out.add([...letters.slice(0, i), ...letters.slice(i + 1)].join(''));
  return [...out];
}

/** The largest edit distance a correction of `word` may have: two letters in long words, one in short. */
export function maxCorrectionDistance(word: string): number {
  return Array.from(word).length >= 5 ? 2 : 1;
}

/**
 * The best corrections of a misspelt word among candidate words: those within
 * maxCorrectionDistance, the fewest edits first, then the words in the most names.
 */
export function rankCorrections(word: string, candidates: WordCandidate[], limit = CORRECTIONS): string[] {
  const max = maxCorrectionDistance(word);
  const seen = new Set<string>();
  const ranked: { word: string; documents: number; distance: number }[] = [];
  for (const candidate of candidates) {
    if (candidate.word === word || seen.has(candidate.word)) continue;
    seen.add(candidate.word);
    const distance = osaDistance(word, candidate.word, max);
    if (distance <= max) ranked.push({ ...candidate, distance });
  }
  // Same distance: a word of the same length (a swap or a wrong letter) before a longer or
  // shorter one; of those, the same letters in another order (a swap keeps every letter typed)
  // before a wrong letter; then the more common word.
  const lengthGap = (w: string) => Math.abs(w.length - word.length);
  const letters = (w: string) => Array.from(w).sort().join('');
  const typed = letters(word);
  const wrongLetter = (w: string) => (letters(w) === typed ? 0 : 1);
  ranked.sort(
    (a, b) =>
      a.distance - b.distance ||
      lengthGap(a.word) - lengthGap(b.word) ||
      wrongLetter(a.word) - wrongLetter(b.word) ||
      b.documents - a.documents ||
      (a.word < b.word ? -1 : 1),
  );
  return ranked.slice(0, limit).map((c) => c.word);
}

/**
 * Candidate corrections for several words in one statement:
 * - symmetric delete (migration 0003): a lexicon word filed under the query word itself or under
 *   one of its one-letter deletions differs by one swap, substitution, missing or extra letter;
 *   a lexicon word equal to one of the query word's deletions lacks one letter of it;
 * - with 'trigrams', a trigram fallback on `name_words` for what is further away (two edits in a
 *   long word).
 * Candidates are pooled over the words and ranked per word by edit distance in rankCorrections.
 */
export async function correctWords(
  k: Kysely<Database>,
  words: string[],
  reach: 'symmetric-delete' | 'trigrams',
): Promise<Map<string, string[]>> {
  const deletions = [...new Set(words.flatMap(oneLetterDeletions))];
  const variants = [...new Set([...words, ...deletions])];
  const symmetricDelete = sql<WordCandidate>`
    select w.word, w.documents from name_words w where w.word = any(${deletions}::text[])
    union
    select w.word, w.documents from name_word_deletes d join name_words w on w.word = d.word
    where d.variant = any(${variants}::text[])`;
  const candidates =
    reach === 'symmetric-delete'
      ? (await symmetricDelete.execute(k)).rows
      : await k.transaction().execute(async (trx) => {
          // The planner sometimes seq-scans name_words for the lateral trigram probes (measured 27–40 ms
          // against 6–7 ms through the index).
          await sql`select set_config('pg_trgm.similarity_threshold', ${String(CORRECTION_THRESHOLD)}, true),
            set_config('enable_seqscan', 'off', true)`.execute(trx);
          const result = await sql<WordCandidate>`
            ${symmetricDelete}
            union
            select c.word, c.documents from unnest(${words}::text[]) q (word)
            cross join lateral (
              select n.word, n.documents from name_words n
              where n.word % q.word
              order by similarity(n.word, q.word) desc, n.documents desc
              limit ${TRIGRAM_CANDIDATES}
            ) c`.execute(trx);
          return result.rows;
        });
  return new Map(words.map((word) => [word, rankCorrections(word, candidates)]));
}
