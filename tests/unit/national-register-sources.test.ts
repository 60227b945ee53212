import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type CompanyFacts, companyFactsSchema, type ImportItem } from '../../core/imports/company-facts.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';

// The national registers' sources map their files onto CompanyFacts (docs/decisions/0016-national-registers.md):
// every item the framework will get is valid against its schema, with the fields the ADR lists.

const source = (name: string) => {
  const found = IMPORT_SOURCES[name];
  if (!found) throw new Error(name);
  return found;
};

async function itemsOf(name: string, path: string, fileName = path): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of source(name).read(createReadStream(path), { name: fileName })) items.push(item);
  return items;
}

function companies(items: ImportItem[]): CompanyFacts[] {
  return items.flatMap((item) => {
    if (item.kind !== 'company') return [];
    const parsed = companyFactsSchema.safeParse(item.facts);
    expect(parsed.error).toBeUndefined();
    return [item.facts];
  });
}

const CH = join(REGISTRY_FIXTURES, 'companies-house/basic-company-data.first12.csv');

describe('ch-companies', () => {
  it('maps each row onto a Companies House company in GB', async () => {
    const items = await itemsOf('ch-companies', CH, '/data/BasicCompanyData-2021-02-01-part1_6.csv');
    const facts = companies(items);
    expect(facts).toHaveLength(12);
    const renamed = facts.find((f) => f.identifiers?.company_number === '07687209');
    expect(renamed).toEqual({
      keys: { register: { jurisdiction: 'GB', authority: 'RA000585', number: '07687209' } },
      sourceDate: '2021-02-01T00:00:00Z',
      name: '!OBAC UK LIMITED',
      otherNames: [{ name: '!OBAC FITTINGS LIMITED', type: 'previous', language: 'en', until: '2011-07-15' }],
      addresses: {
        legal: {
          lines: ['UNIT 9   BERRY COURT FARM BRAMLEY ROAD', 'LITTLE LONDON'],
          city: 'TADLEY',
          region: 'HAMPSHIRE',
          postCode: 'RG26 5AT',
          country: 'GB',
        },
      },
      jurisdiction: 'GB',
      legalForm: { elfCode: null, other: 'Private Limited Company' },
      status: 'active',
      registeredOn: '2011-06-29',
      dissolvedOn: null,
      dates: { accounts: '2021-09-29', annual_report: '2021-07-13' },
      identifiers: { company_number: '07687209' },
      registrationAuthority: { id: 'RA000585', number: '07687209' },
      industries: [{ scheme: 'uk-sic-2007', code: '70229', primary: true }],
    });
    const guernsey = facts.find((f) => f.identifiers?.company_number === 'FC031362');
    expect(guernsey?.addresses?.legal?.country).toBe('GG');
    expect(guernsey?.industries).toEqual([]);
  });

  it('rejects an unknown status with the line number', async () => {
    const text = readFileSync(CH, 'utf8').replace(
      '"Active","United Kingdom","","11/09/2012"',
      '"Sleeping","United Kingdom","","11/09/2012"',
    );
    const items: ImportItem[] = [];
    for await (const item of source('ch-companies').read(Readable.from([text]), { name: 'x.csv' })) items.push(item);
    expect(items.filter((i) => i.kind === 'reject')).toEqual([
      { kind: 'reject', at: 3, reason: 'CompanyStatus: "Sleeping" is not a Companies House status' },
    ]);
  });
});

describe('ch-psc', () => {
  it("gathers a company's persons into its members, shareholders with their natures of control", async () => {
    const items = await itemsOf('ch-psc', join(REGISTRY_FIXTURES, 'companies-house/psc-snapshot.sample.jsonl'));
    const facts = companies(items);
    expect(items.map((i) => i.at)).toEqual([1, 3, 4]);
    expect(facts[0]).toEqual({
      keys: { register: { jurisdiction: 'GB', authority: 'RA000585', number: '08209948' } },
      sourceDate: null,
      members: [
        {
          name: 'Marc Anthony Feldman',
          kind: 'individual',
          position: 'shareholder',
          since: '2021-12-13',
          country: 'GB',
          natures: ['ownership-of-shares-75-to-100-percent'],
          // The register's month and year of birth, which tell namesakes apart (ADR 0022).
          born: { month: 12, year: 1961 },
        },
      ],
    });
    expect(facts[1].members?.[0]).toMatchObject({
      name: 'Robert Hitchins Limited',
      kind: 'legal_entity',
      keys: { register: { jurisdiction: 'GB', authority: 'RA000585', number: '00686734' } },
      natures: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
    });
  });
});

