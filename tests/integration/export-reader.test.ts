import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLegalEntities } from '../../core/api/read-legal-entities.ts';
import { COMPANY_EXPORT_SECTIONS } from '../../core/export/export-options.ts';
import { type CompanyExportData, type ExportAddress, readCompanyRows } from '../../core/export/read-company-rows.ts';
import { EVERYTHING_UNLOCKED } from '../../core/purchases/paywall.ts';
import { displayName } from '../../core/reference/reference-data.ts';
import { openTestDatabase } from '../support/test-database.ts';

// The export's own batch reader (core/export/read-company-rows.ts) reads what the data API's
// reader (core/api/read-legal-entities.ts) reads for the same companies — the same values in the
// same order — plus the export's extra parts; so that an export's cells stay what they were when
// the export was built on the data API's reader (docs/decisions/0008-export.md "Reader").

let db: Awaited<ReturnType<typeof openTestDatabase>>['db'];
let reference: Awaited<ReturnType<typeof openTestDatabase>>['reference'];
let ids: number[];

beforeAll(async () => {
  ({ db, reference } = await openTestDatabase());
  // Companies with members (and so member companies, contacts and countries) first, then the rest, mixed.
  const rows = await db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(400).execute();
  const withMembers = await db.kysely
    .selectFrom('legal_entity_members')
    .select('legal_entity_id')
    .distinct()
    .orderBy('legal_entity_id', 'desc')
    .limit(100)
    .execute();
  ids = [...new Set([...withMembers.map((m) => m.legal_entity_id), ...rows.map((r) => r.id)])].reverse();
  ids.push(-1); // unknown: left out
});
afterAll(() => db?.close());

const byType = <T>(rows: T[], type: (row: T) => number, value: (row: T) => string) => {
  const map = new Map<number, string[]>();
  for (const row of rows) map.set(type(row), [...(map.get(type(row)) ?? []), value(row)]);
  return map;
};

