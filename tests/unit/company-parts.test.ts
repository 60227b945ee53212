import { describe, expect, it } from 'vitest';
import { formatAddress } from '../../core/companies/parts/addresses.ts';
import { COMPANY_PARTS } from '../../core/companies/parts/company-parts.ts';

const none = {
  address_line_1: null,
  address_line_2: null,
  block: null,
  building: null,
  city_district: null,
  county: null,
  floor: null,
  house: null,
  locality: null,
  post_code: null,
  room: null,
  state: null,
  street: null,
};

describe('formatAddress', () => {
  it('writes the address lines once, without the street parts they already hold', () => {
    // The seed (and registries) give both the lines and their parts: the export once wrote
    // "480 Madison Drive, Unit 1593, Madison Drive 480, Unit 1593, …".
    const address = {
      ...none,
      address_line_1: '480 Madison Drive',
      address_line_2: 'Unit 1593',
      street: 'Madison Drive',
      house: '480',
      room: 'Unit 1593',
      post_code: '10022',
      locality: 'New York',
      state: 'NY',
    };
    expect(formatAddress(address, 'United States')).toBe(
      '480 Madison Drive, Unit 1593, 10022 New York, NY, United States',
    );
  });

  it('writes the street parts when there are no lines, and skips what is empty', () => {
    const address = { ...none, street: 'Hauptstraße', house: '5', floor: ' ', post_code: '10115', locality: 'Berlin' };
    expect(formatAddress(address, null)).toBe('Hauptstraße 5, 10115 Berlin');
    expect(formatAddress(none, null)).toBe('');
  });
});

describe('the company parts', () => {
  it('are declared under their own key, each with a table and its fields', () => {
    for (const [key, part] of Object.entries(COMPANY_PARTS)) {
      expect(part.key).toBe(key);
      expect(part.table).toMatch(/^[a-z_]+$/);
      expect(part.fields.length).toBeGreaterThan(0);
    }
  });

  it('turn the read value arrays into rows of their fields (JSON text as PGlite may hand it, or parsed)', () => {
    const { names } = COMPANY_PARTS;
    const rows = [
      { name_type_id: 2, position: 0, name: 'Acme' },
      { name_type_id: 3, position: 1, name: 'Acme Old' },
    ];
    expect(names.rows('[[2,0,"Acme"],[3,1,"Acme Old"]]')).toEqual(rows);
    expect(
      names.rows([
        [2, 0, 'Acme'],
        [3, 1, 'Acme Old'],
      ]),
    ).toEqual(rows);
    expect(names.rows(null)).toEqual([]);
  });

  it('pick the fields a reader needs: the same part, reading and making only those', () => {
    const { members } = COMPANY_PARTS;
    const picked = members.pick('member_id', 'name');
    expect(picked.key).toBe('members');
    expect(picked.table).toBe(members.table);
    expect(picked.fields).toEqual(['member_id', 'name']);
    expect(picked.rows([[7, 'Ada Lovelace']])).toEqual([{ member_id: 7, name: 'Ada Lovelace' }]);
    expect(members.fields.length).toBeGreaterThan(2);
  });
});