describe('sec-submissions', () => {
  it('maps a filer: CIK key, Delaware, EIN, SIC, tickers, former names, filings as documents', async () => {
    const path = join(REGISTRY_FIXTURES, 'sec/CIK0001318605.json');
    const [tesla] = companies(await itemsOf('sec-submissions', path));
    expect(tesla).toMatchObject({
      keys: { others: [{ scheme: 'sec-cik', key: '0001318605' }] },
      sourceDate: '2022-11-30T00:00:00Z',
      name: 'Tesla, Inc.',
      otherNames: [{ name: 'TESLA MOTORS INC', type: 'previous', language: 'en', until: '2017-01-27' }],
      addresses: {
        headquarters: {
          lines: ['3500 DEER CREEK RD'],
          city: 'PALO ALTO',
          region: 'US-CA',
          postCode: '94304',
          country: 'US',
        },
      },
      jurisdiction: 'US-DE',
      identifiers: { tax_number: '91-2197729' },
      industries: [{ scheme: 'us-sic', code: '3711', primary: true }],
      tickers: ['TSLA'],
    });
    expect(tesla.documents).toHaveLength(1001);
    expect(tesla.documents?.[0]).toEqual({
      id: '0001790565-22-000015',
      title: 'PRIMARY DOCUMENT',
      type: '4',
      filedOn: '2022-11-30',
    });
  });

  it("passes over the bulk archive's pages of older filings", async () => {
    const page = join(REGISTRY_FIXTURES, 'sec/CIK0001318605.json');
    expect(await itemsOf('sec-submissions', page, 'CIK0001318605-submissions-001.json')).toEqual([]);
  });
});

describe('brreg-units and brreg-roles', () => {
  it('maps a unit onto a Norwegian company', async () => {
    const [equinor] = companies(await itemsOf('brreg-units', join(REGISTRY_FIXTURES, 'brreg/enhet-923609016.json')));
    expect(equinor).toEqual({
      keys: { register: { jurisdiction: 'NO', authority: 'RA000472', number: '923609016' } },
      sourceDate: null,
      name: 'EQUINOR ASA',
      addresses: {
        legal: { lines: ['Forusbeen 50'], city: 'STAVANGER', region: null, postCode: '4035', country: 'NO' },
        postal: { lines: ['Postboks 8500'], city: 'STAVANGER', region: null, postCode: '4035', country: 'NO' },
      },
      jurisdiction: 'NO',
      legalForm: { elfCode: null, other: 'Allmennaksjeselskap' },
      status: 'active',
      registeredOn: '1972-09-18',
      dissolvedOn: null,
      identifiers: { company_number: '923609016', vat: 'NO923609016MVA' },
      registrationAuthority: { id: 'RA000472', number: '923609016' },
      industries: [
        { scheme: 'sn2007', code: '06.100', primary: true },
        { scheme: 'sn2007', code: '06.200', primary: false },
        { scheme: 'sn2007', code: '19.200', primary: false },
      ],
    });
  });

  it("maps a unit's roles onto members; deputies and the auditor hold no seat", async () => {
    const [roles] = companies(await itemsOf('brreg-roles', join(REGISTRY_FIXTURES, 'brreg/roller-923609016.json')));
    expect(roles.keys.register?.number).toBe('923609016');
    expect(roles.sourceDate).toBe('2026-02-17T00:00:00Z');
    const members = roles.members ?? [];
    expect(members.filter((m) => m.position === 'officer').map((m) => m.name)).toEqual(['Anders Opedal']);
    // Born 1968-05-04 in the register: the month and year are kept, never the day.
    expect(members.find((m) => m.name === 'Anders Opedal')?.born).toEqual({ month: 5, year: 1968 });
    expect(members.filter((m) => m.position === 'president').map((m) => m.name)).toEqual(['Jon Erik Reinhardsen']);
    expect(members.filter((m) => m.position === 'director')).toHaveLength(10);
    expect(members.map((m) => m.name)).toContain('Finn Bj<U+00F8>rn Ruyter');
    expect(members.map((m) => m.name)).not.toContain('ERNST & YOUNG AS');
    expect(members.map((m) => m.name)).not.toContain('Hans Einar Haldorsen');
  });
});
