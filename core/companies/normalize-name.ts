// One normalisation for stored names and for queries, so that "Müller Bau GmbH", "muller bau"
// and "MUELLER-BAU G.m.b.H." meet: lower case, accents folded, punctuation to spaces, and
// legal forms dropped.

/** Legal-form words that are never part of a name's meaning: dropped wherever they stand. */
const LEGAL_WORDS = new Set(
  (
    'aktiengesellschaft aps asbl bhd bvba cic corp corporation cvba dac eirl eireli eurl fzco fzc fze fzllc gbr ' +
    'gesmbh gmbh haftungsbeschrankt inc incorporated kft kgaa llc llp ltd ltda ltee limited mbh ohg oyj plc pllc ' +
    'pty pte pvt sagl sarl sasu scsp sprl spzoo sro ulc vzw'
  ).split(' '),
);

/**
 * Legal forms that are also ordinary words or letters ("da", "as", "se"), or spelt with dots or
 * slashes (S.L.U., Sp. z o.o., A/S, S.A. de C.V.): dropped only at the end of a name, longest first.
 */
const TAIL_FORMS = (
  'g m b h|m b h|l l c|l l p|p l c|l t d|a g|k g|and co kg|and co kgaa|and co ohg|and co|and cie|co kg|s a b de c v|s a de c v|s de r l de c v|s de r l|de c v|' +
  'sp z o o|z o o|sp j|sp k|s l u|s l|s a u|s a s|s r l s|s r l|s p a|s c s|s c a|s n c|s a|v o f|c v|a m b a|' +
  'a s|i s|k s|e k|e v|e u|k k|g k|b v|n v|pvt|private|co operative|co op|co|company|' +
  'ab|ag|ans|as|ay|bv|cv|da|eg|ek|ev|enk|hb|kb|kg|kk|ky|lda|lp|nv|og|oy|sa|sab|sal|sas|sau|sca|scs|se|sl|sls|slu|snc|' +
  'soc|sp|spa|srl|srls|ug|clg'
)
  .split('|')
  .map((form) => form.split(' '))
  .sort((a, b) => b.length - a.length);

/** Lower-cased, accent-free words of a name, legal forms removed. */
export function nameWords(name: string): string[] {
  const text = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/œ/g, 'oe')
    .replace(/ł/g, 'l')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
  const words = text.split(' ').filter((w) => w.length > 0);
  const kept = words.filter((w) => !LEGAL_WORDS.has(w));
  let end = kept.length;
  for (let changed = true; changed && end > 1; ) {
    changed = false;
    for (const form of TAIL_FORMS) {
      if (form.length >= end) continue;
      if (form.every((w, i) => kept[end - form.length + i] === w)) {
        end -= form.length;
        changed = true;
        break;
      }
    }
  }
  const result = kept.slice(0, end);
  return result.length > 0 ? result : words;
}

/** The stored search form of a name (`legal_entities.search_name`). */
export function normalizeName(name: string): string {
  return nameWords(name).join(' ');
}
