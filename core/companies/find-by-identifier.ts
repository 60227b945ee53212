import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import {
  type IdentifierQuery,
  identifierHit,
  identifierKey,
  identifierKeySql,
} from '../identifiers/normalize-identifier.ts';
import { visibleCompany } from '../takedowns/visible.ts';

// Companies by an identifier typed in the search box or suggest (docs/decisions/0002-search-performance.md,
// "Identifiers"): every identifier they hold (legal_entity_identifiers, through the number-only key
// of migration 0030) and the source keys that are no identifier of theirs (company_keys: the SEC's
// CIK). An index lookup each; a name query never gets here (identifierQuery is null for it).

/** How a company was found: the identifier it holds and its kind (an identifier_types uri or a source's key scheme). */
export type IdentifierMatch = {
  id: number;
  identifier: string;
  kind: string;
  hit: 'exact' | 'partial';
};

/** Stored identifiers of one number read at most (a number shared by more companies than this is no lookup). */
const CANDIDATES_MAX = 500;

/** Kinds first for the same quality of hit: a register's number, then the LEI, the VAT number, the rest. */
const KIND_ORDER = ['company_number', 'lei', 'vat', 'sec-cik', 'business_number', 'tax_number'];
const kindRank = (kind: string) => {
  const at = KIND_ORDER.indexOf(kind);
  return at < 0 ? KIND_ORDER.length : at;
};

/**
 * The visible companies holding an identifier the query names, within `where` (conditions on
 * legal_entities as `b`), best first: exact hits, then those whose number the query gives without
 * the register's or country's letters; by kind, then id. At most `limit` companies.
 */
export async function findByIdentifier(
  db: Db,
  query: IdentifierQuery,
  options: { limit: number; where?: RawBuilder<unknown> | null },
): Promise<IdentifierMatch[]> {
  const key = identifierKey(query.compact);
  const sourceKeys = query.sourceKeys.length
    ? sql`union all
      select c.legal_entity_id as id, c.key as identifier, c.scheme as kind, true as source_key
      from company_keys c
      where (c.scheme, c.key) in (${sql.join(query.sourceKeys.map((k) => sql`(${k.scheme}, ${k.key})`))})`
    : sql``;
  const rows = await sql<{ id: string | number; identifier: string; kind: string; source_key: boolean }>`
    with found as (
      (select i.legal_entity_id as id, i.identifier, t.uri as kind, false as source_key
      from legal_entity_identifiers i join identifier_types t on t.id = i.identifier_type_id
      where ${identifierKeySql('i.identifier')} = ${key}
      limit ${CANDIDATES_MAX})
      ${sourceKeys}
    )
    select f.id, f.identifier, f.kind, f.source_key from found f join legal_entities b on b.id = f.id
    where ${visibleCompany('b')}${options.where ? sql` and ${options.where}` : sql``}`.execute(db.kysely);
  const best = new Map<number, IdentifierMatch>();
  for (const row of rows.rows) {
    // A source's key (the CIK, the LEI) was looked up in its own normal form: the query names it.
    const hit = row.source_key ? 'exact' : identifierHit(query, row.identifier);
    if (!hit) continue;
    const match: IdentifierMatch = { id: Number(row.id), identifier: row.identifier, kind: row.kind, hit };
    const held = best.get(match.id);
    if (!held || compare(match, held) < 0) best.set(match.id, match);
  }
  return [...best.values()].sort(compare).slice(0, options.limit);
}

function compare(a: IdentifierMatch, b: IdentifierMatch): number {
  return Number(a.hit !== 'exact') - Number(b.hit !== 'exact') || kindRank(a.kind) - kindRank(b.kind) || a.id - b.id;
}
