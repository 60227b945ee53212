import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { countCompaniesByIndustry, countCompaniesByJurisdiction } from '../companies/count-companies.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { personPath } from '../people/person-path.ts';
import { displayName, type Reference } from '../reference/reference-data.ts';

// Suggestions while typing (issue 15, ADR 0022): companies and people whose name starts with what
// was typed, and the jurisdictions and industries whose name holds it. Names are read from the
// "C"-collated prefix indexes of migration 0024, a few rows each, in byte order; the lists come
// from the in-memory reference data and the cached company counts.

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

/** Suggestions for `query` (paths without language prefix); empty lists for an empty query. */
export async function suggest(db: Db, reference: Reference, languageId: number, query: string): Promise<Suggestions> {
  const typed = query.slice(0, SUGGEST_QUERY_MAX).trim();
  const none: Suggestions = { companies: [], people: [], jurisdictions: [], industries: [] };
  if (typed === '') return none;
  const companyPrefix = normalizeName(typed) || folded(typed);
  const personPrefix = typed.toLowerCase().replace(/\s+/g, ' ');
  const [companies, people, byJurisdiction, byIndustry] = await Promise.all([
    db.kysely
      .selectFrom('legal_entities')
      .select(['uri', 'name', 'jurisdiction_id'])
      .where(sql<boolean>`search_name collate "C" >= ${companyPrefix}`)
      .where(sql<boolean>`search_name collate "C" < ${prefixEnd(companyPrefix)}`)
      .orderBy(sql`search_name collate "C"`)
      .limit(SUGGEST_LIMIT)
      .execute(),
    db.kysely
      .selectFrom('members')
      .select(['id', 'name'])
      .where('legal_entity_id', 'is', null)
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
  const matching = <T extends { id: number }>(items: T[], name: (item: T) => string, counts: Map<number, number>) =>
    items
      .filter((item) => (counts.get(item.id) ?? 0) > 0)
      .map((item) => ({ item, label: name(item), at: folded(name(item)).indexOf(needle) }))
      .filter((m) => m.at >= 0)
      // One entry a name (an industry can have the same name in two classifications).
      .filter((m, i, all) => all.findIndex((other) => other.label === m.label) === i)
      .sort(
        (a, b) =>
          Number(a.at !== 0) - Number(b.at !== 0) || (counts.get(b.item.id) ?? 0) - (counts.get(a.item.id) ?? 0),
      )
      .slice(0, SUGGEST_LIMIT);
  return {
    companies: companies.map((c) => ({
      label: c.name,
      path: `/companies/details/${encodeURIComponent(c.uri)}/`,
      detail: displayName(reference.locations.byId.get(c.jurisdiction_id), languageId),
    })),
    people: people.map((p) => ({ label: p.name, path: personPath(p.name, Number(p.id)) })),
    jurisdictions: matching(reference.locations.items, (l) => displayName(l, languageId), byJurisdiction).map((m) => ({
      label: m.label,
      path: `/companies/search/f/jurisdiction-${m.item.uri}-${m.item.id}/`,
    })),
    industries: matching(reference.industries.items, (i) => displayName(i, languageId), byIndustry).map((m) => ({
      label: m.label,
      path: `/companies/search/f/industry-${m.item.uri}-${m.item.id}/`,
    })),
  };
}
