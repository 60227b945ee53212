import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { companyIdOfUri } from '../companies/company-uri.ts';
import { nameWords } from '../companies/normalize-name.ts';
import { addressesPart, formatAddress } from '../companies/parts/addresses.ts';
import { readCompanies } from '../companies/parts/company-part.ts';
import { contactsPart } from '../companies/parts/contacts.ts';
import { identifiersPart } from '../companies/parts/identifiers.ts';
import { AppError } from '../errors/app-error.ts';
import { identifierQuery, parseLei } from '../identifiers/normalize-identifier.ts';
import { MAX_MATCH_QUERIES } from '../limits.ts';
import {
  MATCH_CANDIDATES_MAX,
  type MatchCandidate,
  type MatchQuery,
  matchCompanies,
} from '../matching/match-companies.ts';
import { displayName, type Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';

// The W3C Reconciliation Service API 0.2 (what OpenRefine speaks) over the matching engine
// (docs/decisions/0020-api-keys-matching-reconciliation.md): entities are companies, identified by
// their URI (the last part of /companies/details/{uri}/); one type, `company`.

export const COMPANY_TYPE = { id: 'company', name: 'Company' } as const;

/** Properties a query may name (`properties[].pid`): the matching engine's features. */
export const QUERY_PROPERTIES = [
  { id: 'country', name: 'Country or jurisdiction', description: 'ISO 3166 code (DE, US-NY) or English name' },
  { id: 'registration_number', name: 'Registration number', description: 'Company or business number' },
  { id: 'lei', name: 'LEI', description: 'Legal Entity Identifier' },
  { id: 'vat', name: 'VAT or tax number', description: 'With or without the country prefix' },
  { id: 'domain', name: 'Website', description: 'Website or domain' },
  { id: 'address', name: 'Address', description: 'Address on one line' },
] as const;

/** Properties data extension can fetch of a company. */
export const EXTEND_PROPERTIES = [
  { id: 'name', name: 'Legal name' },
  { id: 'country', name: 'Country (ISO 3166-1 alpha-2)' },
  { id: 'jurisdiction', name: 'Jurisdiction' },
  { id: 'status', name: 'Status' },
  { id: 'registration_number', name: 'Registration number' },
  { id: 'lei', name: 'LEI' },
  { id: 'vat', name: 'VAT number' },
  { id: 'website', name: 'Website' },
  { id: 'address', name: 'Address' },
  { id: 'registered_on', name: 'Registration date' },
  { id: 'industry', name: 'Primary industry' },
] as const;

export type ReconciliationManifest = Record<string, unknown>;

/** The service manifest; `base` is the absolute URL of /api/reconcile, `site` the site's. */
export function reconciliationManifest(site: string, base: string): ReconciliationManifest {
  return {
    versions: ['0.2'],
    name: 'Registra companies',
    identifierSpace: `${site}/companies/details/`,
    schemaSpace: `${site}/api/reconcile/`,
    documentation: `${site}/api/docs`,
    serviceVersion: '1.0.0',
    view: { url: `${site}/companies/details/{{id}}/` },
    defaultTypes: [COMPANY_TYPE],
    preview: { url: `${base}/preview?id={{id}}`, width: 400, height: 140 },
    suggest: {
      entity: { service_url: base, service_path: '/suggest/entity' },
      property: { service_url: base, service_path: '/suggest/property' },
    },
    extend: {
      propose_properties: { service_url: base, service_path: '/extend/propose' },
      property_settings: [],
    },
  };
}

type PropertyValue = string | number | boolean | { id: string; name?: string };
export type ReconciliationQuery = {
  query?: string;
  type?: string | string[];
  limit?: number;
  properties?: { pid: string; v: PropertyValue | PropertyValue[] }[];
  type_strict?: 'any' | 'should' | 'all';
};

function bad(parameter: string, message: string): AppError {
  return new AppError('bad_request', message, { parameter });
}

/** Parses the `queries` parameter: a JSON object of queries by key (the batch of the spec). */
export function parseQueryBatch(text: string): Record<string, ReconciliationQuery> {
  let batch: unknown;
  try {
    batch = JSON.parse(text);
  } catch {
    throw bad('queries', 'queries: not JSON');
  }
  if (!batch || typeof batch !== 'object' || Array.isArray(batch)) {
    throw bad('queries', 'queries: a JSON object of queries by key, like {"q0":{"query":"Acme"}}');
  }
  const entries = Object.entries(batch as Record<string, unknown>);
  if (entries.length > MAX_MATCH_QUERIES) throw bad('queries', `queries: at most ${MAX_MATCH_QUERIES} at once`);
  for (const [key, query] of entries) {
    if (!query || typeof query !== 'object' || Array.isArray(query)) throw bad('queries', `queries.${key}: an object`);
    const q = query as ReconciliationQuery;
    if (q.query !== undefined && typeof q.query !== 'string') throw bad('queries', `queries.${key}.query: a string`);
    if (q.limit !== undefined && (typeof q.limit !== 'number' || q.limit < 1)) {
      throw bad('queries', `queries.${key}.limit: a positive number`);
    }
    if (q.type !== undefined && ![q.type].flat().every((t) => t === COMPANY_TYPE.id)) {
      throw bad('queries', `queries.${key}.type: the only type is ${COMPANY_TYPE.id}`);
    }
    for (const p of q.properties ?? []) {
      if (!QUERY_PROPERTIES.some((known) => known.id === p?.pid)) {
        throw bad('queries', `queries.${key}.properties: unknown property ${String(p?.pid)}`);
      }
    }
  }
  return batch as Record<string, ReconciliationQuery>;
}

function valueText(v: PropertyValue | PropertyValue[]): string | undefined {
  const first = Array.isArray(v) ? v[0] : v;
  if (first === undefined || first === null) return undefined;
  if (typeof first === 'object') return first.name ?? first.id;
  return String(first);
}

/** What the matching engine is asked for a reconciliation query. */
function matchQueryOf(q: ReconciliationQuery): MatchQuery {
  const out: MatchQuery = {};
  if (q.query?.trim()) out.name = q.query.trim();
  for (const p of q.properties ?? []) {
    const text = valueText(p.v)?.trim();
    if (text) out[p.pid as keyof MatchQuery] = text;
  }
  return out;
}

/**
 * The company URI a query's text names when it is an entity id as the service returns them
 * (`acme-gmbh-1234`), or a profile's address (`https://…/companies/details/acme-gmbh-1234/`, in any
 * language); else null.
 */
export function entityIdOf(text: string | undefined): string | null {
  const typed = text?.trim() ?? '';
  let uri = typed;
  if (/^https?:\/\//i.test(typed)) {
    let path: string;
    try {
      path = new URL(typed).pathname;
    } catch {
      return null;
    }
    const found = /^\/(?:(?:de|fr)\/)?companies\/details\/([^/]+)\/?$/.exec(path)?.[1];
    if (!found) return null;
    try {
      uri = decodeURIComponent(found);
    } catch {
      return null;
    }
  }
  return /^[\p{Ll}\p{N}]+(?:-[\p{Ll}\p{N}]+)*-\d{1,15}$/u.test(uri) && companyIdOfUri(uri) !== null ? uri : null;
}

/**
 * The query as the engine is asked it when its text is an identifier rather than a name: an LEI
 * (check digits hold), else a register number (digits, maybe letters around: "HRB 20326 B"), with
 * the query's own properties; null when the text is a name, or the query names the number itself.
 */
function identifierMatchQueryOf(q: ReconciliationQuery): MatchQuery | null {
  const text = q.query?.trim();
  if (!text || !identifierQuery(text)) return null;
  const { name: _name, ...properties } = matchQueryOf(q);
  const lei = parseLei(text);
  if (lei) return properties.lei ? null : { ...properties, lei };
  return properties.registration_number ? null : { ...properties, registration_number: text };
}

/** Whether a candidate holds the very identifier its query named. */
const holdsIdentifier = (c: MatchCandidate) =>
  c.features.some((f) => (f.id === 'lei' || f.id === 'registration_number') && f.value === 1);

export type ReconciliationCandidate = {
  id: string;
  name: string;
  description: string;
  score: number;
  match: boolean;
  type: { id: string; name: string }[];
  features: { id: string; value: number }[];
};

/** Answers a batch of queries: candidates by key, best first. */
export async function reconcile(
  db: Db,
  reference: Reference,
  batch: Record<string, ReconciliationQuery>,
): Promise<Record<string, { result: ReconciliationCandidate[] }>> {
  const keys = Object.keys(batch);
  // A query that is an entity id (a URI this service returned, or the profile's address) is that
  // company, the one exact match; one that is an LEI or a register number is also asked as one
  // (ADR 0034), and the companies holding it come first.
  const named = await companiesOfEntityIds(
    db,
    keys.map((k) => entityIdOf(batch[k].query)),
  );
  const queries = keys.map((k) => matchQueryOf(batch[k]));
  const numbered = keys.map((k) => identifierMatchQueryOf(batch[k]));
  const asked = [...queries, ...numbered.map((q) => q ?? {})];
  const matchable = asked.map((q, i) => Object.keys(q).length > 0 && !named[i % keys.length]);
  const found = await matchCompanies(
    db,
    reference,
    asked.filter((_, i) => matchable[i]),
    { limit: MATCH_CANDIDATES_MAX },
  );
  let next = 0;
  const results = asked.map((_, i) => (matchable[i] ? found[next++].candidates : []));
  return Object.fromEntries(
    keys.map((key, i) => {
      const limit = Math.min(Math.max(1, Math.floor(batch[key].limit ?? 5)), MATCH_CANDIDATES_MAX);
      const company = named[i];
      if (company) return [key, { result: [namedCandidate(reference, company)] }];
      const holders = results[keys.length + i].filter(holdsIdentifier);
      const candidates =
        holders.length === 0
          ? results[i]
          : [
              ...holders,
              ...results[i].filter((c) => !holders.some((h) => h.id === c.id)).map((c) => ({ ...c, match: false })),
            ];
      return [
        key,
        {
          result: candidates.slice(0, limit).map((c) => ({
            id: c.uri,
            name: c.name,
            description: [c.country, c.features.find((f) => f.id === 'name')?.explanation].filter(Boolean).join(' · '),
            score: c.score,
            match: c.match,
            type: [COMPANY_TYPE],
            features: c.features.map((f) => ({ id: f.id, value: f.value })),
          })),
        },
      ];
    }),
  );
}

type NamedCompany = { uri: string; name: string; jurisdiction_id: number };

/** The visible companies entity ids name, in the order of `uris`; null where an id names none by that very URI. */
async function companiesOfEntityIds(db: Db, uris: (string | null)[]): Promise<(NamedCompany | null)[]> {
  const wanted = [...new Set(uris.map((uri) => (uri === null ? null : companyIdOfUri(uri))))].filter(
    (id): id is number => id !== null,
  );
  if (wanted.length === 0) return uris.map(() => null);
  const rows = await db.kysely
    .selectFrom('legal_entities')
    .select(['uri', 'name', 'jurisdiction_id'])
    .where('id', 'in', wanted)
    .where(visibleCompany())
    .execute();
  const byUri = new Map(rows.map((r) => [r.uri, { ...r, jurisdiction_id: Number(r.jurisdiction_id) }]));
  return uris.map((uri) => (uri === null ? null : (byUri.get(uri) ?? null)));
}

/** A company an entity id names, as the one exact candidate: score 1, the match. */
function namedCandidate(reference: Reference, company: NamedCompany): ReconciliationCandidate {
  const country = reference.locations.byId.get(company.jurisdiction_id)?.country_code;
  return {
    id: company.uri,
    name: company.name,
    description: [country, 'the company this id names'].filter(Boolean).join(' · '),
    score: 1,
    match: true,
    type: [COMPANY_TYPE],
    features: [{ id: 'id', value: 1 }],
  };
}

/** Suggestions a suggest service gives at once; `cursor` skips that many (the spec's paging). */
export const SUGGEST_PAGE = 10;
/** Companies a name prefix is ranked among: paging reaches this far. */
const SUGGEST_CANDIDATES = 200;

/** The `cursor` parameter of a suggest query: a number of suggestions to skip (a 400 naming it otherwise). */
export function parseSuggestCursor(text: string | null): number {
  if (text === null || text === '') return 0;
  if (!/^\d{1,6}$/.test(text)) throw bad('cursor', 'cursor: a whole number of suggestions to skip, like 10');
  return Number(text);
}

/**
 * Companies whose name starts with what was typed (the last word a prefix), for the entity suggest
 * service, ten at a time from `cursor`; an entity id or profile address typed whole suggests that
 * company first.
 */
export async function suggestEntities(
  db: Db,
  reference: Reference,
  prefix: string,
  cursor = 0,
): Promise<{ result: { id: string; name: string; description: string }[] }> {
  const describe = (c: NamedCompany) => ({
    id: c.uri,
    name: c.name,
    description: displayName(reference.locations.byId.get(Number(c.jurisdiction_id))),
  });
  const [named] = await companiesOfEntityIds(db, [entityIdOf(prefix)]);
  if (named) return { result: cursor === 0 ? [describe(named)] : [] };
  const words = nameWords(prefix)
    .map((w) => w.replace(/[^\p{L}\p{N}]+/gu, ''))
    .filter(Boolean)
    .slice(0, 8);
  if (words.length === 0 || cursor >= SUGGEST_CANDIDATES) return { result: [] };
  const query = words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
  const rows = await sql<NamedCompany>`
    select uri, name, jurisdiction_id from (
      select uri, name, search_name, jurisdiction_id from legal_entities
      where name_tsv @@ to_tsquery('simple', ${query}) and ${visibleCompany()} limit ${SUGGEST_CANDIDATES}
    ) c order by c.search_name like ${`${words.join(' ')}%`} desc, similarity(c.search_name, ${words.join(' ')}) desc, uri
    limit ${SUGGEST_PAGE} offset ${cursor}`.execute(db.kysely);
  return { result: rows.rows.map(describe) };
}

/** Properties whose name or id holds what was typed, for the property suggest service, ten at a time from `cursor`. */
export function suggestProperties(
  prefix: string,
  cursor = 0,
): { result: { id: string; name: string; description?: string }[] } {
  const text = prefix.trim().toLowerCase();
  const all = [...QUERY_PROPERTIES, ...EXTEND_PROPERTIES.filter((p) => !QUERY_PROPERTIES.some((q) => q.id === p.id))];
  return {
    result: all
      .filter((p) => !text || p.id.includes(text) || p.name.toLowerCase().includes(text))
      .slice(cursor, cursor + SUGGEST_PAGE)
      .map((p) => ({ id: p.id, name: p.name, ...('description' in p ? { description: p.description } : {}) })),
  };
}

/** The properties data extension offers for a type. */
export function proposeProperties(type: string, limit?: number) {
  if (type !== COMPANY_TYPE.id) throw bad('type', `type: the only type is ${COMPANY_TYPE.id}`);
  const properties = EXTEND_PROPERTIES.slice(0, limit && limit > 0 ? limit : undefined).map((p) => ({
    id: p.id,
    name: p.name,
  }));
  return { type: COMPANY_TYPE.id, properties };
}

export type ExtendQuery = { ids: string[]; properties: { id: string; settings?: object }[] };

/** Parses the `extend` parameter. */
export function parseExtendQuery(text: string): ExtendQuery {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('extend', 'extend: not JSON');
  }
  const q = value as ExtendQuery;
  if (!q || !Array.isArray(q.ids) || !Array.isArray(q.properties)) {
    throw bad('extend', 'extend: an object with ids and properties');
  }
  if (q.ids.length > MAX_MATCH_QUERIES) throw bad('extend', `extend.ids: at most ${MAX_MATCH_QUERIES} at once`);
  if (!q.ids.every((id) => typeof id === 'string')) throw bad('extend', 'extend.ids: strings');
  for (const p of q.properties) {
    if (!EXTEND_PROPERTIES.some((known) => known.id === p?.id)) {
      throw bad('extend', `extend.properties: unknown property ${String(p?.id)}`);
    }
  }
  return q;
}