describe('the export reader', () => {
  it('reads the data API reader’s companies and parts, in the same order', async () => {
    const languageId = reference.languageIds.de;
    const [actual, items] = await Promise.all([
      readCompanyRows(db, reference, ids, COMPANY_EXPORT_SECTIONS, languageId, EVERYTHING_UNLOCKED),
      readLegalEntities(db, reference, ids, {
        sections: new Set([
          'le_legal_entities',
          'le_contacts',
          'le_addresses',
          'le_dates',
          'le_indicators',
          'le_identifiers',
          'le_names',
          'le_specifications',
          'le_statuses',
          'le_industries',
          'le_members',
        ]),
        languageId,
        lang: 'de',
        unlocked: EVERYTHING_UNLOCKED,
      }),
    ]);
    expect(actual.map((c) => c.id)).toEqual(items.map((i) => i.legal_entities.id));
    expect(items.length).toBe(ids.length - 1);
    let members = 0;
    let addresses = 0;
    for (const [n, item] of items.entries()) {
      const e = item.legal_entities;
      const expectedAddresses = new Map<number, ExportAddress[]>();
      const expected: Omit<CompanyExportData, 'products' | 'registers'> = {
        id: e.id,
        name: e.name,
        statusName: e.status_name,
        jurisdictionName: e.registry_location_name,
        sizeName: e.types_by_size?.type_by_size_name ?? null,
        employeesName: e.employees_number?.name ?? null,
        statuses: (item.statuses ?? []).map((s) => s.status_name ?? ''),
        names: byType(
          item.names ?? [],
          (x) => x.type.id,
          (x) => x.name,
        ),
        addresses: expectedAddresses,
        dates: new Map((item.dates ?? []).map((d) => [d.type.id, d.date_full])),
        identifiers: byType(
          item.identifiers ?? [],
          (x) => x.type.id,
          (x) => x.identifier,
        ),
        contacts: byType(
          item.contacts ?? [],
          (x) => x.type.id,
          (x) => x.contact,
        ),
        indicators: new Map((item.indicators ?? []).map((i) => [i.type.id, i.value])),
        specifications: item.specifications ?? null,
        industries: (item.industries ?? []).map((i) => ({
          code: i.code,
          name: i.name,
          primary: i.industry_indicators.some((x) => x.type === 'is_primary'),
        })),
        members: [],
      };
      for (const a of item.addresses ?? []) {
        const list = expectedAddresses.get(a.type.id) ?? [];
        list.push({
          full: a.full_address,
          locality: a.locality,
          post_code: a.post_code,
          country: a.country?.name ?? null,
        });
        expectedAddresses.set(a.type.id, list);
        addresses += 1;
      }
      const { products: _p, registers: _r, members: got, ...rest } = actual[n];
      const { members: _m, ...wanted } = expected;
      expect(rest).toEqual(wanted);
      expect(got.map((m) => [m.name, m.position, m.company])).toEqual(
        (item.members ?? []).map((m) => [m.name, m.position.name, m.company?.name ?? null]),
      );
      members += got.length;
    }
    // The sample exercises the parts.
    expect(members).toBeGreaterThan(50);
    expect(addresses).toBeGreaterThan(50);
  });

  it('reads products, registers and members’ contacts and countries in their export order', async () => {
    const languageId = reference.languageIds.en;
    const actual = await readCompanyRows(db, reference, ids, COMPANY_EXPORT_SECTIONS, languageId, EVERYTHING_UNLOCKED);
    const known = ids.filter((id) => id > 0);
    const k = db.kysely;
    const [products, registers, memberRows] = await Promise.all([
      k
        .selectFrom('products')
        .select(['legal_entity_id', 'name'])
        .where('legal_entity_id', 'in', known)
        .orderBy('legal_entity_id')
        .orderBy('name')
        .orderBy('id')
        .execute(),
      k
        .selectFrom('registers')
        .select(['legal_entity_id', 'authority', 'register_name', 'register_number'])
        .where('legal_entity_id', 'in', known)
        .orderBy('legal_entity_id')
        .orderBy('entry_date')
        .orderBy('id')
        .execute(),
      k
        .selectFrom('legal_entity_members as lem')
        .innerJoin('members as m', 'm.id', 'lem.member_id')
        .select(['lem.legal_entity_id', 'm.id', 'm.country_id'])
        .where('lem.legal_entity_id', 'in', known)
        .orderBy('lem.legal_entity_id')
        .orderBy('lem.position_id')
        .orderBy('m.name')
        .orderBy('lem.member_id')
        .execute(),
    ]);
    const contacts = await k
      .selectFrom('member_contacts')
      .select(['member_id', 'contact'])
      .where(
        'member_id',
        'in',
        memberRows.map((m) => m.id),
      )
      .orderBy('member_id')
      .orderBy('contact_type_id')
      .execute();
    const of = <T extends { legal_entity_id: number }>(rows: T[], id: number) =>
      rows.filter((r) => r.legal_entity_id === id);
    let withContacts = 0;
    for (const company of actual) {
      expect(company.products).toEqual(of(products, company.id).map((p) => p.name));
      expect(company.registers.map((r) => [r.authority, r.name, r.number])).toEqual(
        of(registers, company.id).map((r) => [r.authority, r.register_name, r.register_number]),
      );
      const members = of(memberRows, company.id);
      expect(company.members.map((m) => m.country)).toEqual(
        members.map((m) => {
          const location = m.country_id === null ? undefined : reference.locations.byId.get(m.country_id);
          return location ? displayName(location, languageId) : null;
        }),
      );
      expect(company.members.map((m) => m.contacts)).toEqual(
        members.map((m) => contacts.filter((c) => c.member_id === m.id).map((c) => c.contact)),
      );
      withContacts += company.members.filter((m) => m.contacts.length > 0).length;
    }
    expect(products.length).toBeGreaterThan(0);
    expect(registers.length).toBeGreaterThan(0);
    expect(withContacts).toBeGreaterThan(0);
  });
});
