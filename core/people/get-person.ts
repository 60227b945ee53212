import type { Db } from '../../db/client.ts';
import { visibleCompany, visibleMember } from '../takedowns/visible.ts';

// One member (a person, or a company or authority sitting on others) with everything the person
// page shows: positions across companies with dates, contacts, and who else sits where they sit.

export const PERSON_POSITIONS_LIMIT = 200;
/** People beside the person at their companies, for the connections (two steps out). */
export const PERSON_CO_MEMBERS_LIMIT = 40;

export type PersonPosition = {
  company_id: number;
  uri: string;
  name: string;
  status_id: number | null;
  jurisdiction_id: number;
  position_id: number;
  since: string | null;
  /** The day the position ended, where the source states it. */
  until: string | null;
  natures: string[] | null;
};
export type PersonCoMember = { member_id: number; name: string; company_id: number; position_id: number };

export type Person = {
  id: number;
  name: string;
  name_type: 'legal_entity' | 'individual' | 'authority' | 'mixed';
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  postfix: string | null;
  country_id: number | null;
  birth_month: number | null;
  birth_year: number | null;
  /** The company the member is, when it is one in the database. */
  company: { uri: string; name: string } | null;
  positions: PersonPosition[];
  contacts: { contact_type_id: number; contact: string }[];
  coMembers: PersonCoMember[];
};

const day = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : typeof d === 'string' ? d : null);

/** The member with this id, or null. */
export async function getPerson(db: Db, id: number): Promise<Person | null> {
  const k = db.kysely;
  const member = await k
    .selectFrom('members as m')
    .leftJoin('legal_entities as le', 'le.id', 'm.legal_entity_id')
    .select([
      'm.id',
      'm.name',
      'm.name_type',
      'm.first_name',
      'm.middle_name',
      'm.last_name',
      'm.postfix',
      'm.country_id',
      'm.birth_month',
      'm.birth_year',
      'le.uri as company_uri',
      'le.name as company_name',
    ])
    .where('m.id', '=', id)
    .where(visibleMember('m'))
    .executeTakeFirst();
  if (!member) return null;
  const [positions, contacts] = await Promise.all([
    k
      .selectFrom('legal_entity_members as lem')
      .innerJoin('legal_entities as le', 'le.id', 'lem.legal_entity_id')
      .select([
        'le.id as company_id',
        'le.uri',
        'le.name',
        'le.status_id',
        'le.jurisdiction_id',
        'lem.position_id',
        'lem.since',
        'lem.until',
        'lem.natures',
      ])
      .where('lem.member_id', '=', id)
      .where(visibleCompany('le'))
      .orderBy('lem.since', (o) => o.desc().nullsLast())
      .orderBy('le.name')
      .limit(PERSON_POSITIONS_LIMIT)
      .execute(),
    k
      .selectFrom('member_contacts')
      .select(['contact_type_id', 'contact'])
      .where('member_id', '=', id)
      .orderBy('contact_type_id')
      .execute(),
  ]);
  const companyIds = [...new Set(positions.map((p) => Number(p.company_id)))];
  const coMembers =
    companyIds.length === 0
      ? []
      : await k
          .selectFrom('legal_entity_members as lem')
          .innerJoin('members as m', 'm.id', 'lem.member_id')
          .select(['m.id as member_id', 'm.name', 'lem.legal_entity_id as company_id', 'lem.position_id'])
          .where('lem.legal_entity_id', 'in', companyIds.slice(0, 50))
          .where('lem.member_id', '<>', id)
          .where(visibleMember('m'))
          .orderBy('m.name')
          .limit(PERSON_CO_MEMBERS_LIMIT)
          .execute();
  return {
    id: Number(member.id),
    name: member.name,
    name_type: member.name_type,
    first_name: member.first_name,
    middle_name: member.middle_name,
    last_name: member.last_name,
    postfix: member.postfix,
    country_id: member.country_id,
    birth_month: member.birth_month,
    birth_year: member.birth_year,
    company: member.company_uri && member.company_name ? { uri: member.company_uri, name: member.company_name } : null,
    positions: positions.map((p) => ({
      company_id: Number(p.company_id),
      uri: p.uri,
      name: p.name,
      status_id: p.status_id,
      jurisdiction_id: p.jurisdiction_id,
      position_id: p.position_id,
      since: day(p.since),
      until: day(p.until),
      natures: p.natures,
    })),
    contacts,
    coMembers: coMembers.map((c) => ({
      member_id: Number(c.member_id),
      name: c.name,
      company_id: Number(c.company_id),
      position_id: c.position_id,
    })),
  };
}
