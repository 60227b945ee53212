import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegalEntitiesResponseSchema } from '../../core/api/legal-entity-schemas.ts';
import { identifierKey, identifierKeySql } from '../../core/identifiers/normalize-identifier.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { displayName } from '../../core/reference/reference-data.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// Identifiers in the one box (ADR 0002 "Identifiers"): the companies search (page and
// JSON API) and suggest find a company by every identifier it holds, as people paste them —
// the real registry fixtures' numbers, LEIs, CIK and VAT number, and the demo companies' ones.

let t: TestApp;
/** Company ids by what they are. */
const ids: Record<string, number> = {};
/** A demo company's identifiers of one kind, unique in the database. */
const demo: Record<string, { id: number; identifier: string }> = {};

async function idByKey(scheme: string, key: string) {
  const row = await t.db.kysely
    .selectFrom('company_keys')
    .select('legal_entity_id')
    .where('scheme', '=', scheme)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.legal_entity_id);
}

/** A demo company holding an identifier of this type and shape whose number no other identifier has. */
async function demoCompany(typeId: number, like: string) {
  const rows = await sql<{ id: string; identifier: string }>`
    select i.legal_entity_id as id, i.identifier from legal_entity_identifiers i
    where i.identifier_type_id = ${typeId} and i.identifier like ${like}
      and (select count(*) from legal_entity_identifiers o where ${identifierKeySql('o.identifier')} = ${identifierKeySql('i.identifier')}) = 1
    order by i.legal_entity_id limit 1`.execute(t.db.kysely);
  const [row] = rows.rows;
  if (!row) throw new Error(`no demo company with an identifier like ${like}`);
  return { id: Number(row.id), identifier: row.identifier };
}

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  const fixture = (path: string) => join(REGISTRY_FIXTURES, path);
  for (const [source, path] of [
    ['gleif-lei', 'gleif/lei-cdf-2.1.top10.xml'],
    ['ch-companies', 'companies-house/basic-company-data.first12.csv'],
    ['sec-submissions', 'sec/CIK0001318605.json'],
    ['brreg-units', 'brreg/enhet-923609016.json'],
  ] as const) {
    await runImport(t.db, IMPORT_SOURCES[source], [fixture(path)]);
  }
  ids.obac = await idByKey('register', 'GB/RA000585/07687209');
  ids.nspired = await idByKey('register', 'GB/RA000585/SC606050');
  ids.tesla = await idByKey('sec-cik', '0001318605');
  ids.equinor = await idByKey('register', 'NO/RA000472/923609016');
  ids.afrinvest = await idByKey('lei', '029200013A5N6ZD0F605');
  demo.hrb = await demoCompany(2, 'HRB %');
  demo.gb = await demoCompany(2, '0_______');
  demo.vat = await demoCompany(4, 'DE%');
}, 120_000);
afterAll(() => t?.close());

async function apiSearch(q: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/site/data/v1/legal_entities?q=${encodeURIComponent(q)}`,
  });
  expect(response.statusCode, q).toBe(200);
  const body = LegalEntitiesResponseSchema.parse(response.json());
  return {
    ids: body.data.map((item) => item.legal_entities.id),
    jurisdictions: body.data.map((item) => item.legal_entities.jurisdiction.countryCode),
    total: body.meta.total,
  };
}

async function suggested(q: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/suggest?q=${encodeURIComponent(q)}` });
  expect(response.statusCode, q).toBe(200);
  return response.json().data.companies as { label: string; url: string; detail?: string }[];
}

async function uriOf(id: number) {
  const row = await t.db.kysely
    .selectFrom('legal_entities')
    .select('uri')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.uri;
}

/** The JSON API and suggest both give this company first for every form typed. */
async function expectFirst(id: number, forms: string[]) {
  const path = `/companies/details/${await uriOf(id)}/`;
  for (const form of forms) {
    expect((await apiSearch(form)).ids[0], `API: ${form}`).toBe(id);
    expect((await suggested(form))[0]?.url, `suggest: ${form}`).toBe(path);
  }
}

