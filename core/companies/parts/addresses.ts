import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { ADDRESS_PARTS } from '../../sections/section.ts';
import { definePart } from './company-part.ts';

export type AddressRow = Omit<Database['legal_entity_addresses'], 'legal_entity_id'>;

/** A company's addresses, by address type, then position. */
export const addressesPart = definePart<AddressRow>()({
  key: 'addresses',
  table: 'legal_entity_addresses',
  fields: ['address_type_id', 'position', ...ADDRESS_PARTS, 'country_id', 'state_id'],
  order: 'x.address_type_id, x.position',
});

type AddressText = Pick<AddressRow, (typeof ADDRESS_PARTS)[number]>;

/**
 * An address on one line, the one way every reader writes it: the address lines when given (they
 * already hold the street and house), else the street parts; then post code and locality, county,
 * state and country.
 */
export function formatAddress(a: AddressText, countryName: string | null): string {
  const street = joinGiven([a.address_line_1, a.address_line_2], ', ');
  const lines =
    street !== ''
      ? street
      : joinGiven([joinGiven([a.street, a.house], ' '), a.building, a.block, a.floor, a.room, a.city_district], ', ');
  return joinGiven([lines, joinGiven([a.post_code, a.locality], ' '), a.county, a.state, countryName], ', ');
}

/** The parts given (neither null nor blank) joined by `separator`; '' when none (an export formats one per address). */
function joinGiven(parts: readonly (string | null)[], separator: string): string {
  let out = '';
  for (const part of parts) {
    if (part !== null && part.trim() !== '') out = out === '' ? part : `${out}${separator}${part}`;
  }
  return out;
}

/**
 * The address types a company's own address is read from, the most telling first (the profile
 * summary's order): registered seat, headquarters, physical, postal.
 */
export const OWN_ADDRESS_TYPES = ['registered', 'headquarter', 'physical', 'postal'] as const;

/**
 * The town of the company `alias.id` (the locality of its own address, OWN_ADDRESS_TYPES first), as
 * a select expression: one read of the addresses' primary key a row, as the company number is.
 */
export function townOf(alias: string): RawBuilder<string | null> {
  return sql<string | null>`(select a.locality from legal_entity_addresses a
    join address_types t on t.id = a.address_type_id
    where a.legal_entity_id = ${sql.ref(`${alias}.id`)} and a.locality is not null
    order by array_position(${[...OWN_ADDRESS_TYPES]}::text[], t.uri), a.position limit 1)`;
}
