import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Reference } from '../reference/reference-data.ts';
import { seededRandom } from '../seeded-random.ts';
import { matchWords } from './features.ts';
import { type MatchQuery, matchCompanies } from './match-companies.ts';

// The hold-out evaluation of the matching engine (ADR 0020), for the tests and bench/match.ts:
// companies of the database (demo data and imported real registry rows) described the way users'
// files describe them — names with typos, dropped or swapped legal forms, words in another order,
// accents lost, abbreviations; numbers with and without spaces — and matched. Top-1 accuracy is the
// share whose best candidate is the company; precision the share of automatic matches that are.

export type HoldoutCase = { truth: number; query: MatchQuery; perturbation: string };

type Truth = {
  id: number;
  name: string;
  country: string;
  company_number: string | null;
  vat: string | null;
  lei: string | null;
  website: string | null;
  locality: string | null;
};

const ABBREVIATE: [RegExp, string][] = [
  [/\bInternational\b/i, 'Intl'],
  [/\bHoldings\b/i, 'Hldgs'],
  [/\bHolding\b/i, 'Hldg'],
  [/\bManufacturing\b/i, 'Mfg'],
  [/\bServices\b/i, 'Svcs'],
  [/\bManagement\b/i, 'Mgmt'],
  [/\bTechnology\b/i, 'Tech'],
  [/\bGroup\b/i, 'Grp'],
  [/\bIndustries\b/i, 'Inds'],
  [/\bEngineering\b/i, 'Eng'],
  [/\bNational\b/i, 'Natl'],
  [/\bSystems\b/i, 'Sys'],
  [/\bDevelopment\b/i, 'Dev'],
  [/ and /i, ' & '],
  [/ & /, ' and '],
];
const SWAPS: [RegExp, string][] = [
  [/\bGmbH\b/, 'AG'],
  [/\bAG\b/, 'GmbH'],
  [/\bLtd\.?$/i, 'Limited'],
  [/\bLimited$/i, 'Ltd'],
  [/\bInc\.?$/i, 'Corp.'],
  [/\bLLC$/i, 'Inc.'],
  [/\bS\.?A\.?S\.?$/i, 'SA'],
  [/\bSARL$/i, 'SAS'],
  [/\bS\.?A\.?$/i, 'S.L.'],
  [/\bB\.?V\.?$/i, 'N.V.'],
  [/\bAB$/, 'Aktiebolag'],
  [/\bPLC$/i, 'Ltd'],
];

/** The legal-form tail of a name: what is left once its words (matchWords) are taken away. */
function withoutLegalForm(name: string): string {
  const words = name.split(/\s+/);
  const kept = matchWords(name).length;
  // Drop trailing words while the name's words stay the same.
  let end = words.length;
  while (end > 1 && matchWords(words.slice(0, end - 1).join(' ')).length === kept) end -= 1;
  return words.slice(0, end).join(' ');
}

function typo(word: string, r: () => number): string {
  const letters = Array.from(word);
  if (letters.length < 5) return word;
  const at = 1 + Math.floor(r() * (letters.length - 2));
  const kind = Math.floor(r() * 3);
  if (kind === 0) [letters[at], letters[at + 1]] = [letters[at + 1] ?? letters[at], letters[at]];
  else if (kind === 1) letters.splice(at, 1);
  else letters.splice(at, 0, letters[at]);
  return letters.join('');
}

function spaced(number: string): string {
  return number.replace(/[^0-9A-Za-z]/g, '').replace(/(.{3})(?=.)/g, '$1 ');
}

/** Perturbations applied to a name; each returns null when it does not apply to the name. */
const PERTURB: Record<string, (name: string, r: () => number) => string | null> = {
  exact: (name) => name,
  typo: (name, r) => {
    const words = name.split(' ');
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
    if (long.length === 0) return null;
    const [w, i] = long[Math.floor(r() * long.length)];
    words[i] = typo(w, r);
    return words.join(' ');
  },
  dropLegalForm: (name) => {
    const bare = withoutLegalForm(name);
    return bare === name ? null : bare;
  },
  swapLegalForm: (name) => {
    for (const [from, to] of SWAPS) if (from.test(name)) return name.replace(from, to);
    return null;
  },
  wordOrder: (name) => {
    const bare = withoutLegalForm(name).split(' ');
    if (bare.length < 2) return null;
    return [...bare.slice(1), bare[0]].join(' ');
  },
  diacritics: (name) => {
    const plain = name.normalize('NFKD').replace(/\p{M}+/gu, '');
    return plain === name ? name.toUpperCase() : plain;
  },
  abbreviation: (name) => {
    for (const [from, to] of ABBREVIATE) if (from.test(name)) return name.replace(from, to);
    return null;
  },
  upperCase: (name) => name.toUpperCase(),
};

/**
 * The hold-out: `size` companies drawn with `seed`, each described once. Companies whose words and
 * country another company shares are left out (no description could tell them apart): `ambiguous`.
 */
