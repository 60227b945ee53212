import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { correctWords } from '../companies/name-query.ts';
import { nameWords, normalizeName } from '../companies/normalize-name.ts';
import { addressesPart, formatAddress } from '../companies/parts/addresses.ts';
import { readCompanies } from '../companies/parts/company-part.ts';
import { contactsPart } from '../companies/parts/contacts.ts';
import { identifiersPart } from '../companies/parts/identifiers.ts';
import { namesPart } from '../companies/parts/names.ts';
import { compactIdentifier, compactIdentifierSql, vatForms } from '../identifiers/normalize-identifier.ts';
import type { Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { explainFeature, type FeatureReason } from './explain.ts';
import {
  addressOverlap,
  addressTokens,
  countryOf,
  domainOf,
  matchWords,
  NOISE,
  nameSimilarity,
  withoutLegalFormTypos,
  wordForms,
} from './features.ts';

// The matching engine (docs/decisions/0020-api-keys-matching-reconciliation.md): one module for the
// match API, reconciliation and enrichment. Candidates come from the indexes that exist — identifiers
// and website hosts compared compactly (migration 0022), the normalised name (exact, all words with
// typo corrections from the name lexicon, and the rarest words) — then every candidate is scored
// 0–1 in code with an explanation per feature.

export type MatchQuery = {
  name?: string;
  /** A country (DE, DEU, Germany) or jurisdiction (US-NY). */
  country?: string;
  registration_number?: string;
  lei?: string;
  /** A VAT or tax number. */
  vat?: string;
  /** A website or its domain. */
  domain?: string;
  address?: string;
};

export type FeatureId = 'name' | 'registration_number' | 'lei' | 'vat' | 'country' | 'domain' | 'address';

export type MatchFeature = {
  id: FeatureId;
  /** 0–1: how well this part of the query matches. */
  value: number;
  /** What was compared and what came out, in English (explainFeature). */
  explanation: string;
  /** The same as data, for the words of another language (ADR 0032). */
  reason: FeatureReason;
};

export type MatchCandidate = {
  id: number;
  uri: string;
  name: string;
  country: string | null;
  score: number;
  /** The automatic match: the best candidate, at or above the threshold and clear of the next. */
  match: boolean;
  features: MatchFeature[];
};

export type MatchResult = { candidates: MatchCandidate[]; match: MatchCandidate | null };

/** The score a candidate needs to be matched without review. */
export const AUTO_MATCH_THRESHOLD = 0.9;
/** …and by how much it must beat the next candidate (two alike companies are for a person to choose). */
export const AUTO_MATCH_MARGIN = 0.05;
/** Candidates returned per query, at most. */
export const MATCH_CANDIDATES_MAX = 10;

const TYPE = { business: 1, company: 2, tax: 3, vat: 4, lei: 5 } as const;
const WEBSITE = 3;
/** Companies fetched per name probe before they are ranked by trigram similarity. */
const PROBE_ROWS = 100;
/** Companies per name probe kept for scoring. */
const PROBE_KEEP = 10;
/** A word in more names than this is too common to fetch companies by alone. */
const RARE_WORD_DOCUMENTS = 5_000;
/** The rarest words are probed only when the other probes found no company this alike (trigram similarity). */
const RARE_PROBE_BELOW = 0.8;

type Prepared = {
  query: MatchQuery;
  country: string | null;
  words: string[];
  normalized: string;
  /** The name's words as stored (`legal_entities.search_name`), for the index probes. */
  searchWords: string[];
  registration: string | null;
  lei: string | null;
  vat: string[];
  domain: string | null;
  address: Set<string>;
};

function prepare(query: MatchQuery): Prepared {
  const country = query.country ? countryOf(query.country) : null;
  const words = query.name ? matchWords(query.name) : [];
  return {
    query,
    country,
    words,
    normalized: words.join(' '),
    searchWords: query.name ? withoutLegalFormTypos(nameWords(query.name)).filter((w) => !NOISE.has(w)) : [],
    registration: query.registration_number ? compactIdentifier(query.registration_number) || null : null,
    lei: query.lei ? compactIdentifier(query.lei) || null : null,
    vat: query.vat ? vatForms(query.vat, country) : [],
    domain: query.domain ? domainOf(query.domain) : null,
    address: query.address ? addressTokens(query.address) : new Set(),
  };
}

/** Whether a query names anything to match on. */
export function isMatchable(query: MatchQuery): boolean {
  const p = prepare(query);
  return p.words.length > 0 || !!p.registration || !!p.lei || p.vat.length > 0 || !!p.domain;
}

/** Matches queries against the companies: candidates per query, best first, with the automatic match. */
export async function matchCompanies(
  db: Db,
  reference: Reference,
  queries: MatchQuery[],
  options: {
    limit?: number;
    /** Per query, companies scored and kept among its candidates whether a probe finds them or not (the caller's decision, ADR 0032). */
    include?: number[][];
  } = {},
): Promise<MatchResult[]> {
  const limit = Math.min(options.limit ?? 5, MATCH_CANDIDATES_MAX);
  const include = options.include ?? [];
  const prepared = queries.map(prepare);
  const [byNumber, byDomain, byName] = await Promise.all([
    idsByIdentifier(db, prepared),
    idsByDomain(db, prepared),
    idsByName(db, prepared),
  ]);
  const ids = new Set<number>();
  for (const list of [...byNumber, ...byDomain, ...byName, ...include]) for (const id of list) ids.add(id);
  const companies = await companyFacts(db, [...ids]);
  return prepared.map((p, i) => {
    const wanted = include[i] ?? [];
    const seen = new Set([...byNumber[i], ...byDomain[i], ...byName[i], ...wanted]);
    const all = [...seen]
      .map((id) => companies.get(id))
      .filter((c): c is CompanyFacts => c !== undefined)
      .map((c) => scoreCandidate(p, c, reference))
      .sort((a, b) => b.score - a.score || a.id - b.id);
    let scored = all.slice(0, limit);
    const missing = all.filter((c) => wanted.includes(c.id) && !scored.includes(c));
    if (missing.length > 0) scored = [...scored.slice(0, Math.max(0, limit - missing.length)), ...missing];
    const [best, next] = scored;
    const auto =
      best && best.score >= AUTO_MATCH_THRESHOLD && (!next || best.score - next.score >= AUTO_MATCH_MARGIN)
        ? best
        : null;
    if (auto) auto.match = true;
    return { candidates: scored, match: auto };
  });
}

// ---- candidates ----

async function idsByIdentifier(db: Db, prepared: Prepared[]): Promise<number[][]> {
  const wanted = new Map<string, number[]>();
  prepared.forEach((p, i) => {
    for (const value of [p.registration, p.lei, ...p.vat]) {
      if (!value || value.length < 4) continue;
      wanted.set(value, [...(wanted.get(value) ?? []), i]);
    }
  });
  const out = prepared.map(() => [] as number[]);
  if (wanted.size === 0) return out;
  const rows = await sql<{ compact: string; legal_entity_id: number }>`
    select ${compactIdentifierSql('identifier')} as compact, legal_entity_id
    from legal_entity_identifiers
    where ${compactIdentifierSql('identifier')} = any(${[...wanted.keys()]}::text[])
    limit 2000`.execute(db.kysely);
  for (const row of rows.rows) for (const i of wanted.get(row.compact) ?? []) out[i].push(Number(row.legal_entity_id));
  return out;
}

async function idsByDomain(db: Db, prepared: Prepared[]): Promise<number[][]> {
  const wanted = new Map<string, number[]>();
  prepared.forEach((p, i) => {
    if (p.domain) wanted.set(p.domain, [...(wanted.get(p.domain) ?? []), i]);
  });
  const out = prepared.map(() => [] as number[]);
  if (wanted.size === 0) return out;
  const rows = await sql<{ host: string; legal_entity_id: number }>`
    select lower(regexp_replace(contact, '^([a-z]+://)?(www[.])?([^/:?#]+).*$', '\\3', 'i')) as host, legal_entity_id
    from legal_entity_contacts
    where contact_type_id = ${WEBSITE}
      and lower(regexp_replace(contact, '^([a-z]+://)?(www[.])?([^/:?#]+).*$', '\\3', 'i')) = any(${[...wanted.keys()]}::text[])
    limit 2000`.execute(db.kysely);
  for (const row of rows.rows) for (const i of wanted.get(row.host) ?? []) out[i].push(Number(row.legal_entity_id));
  return out;
}

/** A word safe in a to_tsquery expression (the lexicon's words are letters and digits). */
const tsWord = (w: string) => w.replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Companies by name, per query: the very normalised name; every word (a word no company name has
 * replaced by its closest lexicon words, within two edits); and the two rarest words alone. Each
 * probe keeps the companies most alike by trigram similarity.
 */
async function idsByName(db: Db, prepared: Prepared[]): Promise<number[][]> {
  const allWords = [...new Set(prepared.flatMap((p) => p.searchWords.flatMap(wordForms).map(tsWord)).filter(Boolean))];
  if (allWords.length === 0) return prepared.map(() => []);
  const lexicon = new Map(
    (
      await db.kysely.selectFrom('name_words').select(['word', 'documents']).where('word', 'in', allWords).execute()
    ).map((r) => [r.word, Number(r.documents)]),
  );
  const known = (w: string) => wordForms(w).some((form) => lexicon.has(tsWord(form)));
  const unknown = [
    ...new Set(prepared.flatMap((p) => p.searchWords).filter((w) => !known(w) && Array.from(w).length >= 3)),
  ].map(tsWord);
  // Corrections as the search makes them (one edit by symmetric delete, else trigrams): name-query.ts.
  const corrections =
    unknown.length > 0 ? await correctWords(db.kysely, unknown, 'trigrams') : new Map<string, string[]>();
  return Promise.all(
    prepared.map(async (p) => {
      const words = [...new Set(p.searchWords)];
      if (words.length === 0 || !p.query.name) return [];
      const every = words
        .map((w) => {
          const alternatives = [
            ...new Set([...wordForms(w), ...(corrections.get(tsWord(w)) ?? [])].map(tsWord)),
          ].filter(Boolean);
          return alternatives.length > 1 ? `(${alternatives.join(' | ')})` : alternatives[0];
        })
        .filter(Boolean)
        .join(' & ');
      const rare = words
        .flatMap((w) => wordForms(w).map(tsWord))
        .flatMap((w) => (lexicon.has(w) ? [[w, lexicon.get(w) ?? 0] as const] : []))
        .filter(([, documents]) => documents <= RARE_WORD_DOCUMENTS)
        .sort((a, b) => a[1] - b[1])
        .slice(0, 2)
        .map(([w]) => w);
      const typed = words.join(' ');
      const probes = [
        sql`select id, search_name from legal_entities where search_name = ${normalizeName(p.query.name)} and ${visibleCompany()}`,
      ];
      if (every) {
        probes.push(
          sql`select id, search_name from legal_entities where name_tsv @@ to_tsquery('simple', ${every}) and ${visibleCompany()} limit ${PROBE_ROWS}`,
        );
      }
      const ranked = (list: RawBuilder<unknown>[]) =>
        sql<{ id: number; alike: number }>`
          select id, similarity(c.search_name, ${typed}) as alike from (${sql.join(
            list.map((probe) => sql`(${probe})`),
            sql` union `,
          )}) c
          order by alike desc, id
          limit ${PROBE_KEEP}`.execute(db.kysely);
      const found = (await ranked(probes)).rows;
      // A word misspelt into another real word, or a name of words no company shares: the rarest words alone.
      if (rare.length > 0 && (found.length === 0 || Number(found[0].alike) < RARE_PROBE_BELOW)) {
        const more = await ranked([
          sql`select id, search_name from legal_entities where name_tsv @@ to_tsquery('simple', ${rare.join(' | ')}) and ${visibleCompany()} limit ${PROBE_ROWS}`,
        ]);
        found.push(...more.rows);
      }
      return found.map((r) => Number(r.id));
    }),
  );
}

// ---- the companies' facts ----

type CompanyFacts = {
  id: number;
  uri: string;
  name: string;
  jurisdiction_id: number;
  names: string[];
  identifiers: { type: number; compact: string }[];
  websites: string[];
  address: string;
};

/** What scoring compares, read through the company parts (ADR 0013). */
const FACT_PARTS = [
  namesPart.pick('name'),
  identifiersPart.pick('identifier_type_id', 'identifier'),
  contactsPart.pick('contact_type_id', 'contact'),
  addressesPart,
] as const;

async function companyFacts(db: Db, ids: number[]): Promise<Map<number, CompanyFacts>> {
  if (ids.length === 0) return new Map();
  const companies = await readCompanies(db, ids, FACT_PARTS);
  return new Map(
    companies.map((c) => [
      Number(c.id),
      {
        id: Number(c.id),
        uri: c.uri,
        name: c.name,
        jurisdiction_id: Number(c.jurisdiction_id),
        names: c.names.map((n) => n.name),
        identifiers: c.identifiers.map((i) => ({
          type: i.identifier_type_id,
          compact: compactIdentifier(i.identifier),
        })),
        websites: c.contacts.filter((k) => k.contact_type_id === WEBSITE).map((k) => k.contact),
        address: c.addresses.map((a) => formatAddress(a, null)).join(' '),
      },
    ]),
  );
}

// ---- scoring ----

const round = (n: number) => Math.round(n * 1000) / 1000;

function scoreCandidate(p: Prepared, c: CompanyFacts, reference: Reference): MatchCandidate {
  const features: MatchFeature[] = [];
  const feature = (id: FeatureId, value: number, reason: FeatureReason) =>
    features.push({ id, value, explanation: explainFeature(reason), reason });
  const location = reference.locations.byId.get(c.jurisdiction_id);
  const country = location?.country_code || null;
  const has = (types: number[], values: string[]) =>
    c.identifiers.some((i) => types.includes(i.type) && values.includes(i.compact));
  const holds = (types: number[]) => c.identifiers.some((i) => types.includes(i.type));

  let nameScore: number | null = null;
  if (p.words.length > 0) {
    let best = { value: 0, name: c.name };
    for (const candidateName of [c.name, ...c.names]) {
      const value = nameSimilarity(p.words, matchWords(candidateName));
      if (value > best.value) best = { value, name: candidateName };
    }
    nameScore = best.value;
    feature('name', round(best.value), {
      key: 'name',
      query: p.words.join(' '),
      company: matchWords(best.name).join(' '),
      percent: Math.round(best.value * 100),
    });
  }
  let numbers: number | null = null;
  let conflict = false;
  if (p.lei) {
    const same = has([TYPE.lei], [p.lei]);
    feature(
      'lei',
      same ? 1 : 0,
      same ? { key: 'leiSame', value: p.lei } : { key: holds([TYPE.lei]) ? 'leiOther' : 'leiNone' },
    );
    if (same) numbers = Math.max(numbers ?? 0, 0.995);
    else if (holds([TYPE.lei])) conflict = true;
  }
  if (p.registration) {
    const same = has([TYPE.company, TYPE.business], [p.registration]);
    feature(
      'registration_number',
      same ? 1 : 0,
      same
        ? { key: 'registrationSame', value: p.registration }
        : { key: holds([TYPE.company, TYPE.business]) ? 'registrationOther' : 'registrationNone' },
    );
    if (same) numbers = Math.max(numbers ?? 0, 0.97);
    else if (holds([TYPE.company, TYPE.business])) conflict = true;
  }
  if (p.vat.length > 0) {
    const same = has([TYPE.vat, TYPE.tax], p.vat);
    feature(
      'vat',
      same ? 1 : 0,
      same ? { key: 'vatSame', value: p.vat[0] } : { key: holds([TYPE.vat, TYPE.tax]) ? 'vatOther' : 'vatNone' },
    );
    if (same) numbers = Math.max(numbers ?? 0, 0.96);
    else if (holds([TYPE.vat, TYPE.tax])) conflict = true;
  }
  let countryFactor = 1;
  if (p.query.country !== undefined) {
    const same = p.country !== null && p.country === country;
    feature(
      'country',
      same ? 1 : 0,
      !p.country
        ? { key: 'countryUnknown', query: p.query.country }
        : same
          ? { key: 'countrySame', country: p.country }
          : country
            ? { key: 'countryOther', country, query: p.country }
            : { key: 'countryOtherUnknown', query: p.country },
    );
    if (p.country) countryFactor = same ? 1 : 0.6;
  }
  let domainBonus = 0;
  if (p.domain) {
    const hosts = c.websites.map(domainOf);
    const same = hosts.includes(p.domain);
    feature(
      'domain',
      same ? 1 : 0,
      same ? { key: 'domainSame', value: p.domain } : { key: hosts.length > 0 ? 'domainOther' : 'domainNone' },
    );
    if (same) domainBonus = 0.1;
  }
  let addressBonus = 0;
  if (p.address.size > 0) {
    const overlap = addressOverlap(p.address, addressTokens(c.address));
    feature('address', round(overlap), { key: 'address', percent: Math.round(overlap * 100) });
    addressBonus = 0.05 * overlap;
  }

  // A shared number decides (its name may have changed), unless the name is another altogether;
  // else the name leads, and country, website and address confirm or doubt it.
  let score: number;
  if (numbers !== null) {
    score = nameScore === null || nameScore >= 0.5 ? numbers : numbers - 0.15;
    if (p.country && countryFactor < 1) score -= 0.3;
  } else {
    const base = nameScore ?? (domainBonus > 0 ? 0.85 : 0);
    score = base * countryFactor + (nameScore === null ? 0 : domainBonus) + addressBonus;
    if (conflict) score *= 0.7;
  }
  score = round(Math.max(0, Math.min(1, score)));
  return { id: c.id, uri: c.uri, name: c.name, country, score, match: false, features };
}