describe('the search and suggest find a company by what is pasted', () => {
  it('company numbers with or without leading zeros, spaces or the register’s letters (Companies House)', async () => {
    await expectFirst(ids.obac, ['07687209', '7687209', '0768 7209']);
    await expectFirst(ids.nspired, ['SC606050', 'sc 606050']);
    // Without "SC" the number may be another register's too: the company is among those found.
    expect((await apiSearch('606050')).ids).toContain(ids.nspired);
  });

  it('LEIs in any case, and the register number GLEIF gives', async () => {
    await expectFirst(ids.afrinvest, ['029200013A5N6ZD0F605', '029200013a5n6zd0f605', '0292 0001 3A5N 6ZD0 F605']);
    await expectFirst(ids.afrinvest, ['RC603315', 'rc 603315']);
  });

  it('SEC CIKs with or without leading zeros, and the EIN', async () => {
    await expectFirst(ids.tesla, ['1318605', '0001318605', 'CIK0001318605', '91-2197729']);
  });

  it('Norwegian organisation numbers with spaces, and the VAT number with or without NO and MVA', async () => {
    await expectFirst(ids.equinor, ['923609016', '923 609 016', 'NO923609016MVA', 'NO 923 609 016 MVA']);
  });

  it('demo companies’ German register numbers, British numbers without their zeros, VAT numbers', async () => {
    const hrb = demo.hrb.identifier;
    await expectFirst(demo.hrb.id, [hrb, hrb.replace(/\s+/g, ''), hrb.toLowerCase()]);
    const gb = demo.gb.identifier;
    await expectFirst(demo.gb.id, [gb, gb.replace(/^0+/, '')]);
    const vat = demo.vat.identifier;
    const spaced = `${vat.slice(0, 2)} ${vat.slice(2, 5)}.${vat.slice(5, 8)}.${vat.slice(8)}`;
    await expectFirst(demo.vat.id, [vat, spaced, vat.slice(2)]);
  });

  it('suggest says the jurisdiction and the identifier found', async () => {
    const [first] = await suggested('923 609 016');
    expect(first).toMatchObject({ label: 'EQUINOR ASA', detail: 'Norway · 923609016' });
  });

  it('shows every company sharing a number across registers, with its jurisdiction', async () => {
    // A company in another jurisdiction registered under the same number, written without the zero.
    const other = await sql<{ id: string }>`
      select b.id from legal_entities b join locations l on l.id = b.jurisdiction_id
      where l.country_code <> 'GB' order by b.id limit 1`.execute(t.db.kysely);
    const otherId = Number(other.rows[0].id);
    await sql`update legal_entity_identifiers set identifier = '7687209'
      where legal_entity_id = ${otherId} and identifier_type_id = 2`.execute(t.db.kysely);
    {
      const found = await apiSearch('07687209');
      expect(found.ids.slice(0, 2).sort()).toEqual([ids.obac, otherId].sort());
      expect(found.total).toBe(2);
      expect(new Set(found.jurisdictions.slice(0, 2)).size).toBe(2);
      expect(found.jurisdictions).toContain('GB');
      const suggestions = await suggested('07687209');
      expect(
        suggestions
          .slice(0, 2)
          .map((s) => s.detail?.split(' · ')[0])
          .sort(),
      ).toEqual(await jurisdictionNames([ids.obac, otherId]));
      // The page lists both, with their jurisdictions, rather than opening one.
      const page = await t.app.inject({ method: 'GET', url: '/companies/search/?q=07687209' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('!OBAC UK LIMITED');
      for (const name of await jurisdictionNames([ids.obac, otherId])) expect(page.body).toContain(name);
    }
  });

  it('opens the profile when the query is exactly an identifier one company holds', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: `/companies/search/?q=${encodeURIComponent('923 609 016')}`,
    });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`/companies/details/${await uriOf(ids.equinor)}/`);
    // Not with a filter set, nor for a number found without the register's letters.
    const filtered = await t.app.inject({ method: 'GET', url: '/companies/search/?q=923609016&status=1' });
    expect(filtered.statusCode).toBe(200);
    const partial = await t.app.inject({ method: 'GET', url: '/companies/search/?q=606050' });
    expect(partial.statusCode).toBe(200);
    // The company holding the number is the page's first result.
    const firstProfile = /href="(\/companies\/details\/[^"]+)"/.exec(partial.body)?.[1];
    expect(firstProfile).toBe(`/companies/details/${await uriOf(ids.nspired)}/`);
  });

  it('leaves name searches as they were', async () => {
    const { ids: found } = await apiSearch('Equinor');
    expect(found).toContain(ids.equinor);
    expect(await suggested('EQUINOR')).toEqual([expect.objectContaining({ label: 'EQUINOR ASA', detail: 'Norway' })]);
  });
});

describe('the identifier key', () => {
  it('is the same in SQL (the index of migration 0030) as in code', async () => {
    const samples = [
      'HRB 20326 B',
      '00390616',
      'SC312961',
      'NO923609016MVA',
      'HWUPKR0MPOU8FGXBT394',
      'ABC',
      '000',
      'FN 123456a',
      'x-0-y',
    ];
    const rows = await sql<{ value: string; key: string }>`
      select v.value, ${identifierKeySql('v.value')} as key from unnest(${samples}::text[]) as v(value)`.execute(
      t.db.kysely,
    );
    for (const row of rows.rows) expect(row.key, row.value).toBe(identifierKey(row.value));
  });
});

async function jurisdictionNames(companyIds: number[]) {
  const rows = await t.db.kysely
    .selectFrom('legal_entities')
    .select('jurisdiction_id')
    .where('id', 'in', companyIds)
    .execute();
  return rows.map((r) => displayName(t.reference.locations.byId.get(r.jurisdiction_id))).sort();
}
