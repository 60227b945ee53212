// One normalisation for stored names and for queries, so that "Müller Bau GmbH", "muller bau"
// and "MUELLER-BAU G.m.b.H." meet: lower case, accents folded, punctuation to spaces, and
// legal-form words dropped.

const LEGAL_FORMS = new Set(
  (
    'ab ag aps as asa bhd bv bvba cic co corp corporation cv cvba eg ek ev eirl eurl fze fzco fzc fzllc gbr gmbh ' +
    'gesmbh haftungsbeschrankt inc incorporated kft kg kgaa lda llc llp lp ltd ltda limited mbh nv ohg oy oyj plc pllc pte pty ' +
    'sa sab sal sarl sas sasu sca scs sl sls snc spa sp soc srl sro ug ulc company'
  ).split(' '),
);

// Dotted and multi-word legal forms collapse to one token before the word check.
const COMPOSITE_FORMS: [RegExp, string][] = [
  [/\bg\s?m\s?b\s?h\b/g, 'gmbh'],
  [/\bs\s?a\s?r\s?l\b/g, 'sarl'],
  [/\bs\s?p\s?a\b/g, 'spa'],
  [/\bs\s?r\s?l\b/g, 'srl'],
  [/\bb\s?v\b/g, 'bv'],
  [/\bn\s?v\b/g, 'nv'],
  [/\bs\s?a\b/g, 'sa'],
  [/\bl\s?l\s?c\b/g, 'llc'],
  [/\bp\s?l\s?c\b/g, 'plc'],
];

/** Lower-cased, accent-free words of a name, legal forms removed. */
export function nameWords(name: string): string[] {
  let text = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/[œ]/g, 'oe')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
  for (const [pattern, form] of COMPOSITE_FORMS) text = text.replace(pattern, form);
  const words = text.split(' ').filter((w) => w.length > 0);
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  return kept.length > 0 ? kept : words;
}

/** The stored search form of a name (`legal_entities.search_name`). */
export function normalizeName(name: string): string {
  return nameWords(name).join(' ');
}
