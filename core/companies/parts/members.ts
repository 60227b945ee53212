import { sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { visibleCompany, visibleMember } from '../../takedowns/visible.ts';
import { definePart } from './company-part.ts';

// The people and companies who sit on a company (members, officers, shareholders), and the
// companies it sits on itself. A member is not company-scoped (one person sits on many boards):
// the membership rows are (legal_entity_members), the member's own ones are shared (members).

type Member = Database['members'];

export type MemberRow = {
  member_id: number;
  position_id: number;
  since: string | null;
  name: string;
  name_type: Member['name_type'];
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  postfix: string | null;
  /** The member's country. */
  country_id: number | null;
  /** Set when the member is itself a company in the database. */
  company_id: number | null;
  company_uri: string | null;
  company_name: string | null;
  /** What the member controls, in its source's words (Companies House PSC natures of control). */
  natures: string[] | null;
};

/** A company's members, by position, then name. */
export const membersPart = definePart<MemberRow>()({
  key: 'members',
  table: 'legal_entity_members',
  fields: [
    'member_id',
    'position_id',
    'since',
    'name',
    'name_type',
    'first_name',
    'middle_name',
    'last_name',
    'postfix',
    'country_id',
    'company_id',
    'company_uri',
    'company_name',
    'natures',
  ],
  expressions: {
    name: sql`m.name`,
    name_type: sql`m.name_type`,
    first_name: sql`m.first_name`,
    middle_name: sql`m.middle_name`,
    last_name: sql`m.last_name`,
    postfix: sql`m.postfix`,
    country_id: sql`m.country_id`,
    company_id: sql`mc.id`,
    company_uri: sql`mc.uri`,
    company_name: sql`mc.name`,
  },
  from: sql`legal_entity_members x
    join members m on m.id = x.member_id
    left join legal_entities mc on mc.id = m.legal_entity_id
    where x.legal_entity_id = le.id and ${visibleMember('m')}`,
  order: 'x.position_id, m.name, x.member_id',
});

export type MemberContactRow = { member_id: number; contact_type_id: number; contact: string };

/** The contacts of a company's members, by member, then contact type. */
export const memberContactsPart = definePart<MemberContactRow>()({
  key: 'member_contacts',
  table: 'member_contacts',
  fields: ['member_id', 'contact_type_id', 'contact'],
  expressions: { contact_type_id: sql`c.contact_type_id`, contact: sql`c.contact` },
  from: sql`(select distinct lem.member_id from legal_entity_members lem join members m on m.id = lem.member_id
      where lem.legal_entity_id = le.id and ${visibleMember('m')}) x
    join member_contacts c on c.member_id = x.member_id`,
  order: 'x.member_id, c.contact_type_id',
});

/** Other companies a member sits on, shown beside it (a few, by name). */
export const OTHER_COMPANIES_PER_MEMBER = 5;

export type MemberCompanyRow = { member_id: number; uri: string; name: string; position_id: number };

/** The other companies each of a company's members sits on (OTHER_COMPANIES_PER_MEMBER each, by name). */
export const memberCompaniesPart = definePart<MemberCompanyRow>()({
  key: 'member_companies',
  table: 'legal_entity_members',
  fields: ['member_id', 'uri', 'name', 'position_id'],
  expressions: { uri: sql`o.uri`, name: sql`o.name`, position_id: sql`o.position_id` },
  from: sql`(select distinct lem.member_id from legal_entity_members lem join members m on m.id = lem.member_id
      where lem.legal_entity_id = le.id and ${visibleMember('m')}) x
    cross join lateral (
      select le2.uri, le2.name, min(lem2.position_id) as position_id
      from legal_entity_members lem2 join legal_entities le2 on le2.id = lem2.legal_entity_id
      where lem2.member_id = x.member_id and lem2.legal_entity_id <> le.id and ${visibleCompany('le2')}
      group by le2.uri, le2.name order by le2.name limit ${sql.lit(OTHER_COMPANIES_PER_MEMBER)}) o`,
  order: 'x.member_id, o.name',
});

/** Companies a company sits on as a member, shown on its profile (by name). */
export const MEMBER_OF_LIMIT = 50;

export type MemberOfRow = { uri: string; name: string; position_id: number };

/** The companies on which the company sits as a member (as parent company, shareholder, …), by name. */
export const memberOfPart = definePart<MemberOfRow>()({
  key: 'member_of',
  table: 'members',
  fields: ['uri', 'name', 'position_id'],
  from: sql`(select le3.uri, le3.name, lem3.position_id
      from members m3
      join legal_entity_members lem3 on lem3.member_id = m3.id
      join legal_entities le3 on le3.id = lem3.legal_entity_id
      where m3.legal_entity_id = le.id and ${visibleCompany('le3')}
      order by le3.name limit ${sql.lit(MEMBER_OF_LIMIT)}) x`,
  order: 'x.name',
});
