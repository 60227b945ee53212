import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { countCompaniesByIndustry, countCompaniesByJurisdiction } from '../companies/count-companies.ts';
import { findByIdentifier } from '../companies/find-by-identifier.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { identifierQuery } from '../identifiers/normalize-identifier.ts';
import { mainPosition, personLines } from '../people/person-lines.ts';
import { personPath } from '../people/person-path.ts';
import { displayName, langOf, type Reference, type RefItem } from '../reference/reference-data.ts';
import { visibleCompany, visibleMember } from '../takedowns/visible.ts';

// Suggestions while typing (ADR 0022): companies and people whose name starts with what
// was typed, and the jurisdictions and industries whose name holds it. Names are read from the
// "C"-collated prefix indexes of migration 0024, a few rows each, in byte order; the lists come
// from the in-memory reference data and the cached company counts. Text that reads as an
// identifier also finds the companies holding it, first (core/companies/find-by-identifier.ts).

export const SUGGEST_LIMIT = 5;
export const SUGGEST_QUERY_MAX = 100;

export type Suggestion = { label: string; path: string; detail?: string };
export type Suggestions = {
  companies: Suggestion[];
  people: Suggestion[];
  jurisdictions: Suggestion[];
  industries: Suggestion[];
};

/** The first text after every text starting with `prefix`, in code-point (UTF-8 byte) order. */
function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() ?? '';
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

/** Lower case, accents folded, spaces collapsed: how a label is compared with what was typed. */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

type FoldedName = { item: RefItem; label: string; folded: string };
const FOLDED = new WeakMap<Reference, Map<number, { locations: FoldedName[]; industries: FoldedName[] }>>();

/** The display names of locations and industries in a language, folded once per reference data. */
function foldedNames(reference: Reference, languageId: number) {
  const byLanguage = FOLDED.get(reference) ?? new Map();
  FOLDED.set(reference, byLanguage);
  let names = byLanguage.get(languageId);
  if (!names) {
    const fold = (items: RefItem[]) =>
      items.map((item) => {
        const label = displayName(item, languageId);
        return { item, label, folded: folded(label) };
      });
    names = { locations: fold(reference.locations.items), industries: fold(reference.industries.items) };
    byLanguage.set(languageId, names);
  }
  return names;
}

/** Suggestions for `query` (paths without language prefix); empty lists for an empty query. */
export async function suggest(db: Db, reference: Reference, languageId: number, query: string): Promise<Suggestions> {
  const typed = query.slice(0, SUGGEST_QUERY_MAX).trim();
  const none: Suggestions = { companies: [], people: [], jurisdictions: [], industries: [] };
  if (typed === '') return none;
  const companyPrefix = normalizeName(typed) || folded(typed);
  const personPrefix = typed.toLowerCase().replace(/\s+/g, ' ');
  const asIdentifier = identifierQuery(typed);
  const [byIdentifier, byName, people, byJurisdiction, byIndustry] = await Promise.all([
    asIdentifier ? companiesByIdentifier(db, asIdentifier) : [],
    db.kysely
      .selectFrom('legal_entities')
      .select(['uri', 'name', 'jurisdiction_id'])
      .where(visibleCompany())
      .where(sql<boolean>`search_name collate "C" >= ${companyPrefix}`)
      .where(sql<boolean>`search_name collate "C" < ${prefixEnd(companyPrefix)}`)
      .orderBy(sql`search_name collate "C"`)
      .limit(SUGGEST_LIMIT)
      .execute(),
    db.kysely
      .selectFrom('members as m')
      // Each person with what tells them apart (core/people/person-lines.ts).
      .leftJoinLateral(mainPosition, (join) => join.onTrue())
      .select(['m.id', 'm.name', 'm.country_id', 'm.birth_month', 'm.birth_year'])
      .select(['main.main_company', 'main.main_uri', 'main.main_position_id'])
      .where('m.legal_entity_id', 'is', null)
      .where(visibleMember('m'))
      .where(sql<boolean>`lower(name) collate "C" >= ${personPrefix}`)
      .where(sql<boolean>`lower(name) collate "C" < ${prefixEnd(personPrefix)}`)
      .orderBy(sql`lower(name) collate "C"`)
      .limit(SUGGEST_LIMIT)
      .execute(),
    countCompaniesByJurisdiction(db),
    countCompaniesByIndustry(db, reference),
  ]);
  const needle = folded(typed);
  /** Reference items whose name holds the query, those starting with it first, then the most companies. */
  const matching = (names: FoldedName[], counts: Map<number, number>) =>
    names
      .filter((n) => (counts.get(n.item.id) ?? 0) > 0)
      .map((n) => ({ ...n, at: n.folded.indexOf(needle) }))
      .filter((m) => m.at >= 0)
      .sort(
        (a, b) =>
          Number(a.at !== 0) - Number(b.at !== 0) || (counts.get(b.item.id) ?? 0) - (counts.get(a.item.id) ?? 0),
      )
      // One entry a name (an industry can have the same name in two classifications).
      .filter((m, i, all) => all.findIndex((other) => other.label === m.label) === i)
      .slice(0, SUGGEST_LIMIT);
  const names = foldedNames(reference, languageId);
  const companies = [...byIdentifier, ...byName.filter((c) => !byIdentifier.some((i) => i.uri === c.uri))];
  return {
    companies: companies.slice(0, SUGGEST_LIMIT).map((c) => {
      const jurisdiction = displayName(reference.locations.byId.get(c.jurisdiction_id), languageId);
      return {
        label: c.name,
        path: `/companies/details/${encodeURIComponent(c.uri)}/`,
        detail: 'identifier' in c ? `${jurisdiction} · ${c.identifier}` : jurisdiction,
      };
    }),
    people: personLines(
      people.map((p) => ({ ...p, id: Number(p.id) })),
      reference,
      langOf(reference, languageId),
    ).map((p) => ({ label: p.name, path: personPath(p.name, p.id), detail: p.detail || undefined })),
    jurisdictions: matching(names.locations, byJurisdiction).map((m) => ({
      label: m.label,
      path: `/companies/search/f/jurisdiction-${m.item.uri}-${m.item.id}/`,
    })),
    industries: matching(names.industries, byIndustry).map((m) => ({
      label: m.label,
      path: `/companies/search/f/industry-${m.item.uri}-${m.item.id}/`,
    })),
  };
}

/** The companies holding an identifier, best first, with the identifier they were found by. */
async function companiesByIdentifier(db: Db, query: NonNullable<ReturnType<typeof identifierQuery>>) {
  const matches = await findByIdentifier(db, query, { limit: SUGGEST_LIMIT });
  if (matches.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'uri', 'name', 'jurisdiction_id'])
    .where(
      'id',
      'in',
      matches.map((m) => m.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return matches.flatMap((m) => {
    const row = byId.get(m.id);
    return row
      ? [{ uri: row.uri, name: row.name, jurisdiction_id: row.jurisdiction_id, identifier: m.identifier }]
      : [];
  });
}