type Cell = { str: string } | { date: string };

const TYPE = { business: 1, company: 2, vat: 4, lei: 5 } as const;
const WEBSITE = 3;
const EXTEND_PARTS = [
  identifiersPart.pick('identifier_type_id', 'identifier'),
  contactsPart.pick('contact_type_id', 'contact'),
  addressesPart,
] as const;

/** The values of the asked properties for each company (read through the company parts, ADR 0013). */
export async function extend(db: Db, reference: Reference, query: ExtendQuery) {
  const ids = query.ids.map(companyIdOfUri).filter((id): id is number => id !== null);
  const companies = new Map((await readCompanies(db, ids, EXTEND_PARTS)).map((c) => [c.uri, c]));
  const rows: Record<string, Record<string, Cell[]>> = {};
  for (const id of query.ids) {
    const c = companies.get(id);
    const cells: Record<string, Cell[]> = {};
    for (const { id: pid } of query.properties) {
      if (!c) {
        cells[pid] = [];
        continue;
      }
      const jurisdiction = reference.locations.byId.get(Number(c.jurisdiction_id));
      const ofType = (types: number[]) =>
        c.identifiers.filter((i) => types.includes(i.identifier_type_id)).map((i) => ({ str: i.identifier }));
      const values: Record<string, () => Cell[]> = {
        name: () => [{ str: c.name }],
        country: () => (jurisdiction?.country_code ? [{ str: jurisdiction.country_code }] : []),
        jurisdiction: () => (jurisdiction ? [{ str: displayName(jurisdiction) }] : []),
        status: () =>
          c.status_id
            ? [{ str: displayName(reference.statuses.byId.get(Number(c.status_id))) }].filter((v) => v.str)
            : [],
        registration_number: () => ofType([TYPE.company, TYPE.business]),
        lei: () => ofType([TYPE.lei]),
        vat: () => ofType([TYPE.vat]),
        website: () => c.contacts.filter((k) => k.contact_type_id === WEBSITE).map((k) => ({ str: k.contact })),
        address: () =>
          c.addresses
            .slice(0, 1)
            .map((a) => ({ str: formatAddress(a, jurisdiction ? displayName(jurisdiction) : null) })),
        registered_on: () => (c.registered_on ? [{ date: `${String(c.registered_on).slice(0, 10)}T00:00:00Z` }] : []),
        industry: () =>
          c.primary_industry_id
            ? [{ str: displayName(reference.industries.byId.get(Number(c.primary_industry_id))) }].filter((v) => v.str)
            : [],
      };
      cells[pid] = values[pid]?.() ?? [];
    }
    rows[id] = cells;
  }
  return {
    meta: query.properties.map((p) => ({ id: p.id, name: EXTEND_PROPERTIES.find((e) => e.id === p.id)?.name ?? p.id })),
    rows,
  };
}
