import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** A profile is "advanced" when any related list has this many items or more (spec §3, §9). */
export const ADVANCED_PROFILE_THRESHOLD = 10;

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
  advanced: boolean;
};

const OTHER_COMPANIES_PER_MEMBER = 5;

/** Everything the product knows of one company, by its uri; null when there is none. */
export async function getCompany(db: Db, uri: string): Promise<CompanyProfile | null> {
  const k = db.kysely;
  const company = await k
    .selectFrom('legal_entities')
    .select([
      'id',
      'uri',
      'name',
      'jurisdiction_id',
      'kind_id',
      'size_id',
      'employees_id',
      'status_id',
      'primary_industry_id',
      'registered_on',
    ])
    .where('uri', '=', uri)
    .executeTakeFirst();
  if (!company) return null;
  const id = company.id;
  const of = <T extends keyof Database & `legal_entity_${string}`>(table: T) =>
    // biome-ignore lint/suspicious/noExplicitAny: every legal_entity_* table has legal_entity_id
    (k.selectFrom(table as any).selectAll() as any).where('legal_entity_id', '=', id);
  const [statuses, names, addresses, dates, identifiers, indicators, industries, shares, specifications, contacts] =
    await Promise.all([
      of('legal_entity_statuses').orderBy('position').execute(),
      of('legal_entity_names').orderBy('name_type_id').orderBy('position').execute(),
      of('legal_entity_addresses').orderBy('address_type_id').orderBy('position').execute(),
      of('legal_entity_dates').orderBy('date_type_id').execute(),
      of('legal_entity_identifiers').orderBy('identifier_type_id').orderBy('position').execute(),
      of('legal_entity_indicators').orderBy('indicator_type_id').execute(),
      of('legal_entity_industries').orderBy('is_primary', 'desc').orderBy('industry_id').execute(),
      of('legal_entity_shares').orderBy('position').execute(),
      of('legal_entity_specifications').executeTakeFirst(),
      of('legal_entity_contacts').orderBy('contact_type_id').orderBy('position').execute(),
    ]);
  const memberRows = await k
    .selectFrom('legal_entity_members as lem')
    .innerJoin('members as m', 'm.id', 'lem.member_id')
    .leftJoin('legal_entities as mc', 'mc.id', 'm.legal_entity_id')
    .select([
      'lem.member_id',
      'lem.position_id',
      'lem.since',
      'm.name',
      'm.name_type',
      'mc.uri as company_uri',
      'mc.name as company_name',
    ])
    .where('lem.legal_entity_id', '=', id)
    .orderBy('lem.position_id')
    .orderBy('m.name')
    .execute();
  const memberIds = [...new Set(memberRows.map((m) => m.member_id))];
  const others =
    memberIds.length === 0
      ? []
      : await k
          .selectFrom('legal_entity_members as lem')
          .innerJoin('legal_entities as le', 'le.id', 'lem.legal_entity_id')
          .select(['lem.member_id', 'lem.position_id', 'le.uri', 'le.name'])
          .where('lem.member_id', 'in', memberIds)
          .where('lem.legal_entity_id', '<>', id)
          .orderBy('lem.member_id')
          .orderBy('le.name')
          .execute();
  const othersByMember = new Map<number, CompanyMember['other_companies']>();
  for (const o of others) {
    const list = othersByMember.get(o.member_id) ?? [];
    if (list.length < OTHER_COMPANIES_PER_MEMBER && !list.some((x) => x.uri === o.uri)) {
      list.push({ uri: o.uri, name: o.name, position_id: o.position_id });
    }
    othersByMember.set(o.member_id, list);
  }
  const members: CompanyMember[] = memberRows.map((m) => ({
    member_id: m.member_id,
    name: m.name,
    name_type: m.name_type,
    position_id: m.position_id,
    since: m.since,
    company: m.company_uri && m.company_name ? { uri: m.company_uri, name: m.company_name } : null,
    other_companies: othersByMember.get(m.member_id) ?? [],
  }));
  const memberOf = await k
    .selectFrom('members as m')
    .innerJoin('legal_entity_members as lem', 'lem.member_id', 'm.id')
    .innerJoin('legal_entities as le', 'le.id', 'lem.legal_entity_id')
    .select(['le.uri', 'le.name', 'lem.position_id'])
    .where('m.legal_entity_id', '=', id)
    .orderBy('le.name')
    .limit(50)
    .execute();
  const lists = [statuses, names, addresses, dates, identifiers, indicators, industries, shares, contacts, members];
  return {
    ...company,
    statuses,
    names,
    addresses,
    dates,
    identifiers,
    indicators,
    industries,
    shares,
    specifications: specifications ?? null,
    contacts,
    members,
    member_of: memberOf,
    advanced: lists.some((l) => l.length >= ADVANCED_PROFILE_THRESHOLD),
  };
}
