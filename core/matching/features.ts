import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { osaDistance } from '../companies/edit-distance.ts';
import { nameWords } from '../companies/normalize-name.ts';
import { countryCodeOf } from '../imports/country-codes.ts';

// The comparisons of the matching engine (docs/decisions/0020-api-keys-matching-reconciliation.md),
// with no database: names after legal-form, diacritic and abbreviation normalisation (word order
// does not count), numbers without spaces or punctuation, countries, website hosts, address words.

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/** Abbreviations written into company names, read as their words (both sides are expanded). */
const ABBREVIATIONS: Record<string, string> = {
  intl: 'international',
  int: 'international',
  internat: 'international',
  mfg: 'manufacturing',
  mfrs: 'manufacturers',
  mgmt: 'management',
  mgt: 'management',
  svcs: 'services',
  svc: 'service',
  serv: 'services',
  sys: 'systems',
  tech: 'technology',
  techn: 'technology',
  grp: 'group',
  hldgs: 'holdings',
  hldg: 'holding',
  hold: 'holding',
  inds: 'industries',
  ind: 'industries',
  indus: 'industries',
  eng: 'engineering',
  engr: 'engineering',
  bros: 'brothers',
  natl: 'national',
  nat: 'national',
  assoc: 'associates',
  assn: 'association',
  dev: 'development',
  devel: 'development',
  dist: 'distribution',
  distr: 'distribution',
  elec: 'electric',
  ent: 'enterprises',
  ents: 'enterprises',
  fin: 'financial',
  gen: 'general',
  inv: 'investments',
  invest: 'investments',
  mgrs: 'managers',
  prod: 'products',
  prods: 'products',
  props: 'properties',
  prop: 'properties',
  res: 'resources',
  sci: 'scientific',
  sol: 'solutions',
  sols: 'solutions',
  trad: 'trading',
  transp: 'transport',
  univ: 'university',
  amer: 'american',
  europ: 'european',
  ges: 'gesellschaft',
  verw: 'verwaltung',
  beteil: 'beteiligungs',
  ste: 'societe',
  soc: 'societe',
  cie: 'compagnie',
  cia: 'compania',
  st: 'saint',
};

const SHORT_FORMS = new Map<string, string[]>();
for (const [short, long] of Object.entries(ABBREVIATIONS))
  SHORT_FORMS.set(long, [...(SHORT_FORMS.get(long) ?? []), short]);

/** A name word as stored and its other spellings (its abbreviations, or the word an abbreviation stands for). */
export function wordForms(word: string): string[] {
  const long = ABBREVIATIONS[word];
  return [...new Set([word, ...(long ? [long] : []), ...(SHORT_FORMS.get(long ?? word) ?? [])])];
}

/** Words that carry no name: dropped on both sides. */
export const NOISE = new Set(['the', 'and', 'und', 'et', 'y', 'e']);

/** Legal-form words long enough that a misspelling of them is still recognisable ("Liimted", "Prviate"). */
const LEGAL_FORM_WORDS = [
  'limited',
  'private',
  'company',
  'corporation',
  'incorporated',
  'gmbh',
  'aktiengesellschaft',
  'sarl',
];

/** A name's words with misspelt legal-form words dropped from its end (nameWords drops the rightly spelt ones). */
export function withoutLegalFormTypos(words: string[]): string[] {
  let end = words.length;
  while (end > 1) {
    const word = words[end - 1];
    const near =
      Array.from(word).length >= 4 &&
      LEGAL_FORM_WORDS.some((form) => form !== word && osaDistance(word, form, 2) <= (form.length >= 7 ? 2 : 1));
    if (!near) break;
    end -= 1;
  }
  const kept = words.slice(0, end);
  // A tail form left bare by the misspelt word ("Keystone Private Liited" → "keystone private").
  return kept.length === words.length ? kept : nameWords(kept.join(' '));
}

/** The words of a name as the engine compares them: legal forms dropped, accents folded, abbreviations read out. */
export function matchWords(name: string): string[] {
  const words = withoutLegalFormTypos(nameWords(name))
    .map((w) => ABBREVIATIONS[w] ?? w)
    .filter((w) => !NOISE.has(w));
  return words.length > 0 ? words : nameWords(name);
}

/** How alike two words are, 0–1: one minus the edit distance (swaps count once) over the longer length. */
function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(Array.from(a).length, Array.from(b).length);
  const max = Math.floor(longer / 2);
  const distance = osaDistance(a, b, max);
  return distance > max ? 0 : 1 - distance / longer;
}

/**
 * How alike two names are, 0–1, whatever the order of their words: each word of one name is paired
 * with its most alike word of the other (by letters), weighted by length, both ways; the lower of
 * the two directions counts, so a name that is a part of the other scores less than the same name.
 */
export function nameSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a.join(' ') === b.join(' ')) return 1;
  const direction = (from: string[], to: string[]) => {
    let total = 0;
    let weight = 0;
    const used = new Set<number>();
    for (const word of from) {
      let best = 0;
      let bestAt = -1;
      to.forEach((other, i) => {
        if (used.has(i)) return;
        const s = wordSimilarity(word, other);
        if (s > best) {
          best = s;
          bestAt = i;
        }
      });
      if (bestAt >= 0 && best === 1) used.add(bestAt);
      const w = Array.from(word).length;
      total += best * w;
      weight += w;
    }
    return total / weight;
  };
  // Word order aside, the same letters run together ("rheinmetall" / "rhein metall") are the same name.
  const joined = wordSimilarity([...a].sort().join(''), [...b].sort().join(''));
  const sameRun = wordSimilarity(a.join(''), b.join(''));
  return Math.max(Math.min(direction(a, b), direction(b, a)), sameRun, joined * 0.98);
}

/** A website's host without "www." ("https://www.Example.com/about" → "example.com"); null when none. */
export function domainOf(value: string): string | null {
  const match = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?([^/:?#\s@]+)/i.exec(value.trim());
  const host = match?.[1]?.toLowerCase().replace(/\.$/, '') ?? '';
  return host.includes('.') ? host : null;
}

/** The ISO 3166-1 alpha-2 code of a country or jurisdiction as written (DE, DEU, Germany, US-NY); null when unknown. */
export function countryOf(value: string): string | null {
  const text = value.trim();
  if (/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/.test(text)) {
    const code = text.slice(0, 2).toUpperCase();
    return countries.isValid(code) ? code : code === 'UK' ? 'GB' : null;
  }
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = countries.alpha3ToAlpha2(text.toUpperCase());
    if (code) return code;
  }
  return countryCodeOf(text);
}

/** The words and numbers of an address, folded like names (accents, case); short words dropped. */
export function addressTokens(value: string): Set<string> {
  const text = value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss');
  return new Set(text.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 1 || /\d/.test(t)));
}

/** The share of the query's address words found in the company's (0–1). */
export function addressOverlap(query: Set<string>, company: Set<string>): number {
  if (query.size === 0 || company.size === 0) return 0;
  let found = 0;
  for (const token of query) if (company.has(token)) found += 1;
  return found / query.size;
}
