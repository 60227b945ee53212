import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { SectionDecl } from '../sections/section.ts';

// The one home of "not taken down" for public reads (ADR 0021, "Takedowns"): search pages and
// their counts, facet cubes, directories, statistics, suggest, reconciliation, match, comparison
// and exports test a row with these. The companies and people taken down are a handful: a `not in`
// of them is a hashed list read from the partial indexes of migration 0026, whatever the table's size.

/** The ids of the companies taken down. */
const HIDDEN_COMPANIES = sql`(select id from legal_entities where taken_down_at is not null)`;

/** A company id (a column reference such as `b.legal_entity_id`) that is not taken down. */
export function visibleCompanyId(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} not in ${HIDDEN_COMPANIES}`;
}

/**
 * A row of the copies of a company's members (`connections`, which hold the name and not the
 * member's id) that is not a person taken down: its name is not the name of a member of that
 * company taken down. The row is left out, not shown as "withheld" (ADR 0021).
 */
export function visibleConnection(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.legal_entity_id`)}, coalesce(${sql.ref(`${alias}.name`)}, '')) not in (
    select lem.legal_entity_id, m.name from members m join legal_entity_members lem on lem.member_id = m.id
    where m.taken_down_at is not null and m.name is not null)`;
}

/** A row of a search section's base table (alias `b`) that belongs to no company or person taken down. */
export function visibleRow(section: SectionDecl): RawBuilder<SqlBool> {
  if (section.companyKey === 'id') return sql<SqlBool>`b.taken_down_at is null`;
  const company = visibleCompanyId('b.legal_entity_id');
  return section.baseTable === 'connections' ? sql<SqlBool>`${company} and ${visibleConnection('b')}` : company;
}
