import type { Db } from '../../db/client.ts';
import { chooseStatus, isActive } from '../companies/company-status.ts';
import { displayName, flagOf, type Lang, type Reference, type RefList } from '../reference/reference-data.ts';
import {
  INDUSTRY_INDICATOR_TYPES,
  type LegalEntityCore,
  type LegalEntityItem,
  type LegalEntitySection,
  type RefLink,
} from './legal-entity-schemas.ts';

export type ReadOptions = {
  sections: ReadonlySet<LegalEntitySection>;
  /** Language of display names (a language id of Reference). */
  languageId: number;
  /** Language of links (profile paths). */
  lang: Lang;
};

/**
 * Companies by id, in the order of `ids` (unknown ids are left out), each with its
 * `legal_entities` core and the requested sections, read in one query per section.
 */
export async function readLegalEntities(
  db: Db,
  reference: Reference,
  ids: number[],
  options: ReadOptions,
): Promise<LegalEntityItem[]> {
  if (ids.length === 0) return [];
  const k = db.kysely;
  const wants = (s: LegalEntitySection) => options.sections.has(s);
  const none = Promise.resolve([]);
  const [
    base,
    statuses,
    names,
    addresses,
    dates,
    identifiers,
    indicators,
    industries,
    shares,
    specs,
    contacts,
    members,
  ] = await Promise.all([
    k
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
      .where('id', 'in', ids)
      .execute(),
    k
      .selectFrom('legal_entity_statuses')
      .selectAll()
      .where('legal_entity_id', 'in', ids)
      .orderBy('legal_entity_id')
      .orderBy('position')
      .execute(),
    wants('le_names')
      ? k
          .selectFrom('legal_entity_names')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('name_type_id')
          .orderBy('position')
          .execute()
      : none,
    wants('le_addresses')
      ? k
          .selectFrom('legal_entity_addresses')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('address_type_id')
          .orderBy('position')
          .execute()
      : none,
    wants('le_dates')
      ? k
          .selectFrom('legal_entity_dates')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('date_type_id')
          .execute()
      : none,
    wants('le_identifiers')
      ? k
          .selectFrom('legal_entity_identifiers')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('identifier_type_id')
          .orderBy('position')
          .execute()
      : none,
    wants('le_indicators')
      ? k
          .selectFrom('legal_entity_indicators')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('indicator_type_id')
          .execute()
      : none,
    wants('le_industries')
      ? k
          .selectFrom('legal_entity_industries')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('is_primary', 'desc')
          .orderBy('industry_id')
          .execute()
      : none,
    wants('le_shares')
      ? k
          .selectFrom('legal_entity_shares')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('position')
          .execute()
      : none,
    wants('le_specifications')
      ? k.selectFrom('legal_entity_specifications').selectAll().where('legal_entity_id', 'in', ids).execute()
      : none,
    wants('le_contacts')
      ? k
          .selectFrom('legal_entity_contacts')
          .selectAll()
          .where('legal_entity_id', 'in', ids)
          .orderBy('contact_type_id')
          .orderBy('position')
          .execute()
      : none,
    wants('le_members')
      ? k
          .selectFrom('legal_entity_members as lem')
          .innerJoin('members as m', 'm.id', 'lem.member_id')
          .leftJoin('legal_entities as mc', 'mc.id', 'm.legal_entity_id')
          .select([
            'lem.legal_entity_id',
            'lem.member_id',
            'lem.position_id',
            'lem.since',
            'm.name',
            'm.name_type',
            'm.first_name',
            'm.middle_name',
            'm.last_name',
            'm.postfix',
            'mc.id as company_id',
            'mc.uri as company_uri',
            'mc.name as company_name',
          ])
          .where('lem.legal_entity_id', 'in', ids)
          .orderBy('lem.position_id')
          .orderBy('m.name')
          .orderBy('lem.member_id')
          .execute()
      : none,
  ]);

  const { languageId } = options;
  const link = (list: RefList, id: number): RefLink => {
    const item = list.byId.get(id);
    return { id, uri: item?.uri ?? String(id), name: displayName(item, languageId) };
  };
  const optionalLink = (list: RefList, id: number | null): RefLink | null => (id === null ? null : link(list, id));
  const byCompany = <T extends { legal_entity_id: number }>(rows: T[]) => {
    const map = new Map<number, T[]>();
    for (const row of rows) {
      const list = map.get(row.legal_entity_id);
      if (list) list.push(row);
      else map.set(row.legal_entity_id, [row]);
    }
    return (id: number) => map.get(id) ?? [];
  };
  const statusesOf = byCompany(statuses);
  const namesOf = byCompany(names);
  const addressesOf = byCompany(addresses);
  const datesOf = byCompany(dates);
  const identifiersOf = byCompany(identifiers);
  const indicatorsOf = byCompany(indicators);
  const industriesOf = byCompany(industries);
  const sharesOf = byCompany(shares);
  const specsOf = byCompany(specs);
  const contactsOf = byCompany(contacts);
  const membersOf = byCompany(members);
  const prefix = options.lang === 'en' ? '' : `/${options.lang}`;

  const core = (row: (typeof base)[number]): LegalEntityCore => {
    const jurisdiction = reference.locations.byId.get(row.jurisdiction_id);
    const rows = statusesOf(row.id);
    const statusIds = rows.length > 0 ? rows.map((s) => s.status_id) : row.status_id === null ? [] : [row.status_id];
    const entries = statusIds.map((id) => {
      const status = reference.statuses.byId.get(id);
      return { status_id: id, status_name: displayName(status, languageId), uri: status?.uri ?? String(id) };
    });
    const chosen = chooseStatus(entries);
    const size = row.size_id === null ? undefined : reference.sizes.byId.get(row.size_id);
    const employees = row.employees_id === null ? undefined : reference.employees.byId.get(row.employees_id);
    return {
      id: row.id,
      uri: row.uri,
      name: row.name,
      href: `${prefix}/companies/details/${encodeURIComponent(row.uri)}/`,
      jurisdiction: {
        registry_location_id: row.jurisdiction_id,
        name: displayName(jurisdiction, languageId),
        uri: jurisdiction?.uri ?? String(row.jurisdiction_id),
        countryCode: jurisdiction?.country_code ?? '',
        flag: flagOf(reference, row.jurisdiction_id),
      },
      registry_location_name: displayName(jurisdiction, languageId),
      kind: optionalLink(reference.kinds, row.kind_id),
      statuses: entries,
      status_name: chosen?.status_name ?? null,
      is_active: isActive(chosen?.status_id ?? row.status_id),
      types_by_size: size ? { id: size.id, uri: size.uri, type_by_size_name: displayName(size, languageId) } : null,
      employees_number: employees
        ? { id: employees.id, uri: employees.uri, name: displayName(employees, languageId) }
        : null,
      primary_industry: optionalLink(reference.industries, row.primary_industry_id),
      registered_on: row.registered_on,
    };
  };

  const item = (row: (typeof base)[number]): LegalEntityItem => {
    const out: LegalEntityItem = { legal_entities: core(row) };
    const id = row.id;
    if (wants('le_names')) {
      out.names = namesOf(id).map((n) => ({
        type: link(reference.nameTypes, n.name_type_id),
        position: n.position,
        name: n.name,
      }));
    }
    if (wants('le_addresses')) {
      out.addresses = addressesOf(id).map(({ legal_entity_id: _, address_type_id, country_id, state_id, ...a }) => {
        const country = optionalLink(reference.locations, country_id);
        return {
          type: link(reference.addressTypes, address_type_id),
          ...a,
          full_address: fullAddress(a, country?.name ?? null),
          country,
          state_location: optionalLink(reference.locations, state_id),
        };
      });
    }
    if (wants('le_dates')) {
      out.dates = datesOf(id).map((d) => ({ type: link(reference.dateTypes, d.date_type_id), date_full: d.date }));
    }
    if (wants('le_identifiers')) {
      out.identifiers = identifiersOf(id).map((i) => ({
        type: link(reference.identifierTypes, i.identifier_type_id),
        position: i.position,
        identifier: i.identifier,
      }));
    }
    if (wants('le_industries')) {
      out.industries = industriesOf(id).map((i) => {
        const industry = reference.industries.byId.get(i.industry_id);
        return {
          industry_id: i.industry_id,
          uri: industry?.uri ?? String(i.industry_id),
          name: displayName(industry, languageId),
          code: industry?.code ?? '',
          industry_indicators: INDUSTRY_INDICATOR_TYPES.filter((t) => i[t]).map((type) => ({ type })),
        };
      });
    }
    if (wants('le_indicators')) {
      out.indicators = indicatorsOf(id).map((i) => ({
        type: link(reference.indicatorTypes, i.indicator_type_id),
        value: i.value,
      }));
    }
    if (wants('le_shares')) {
      out.shares = sharesOf(id).map((s) => ({
        position: s.position,
        kind: s.kind,
        type: s.type,
        total_price: s.total_price === null ? null : String(s.total_price),
        currency_id: s.currency_id,
        currency_name:
          s.currency_id === null ? null : displayName(reference.currencies.byId.get(s.currency_id), languageId) || null,
      }));
    }
    if (wants('le_specifications')) {
      const spec = specsOf(id)[0];
      out.specifications = spec
        ? {
            members_count: spec.members_count,
            officers_count: spec.officers_count,
            partners_count: spec.partners_count,
          }
        : null;
    }
    if (wants('le_statuses')) out.statuses = out.legal_entities.statuses;
    if (wants('le_contacts')) {
      out.contacts = contactsOf(id).map((c) => ({
        type: link(reference.contactTypes, c.contact_type_id),
        position: c.position,
        contact: c.contact,
      }));
    }
    if (wants('le_members')) {
      out.members = membersOf(id).map((m) => ({
        member_id: m.member_id,
        name: m.name,
        name_type: m.name_type,
        name_components: {
          first_name: m.first_name,
          middle_name: m.middle_name,
          last_name: m.last_name,
          postfix: m.postfix,
        },
        position: link(reference.positions, m.position_id),
        since: m.since,
        company:
          m.company_id !== null && m.company_uri !== null && m.company_name !== null
            ? { id: m.company_id, uri: m.company_uri, name: m.company_name }
            : null,
      }));
    }
    return out;
  };

  const byId = new Map(base.map((row) => [row.id, row]));
  const out: LegalEntityItem[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) out.push(item(row));
  }
  return out;
}

type AddressParts = {
  address_line_1: string | null;
  address_line_2: string | null;
  block: string | null;
  building: string | null;
  city_district: string | null;
  county: string | null;
  floor: string | null;
  house: string | null;
  locality: string | null;
  post_code: string | null;
  room: string | null;
  state: string | null;
  street: string | null;
};

/** An address on one line: lines, street and house, building parts, post code and locality, region, country. */
export function fullAddress(a: AddressParts, countryName: string | null): string {
  const join = (parts: (string | null)[], separator: string) =>
    parts.filter((p) => p && p.trim() !== '').join(separator);
  return join(
    [
      a.address_line_1,
      a.address_line_2,
      join([a.street, a.house], ' '),
      a.building,
      a.block,
      a.floor,
      a.room,
      a.city_district,
      join([a.post_code, a.locality], ' '),
      a.county,
      a.state,
      countryName,
    ],
    ', ',
  );
}
