import type { Generated } from 'kysely';

// Table types for Kysely, mirroring db/migrations. Dates are 'YYYY-MM-DD' strings, numeric is string.

type RefTable = { id: number; uri: string };

export type Database = {
  languages: RefTable & { code: string };
  translations: {
    entity: string;
    entity_id: number;
    language_id: number;
    name: string;
    name_full: string | null;
    name_short: string | null;
  };
  location_types: RefTable;
  locations: RefTable & {
    location_type_id: number;
    country_code: string;
    subdivision_code: string | null;
    parent_id: number | null;
    flag_location_id: number;
  };
  location_aliases: { location_id: number; alias: string };
  industries: RefTable & { code: string; level: number; parent_id: number | null };
  currencies: RefTable & { code: string; numeric_code: string | null; minor_unit: number | null };
  legal_entity_kinds: RefTable;
  sizes: RefTable;
  statuses: RefTable;
  employee_ranges: RefTable & { min_employees: number; max_employees: number | null };
  name_types: RefTable;
  address_types: RefTable;
  date_types: RefTable;
  identifier_types: RefTable;
  indicator_types: RefTable;
  contact_types: RefTable;
  positions: RefTable;

  legal_entities: {
    id: number;
    uri: string;
    name: string;
    search_name: string;
    name_tsv: Generated<string>;
    jurisdiction_id: number;
    kind_id: number | null;
    size_id: number | null;
    employees_id: number | null;
    status_id: number | null;
    primary_industry_id: number | null;
    registered_on: string | null;
    registration_sort: Generated<string>;
  };
  name_words: { word: string; documents: number };
  legal_entity_statuses: { legal_entity_id: number; position: number; status_id: number };
  legal_entity_names: { legal_entity_id: number; name_type_id: number; position: number; name: string };
  legal_entity_addresses: {
    legal_entity_id: number;
    address_type_id: number;
    position: number;
    address_line_1: string | null;
    address_line_2: string | null;
    block: string | null;
    building: string | null;
    city_district: string | null;
    country_id: number | null;
    county: string | null;
    floor: string | null;
    house: string | null;
    locality: string | null;
    post_code: string | null;
    room: string | null;
    state: string | null;
    state_id: number | null;
    street: string | null;
  };
  legal_entity_dates: { legal_entity_id: number; date_type_id: number; date: string };
  legal_entity_identifiers: {
    legal_entity_id: number;
    identifier_type_id: number;
    position: number;
    identifier: string;
  };
  legal_entity_indicators: { legal_entity_id: number; indicator_type_id: number; value: boolean };
  legal_entity_industries: {
    legal_entity_id: number;
    industry_id: number;
    is_primary: boolean;
    is_secondary: boolean;
    is_licensed: boolean;
    is_unlicensed: boolean;
  };
  legal_entity_shares: {
    legal_entity_id: number;
    position: number;
    kind: 'authorized' | 'paid_up' | 'share';
    type: 'ordinary' | 'preference';
    total_price: string | null;
    currency_id: number | null;
  };
  legal_entity_specifications: {
    legal_entity_id: number;
    members_count: number | null;
    officers_count: number | null;
    partners_count: number | null;
  };
  legal_entity_contacts: { legal_entity_id: number; contact_type_id: number; position: number; contact: string };
  members: {
    id: number;
    name_type: 'legal_entity' | 'individual' | 'authority' | 'mixed';
    name: string;
    first_name: string | null;
    middle_name: string | null;
    last_name: string | null;
    postfix: string | null;
    legal_entity_id: number | null;
    country_id: number | null;
  };
  member_contacts: { member_id: number; contact_type_id: number; contact: string };
  legal_entity_members: { legal_entity_id: number; member_id: number; position_id: number; since: string | null };
};
