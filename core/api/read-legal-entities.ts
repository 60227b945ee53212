import type { Db } from '../../db/client.ts';
import { endOfDay, readHistoryAfter, rebuildCompany } from '../companies/as-of.ts';
import { chooseStatus, isActive } from '../companies/company-status.ts';
import { addressesPart, formatAddress } from '../companies/parts/addresses.ts';
import { type AnyPart, type CompanyWith, readCompanies } from '../companies/parts/company-part.ts';
import { contactsPart } from '../companies/parts/contacts.ts';
import { datesPart } from '../companies/parts/dates.ts';
import { identifiersPart } from '../companies/parts/identifiers.ts';
import { indicatorsPart } from '../companies/parts/indicators.ts';
import { industriesPart } from '../companies/parts/industries.ts';
import { membersPart } from '../companies/parts/members.ts';
import { namesPart } from '../companies/parts/names.ts';
import { sharesPart } from '../companies/parts/shares.ts';
import { specificationsPart } from '../companies/parts/specifications.ts';
import { statusesPart } from '../companies/parts/statuses.ts';
import { type Unlocked, visibleContacts } from '../purchases/paywall.ts';
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
  /**
   * A day (YYYY-MM-DD): the companies as Registra knew them at its end, rebuilt from their changes
   * (docs/decisions/0028-company-as-of.md); those that had not appeared yet are left out.
   */
  asOf?: string;
  /** What the caller bought: the contact details of other companies are left out (ADR 0029). */
  unlocked: Unlocked;
};

/** The company part each section of the data API reads (core/companies/parts/). */
const SECTION_PARTS = [
  ['le_names', namesPart],
  ['le_addresses', addressesPart],
  ['le_dates', datesPart],
  ['le_identifiers', identifiersPart],
  ['le_indicators', indicatorsPart],
  ['le_industries', industriesPart],
  ['le_shares', sharesPart],
  ['le_specifications', specificationsPart],
  ['le_contacts', contactsPart],
  ['le_members', membersPart],
] as const satisfies readonly (readonly [LegalEntitySection, AnyPart])[];

/** Every part the data API reads: the statuses (the core's chosen status), and one per section. */
type ApiPart = typeof statusesPart | (typeof SECTION_PARTS)[number][1];

type Company = CompanyWith<ApiPart[]>;

/**
 * Companies by id, in the order of `ids` (unknown ids are left out), each with its
 * `legal_entities` core and the requested sections, read in one statement.
 */
export async function readLegalEntities(
  db: Db,
  reference: Reference,
  ids: number[],
  options: ReadOptions,
): Promise<LegalEntityItem[]> {
  if (ids.length === 0) return [];
  const wants = (s: LegalEntitySection) => options.sections.has(s);
  // The statuses always (the core's chosen status); the other parts when their section is asked for.
  const parts: ApiPart[] = [
    statusesPart,
    ...SECTION_PARTS.filter(([section]) => wants(section)).map(([, part]) => part),
  ];
  // The parts not asked for are absent, and never looked at.
  const companies: Company[] = await asOfDay(db, reference, await readCompanies(db, ids, parts), options.asOf);

  const { languageId } = options;
  const link = (list: RefList, id: number): RefLink => {
    const item = list.byId.get(id);
    return { id, uri: item?.uri ?? String(id), name: displayName(item, languageId) };
  };
  const optionalLink = (list: RefList, id: number | null): RefLink | null => (id === null ? null : link(list, id));
  const prefix = options.lang === 'en' ? '' : `/${options.lang}`;

  const core = (row: Company): LegalEntityCore => {
    const jurisdiction = reference.locations.byId.get(row.jurisdiction_id);
    const rows = row.statuses;
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

  const item = (row: Company): LegalEntityItem => {
    const out: LegalEntityItem = { legal_entities: core(row) };
    if (wants('le_names')) {
      out.names = row.names.map((n) => ({
        type: link(reference.nameTypes, n.name_type_id),
        position: n.position,
        name: n.name,
      }));
    }
    if (wants('le_addresses')) {
      out.addresses = row.addresses.map(({ address_type_id, country_id, state_id, ...a }) => {
        const country = optionalLink(reference.locations, country_id);
        return {
          type: link(reference.addressTypes, address_type_id),
          ...a,
          full_address: formatAddress(a, country?.name ?? null),
          country,
          state_location: optionalLink(reference.locations, state_id),
        };
      });
    }
    if (wants('le_dates')) {
      out.dates = row.dates.map((d) => ({ type: link(reference.dateTypes, d.date_type_id), date_full: d.date }));
    }
    if (wants('le_identifiers')) {
      out.identifiers = row.identifiers.map((i) => ({
        type: link(reference.identifierTypes, i.identifier_type_id),
        position: i.position,
        identifier: i.identifier,
      }));
    }
    if (wants('le_industries')) {
      out.industries = row.industries.map((i) => {
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
      out.indicators = row.indicators.map((i) => ({
        type: link(reference.indicatorTypes, i.indicator_type_id),
        value: i.value,
      }));
    }
    if (wants('le_shares')) {
      out.shares = row.shares.map((s) => ({
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
      const spec = row.specifications[0];
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
      out.contacts = visibleContacts(options.unlocked, row.id, row.contacts).map((c) => ({
        type: link(reference.contactTypes, c.contact_type_id),
        position: c.position,
        contact: c.contact,
      }));
    }
    if (wants('le_members')) {
      out.members = row.members.map((m) => ({
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

  return companies.map(item);
}

/** The companies as of a day (each rebuilt, those not there yet left out), or as they are without one. */
async function asOfDay(
  db: Db,
  reference: Reference,
  companies: Company[],
  day: string | undefined,
): Promise<Company[]> {
  if (day === undefined) return companies;
  const history = await readHistoryAfter(
    db,
    companies.map((c) => c.id),
    endOfDay(day),
  );
  return companies.flatMap((c) => {
    const h = history.get(c.id);
    if (h?.notYet) return [];
    return [rebuildCompany(c, h?.changes ?? [], reference)];
  });
}
