import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { queryPrepared } from './prepared-query.ts';

type Row<T extends keyof Database> = Omit<Database[T], 'legal_entity_id'>;

export type CompanyMember = {
  member_id: number;
  name: string;
  name_type: Database['members']['name_type'];
  position_id: number;
  since: string | null;
  /** Set when the member is itself a company in the database. */
  company: { uri: string; name: string } | null;
  /** Other companies this member sits on (a few). */
  other_companies: { uri: string; name: string; position_id: number }[];
};

export type CompanyProfile = {
  id: number;
  uri: string;
  name: string;
  jurisdiction_id: number;
  kind_id: number | null;
  size_id: number | null;
  employees_id: number | null;
  status_id: number | null;
  primary_industry_id: number | null;
  registered_on: string | null;
  statuses: Row<'legal_entity_statuses'>[];
  names: Row<'legal_entity_names'>[];
  addresses: Row<'legal_entity_addresses'>[];
  dates: Row<'legal_entity_dates'>[];
  identifiers: Row<'legal_entity_identifiers'>[];
  indicators: Row<'legal_entity_indicators'>[];
  industries: Row<'legal_entity_industries'>[];
  shares: Row<'legal_entity_shares'>[];
  specifications: Row<'legal_entity_specifications'> | null;
  contacts: Row<'legal_entity_contacts'>[];
  members: CompanyMember[];
  /** Companies on which this company sits as a member (e.g. as parent company or shareholder). */
  member_of: { uri: string; name: string; position_id: number }[];
};

const OTHER_COMPANIES_PER_MEMBER = 5;
const MEMBER_OF_LIMIT = 50;

/** The rows of one legal_entity_* table for the company, as a JSON array in the given order. */
const rowsOf = (table: string, order: string, columns = 'x.*') =>
  sql.raw(
    `(select coalesce(json_agg(${columns === 'x.*' ? 'x' : `json_build_object(${columns})`} order by ${order}), '[]') from ${table} x where x.legal_entity_id = le.id)`,
  );

/**
 * Everything the product knows of one company, by its uri, in one statement (each related list
 * is a JSON subselect); null when there is none.
 */
export async function getCompany(db: Db, uri: string): Promise<CompanyProfile | null> {
  const rows = await queryPrepared(
    db,
    'registra-get-company',
    sql<CompanyProfile>`
    select le.id, le.uri, le.name, le.jurisdiction_id, le.kind_id, le.size_id, le.employees_id, le.status_id,
      le.primary_industry_id, le.registered_on,
      ${rowsOf('legal_entity_statuses', 'x.position')} as statuses,
      ${rowsOf('legal_entity_names', 'x.name_type_id, x.position')} as names,
      ${rowsOf('legal_entity_addresses', 'x.address_type_id, x.position')} as addresses,
      ${rowsOf('legal_entity_dates', 'x.date_type_id')} as dates,
      ${rowsOf('legal_entity_identifiers', 'x.identifier_type_id, x.position')} as identifiers,
      ${rowsOf('legal_entity_indicators', 'x.indicator_type_id')} as indicators,
      ${rowsOf('legal_entity_industries', 'x.is_primary desc, x.industry_id')} as industries,
      ${rowsOf(
        'legal_entity_shares',
        'x.position',
        "'position', x.position, 'kind', x.kind, 'type', x.type, 'total_price', x.total_price::text, 'currency_id', x.currency_id",
      )} as shares,
      (select row_to_json(x) from legal_entity_specifications x where x.legal_entity_id = le.id) as specifications,
      ${rowsOf('legal_entity_contacts', 'x.contact_type_id, x.position')} as contacts,
      (select coalesce(json_agg(m order by m.position_id, m.name), '[]') from (
        select lem.member_id, lem.position_id, lem.since, mb.name, mb.name_type,
          case when mc.id is null then null else json_build_object('uri', mc.uri, 'name', mc.name) end as company,
          (select coalesce(json_agg(o order by o.name), '[]') from (
            select le2.uri, le2.name, min(lem2.position_id) as position_id
            from legal_entity_members lem2 join legal_entities le2 on le2.id = lem2.legal_entity_id
            where lem2.member_id = lem.member_id and lem2.legal_entity_id <> le.id
            group by le2.uri, le2.name order by le2.name limit ${OTHER_COMPANIES_PER_MEMBER}
          ) o) as other_companies
        from legal_entity_members lem
        join members mb on mb.id = lem.member_id
        left join legal_entities mc on mc.id = mb.legal_entity_id
        where lem.legal_entity_id = le.id
      ) m) as members,
      (select coalesce(json_agg(x order by x.name), '[]') from (
        select le3.uri, le3.name, lem3.position_id
        from members m3
        join legal_entity_members lem3 on lem3.member_id = m3.id
        join legal_entities le3 on le3.id = lem3.legal_entity_id
        where m3.legal_entity_id = le.id
        order by le3.name limit ${MEMBER_OF_LIMIT}
      ) x) as member_of
    from legal_entities le
    where le.uri = ${uri}`,
  );
  const row = rows[0];
  return row ? parseJsonColumns(row) : null;
}

const JSON_COLUMNS = [
  'statuses',
  'names',
  'addresses',
  'dates',
  'identifiers',
  'indicators',
  'industries',
  'shares',
  'specifications',
  'contacts',
  'members',
  'member_of',
] as const;

/** Drivers differ on json: pg parses it, PGlite may hand back text. */
function parseJsonColumns<T extends Record<(typeof JSON_COLUMNS)[number], unknown>>(row: T): T {
  const out = { ...row };
  for (const key of JSON_COLUMNS) {
    const value = out[key];
    if (typeof value === 'string') (out as Record<string, unknown>)[key] = JSON.parse(value);
  }
  return out;
}