export async function buildHoldout(
  db: Db,
  options: { size: number; seed: number },
): Promise<{ cases: HoldoutCase[]; ambiguous: number }> {
  const rows = await sql<Truth>`
    select b.id, b.name, l.country_code as country,
      (select i.identifier from legal_entity_identifiers i where i.legal_entity_id = b.id and i.identifier_type_id = 2 order by position limit 1) as company_number,
      (select i.identifier from legal_entity_identifiers i where i.legal_entity_id = b.id and i.identifier_type_id = 4 order by position limit 1) as vat,
      (select i.identifier from legal_entity_identifiers i where i.legal_entity_id = b.id and i.identifier_type_id = 5 order by position limit 1) as lei,
      (select c.contact from legal_entity_contacts c where c.legal_entity_id = b.id and c.contact_type_id = 3 order by position limit 1) as website,
      (select a.locality from legal_entity_addresses a where a.legal_entity_id = b.id order by address_type_id, position limit 1) as locality
    from legal_entities b join locations l on l.id = b.jurisdiction_id
    order by md5(b.id::text || ${String(options.seed)}) limit ${options.size}`.execute(db.kysely);
  // Two companies of the same words in one country cannot be told apart by name and country.
  const keys = rows.rows.map((t) => `${matchWords(t.name).sort().join(' ')}|${t.country}`);
  const shared = await sharedNames(db, rows.rows);
  const random = seededRandom(options.seed);
  const r = () => random.next();
  const kinds = Object.keys(PERTURB);
  const cases: HoldoutCase[] = [];
  let ambiguous = 0;
  rows.rows.forEach((t, i) => {
    if (shared.has(keys[i])) {
      ambiguous += 1;
      return;
    }
    const id = Number(t.id);
    // Most rows of a user's file have a name and a country; some a number, a website or an address.
    const roll = r();
    let kind = kinds[Math.floor(r() * kinds.length)];
    let name = PERTURB[kind](t.name, r);
    if (name === null) {
      kind = 'typo';
      name = PERTURB.typo(t.name, r) ?? t.name;
    }
    const query: MatchQuery = { name, country: t.country };
    let perturbation = kind;
    if (roll < 0.15 && t.company_number) {
      query.registration_number = r() < 0.5 ? spaced(t.company_number) : t.company_number;
      perturbation += '+number';
    } else if (roll < 0.2 && t.vat) {
      query.vat = r() < 0.5 ? spaced(t.vat) : t.vat;
      perturbation += '+vat';
    } else if (roll < 0.25 && t.lei) {
      query.lei = t.lei;
      perturbation += '+lei';
    } else if (roll < 0.35 && t.website) {
      query.domain = t.website.replace(/^https?:\/\/(www\.)?/, '');
      perturbation += '+domain';
    } else if (roll < 0.45 && t.locality) {
      query.address = t.locality;
      perturbation += '+address';
    } else if (roll < 0.5 && t.company_number) {
      // A number alone, with spaces: no name at all.
      delete query.name;
      query.registration_number = spaced(t.company_number);
      perturbation = 'numberOnly';
    }
    cases.push({ truth: id, query, perturbation });
  });
  return { cases, ambiguous };
}

/** Name-and-country keys that more than one company of the whole database has. */
async function sharedNames(db: Db, truths: Truth[]): Promise<Set<string>> {
  const names = [...new Set(truths.map((t) => matchWords(t.name).join(' ')))];
  const out = new Set<string>();
  if (names.length === 0) return out;
  // Companies whose stored name has the same words in any order: found through the full-text index.
  const words = [...new Set(names.flatMap((n) => n.split(' ')))];
  const candidates = await sql<{ name: string; country: string }>`
    select b.name, l.country_code as country from legal_entities b join locations l on l.id = b.jurisdiction_id
    where b.name_tsv @@ to_tsquery('simple', ${words
      .map((w) => w.replace(/[^\p{L}\p{N}]+/gu, ''))
      .filter(Boolean)
      .join(' | ')})`.execute(db.kysely);
  const counts = new Map<string, number>();
  for (const c of candidates.rows) {
    const key = `${matchWords(c.name).sort().join(' ')}|${c.country}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [key, n] of counts) if (n > 1) out.add(key);
  return out;
}

export type HoldoutScore = {
  cases: number;
  top1: number;
  accuracy: number;
  autoMatches: number;
  autoCorrect: number;
  precision: number;
  /** Share of cases matched automatically. */
  recall: number;
  misses: { perturbation: string; query: MatchQuery; truth: number; got: number | null; score: number | null }[];
  byPerturbation: Record<string, { cases: number; top1: number }>;
};

/** Runs the hold-out through the engine in batches of `batch` (the match API's). */
export async function scoreHoldout(
  db: Db,
  reference: Reference,
  cases: HoldoutCase[],
  batch = 100,
): Promise<HoldoutScore> {
  let top1 = 0;
  let autoMatches = 0;
  let autoCorrect = 0;
  const misses: HoldoutScore['misses'] = [];
  const byPerturbation: HoldoutScore['byPerturbation'] = {};
  for (let at = 0; at < cases.length; at += batch) {
    const slice = cases.slice(at, at + batch);
    const results = await matchCompanies(
      db,
      reference,
      slice.map((c) => c.query),
    );
    results.forEach((result, i) => {
      const c = slice[i];
      const best = result.candidates[0];
      const hit = best?.id === c.truth;
      const kind = byPerturbation[c.perturbation] ?? { cases: 0, top1: 0 };
      byPerturbation[c.perturbation] = kind;
      kind.cases += 1;
      if (hit) {
        top1 += 1;
        kind.top1 += 1;
      } else
        misses.push({
          perturbation: c.perturbation,
          query: c.query,
          truth: c.truth,
          got: best?.id ?? null,
          score: best?.score ?? null,
        });
      if (result.match) {
        autoMatches += 1;
        if (result.match.id === c.truth) autoCorrect += 1;
      }
    });
  }
  return {
    cases: cases.length,
    top1,
    accuracy: cases.length ? top1 / cases.length : 0,
    autoMatches,
    autoCorrect,
    precision: autoMatches ? autoCorrect / autoMatches : 1,
    recall: cases.length ? autoMatches / cases.length : 0,
    misses,
    byPerturbation,
  };
}
