import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../../core/imports/source-rows.ts';
import { readBrregRoles } from '../../core/imports/sources/brreg/read-roles.ts';
import { readBrregUnits } from '../../core/imports/sources/brreg/read-units.ts';
import { readBasicCompanyData } from '../../core/imports/sources/companies-house/read-basic-company-data.ts';
import { readPscSnapshot } from '../../core/imports/sources/companies-house/read-psc-snapshot.ts';
import { readSecSubmission } from '../../core/imports/sources/sec/read-submissions.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';

// The national registers' readers (ADR 0016) on the real fixture files as they are, and on
// variations of them that real files also show.

const FIXTURES = REGISTRY_FIXTURES;
const CH_FILE = join(FIXTURES, 'companies-house/basic-company-data.first12.csv');
const PSC_FILE = join(FIXTURES, 'companies-house/psc-snapshot.sample.jsonl');
const SEC_FILE = join(FIXTURES, 'sec/CIK0001318605.json');
const UNIT_FILE = join(FIXTURES, 'brreg/enhet-923609016.json');
const ROLES_FILE = join(FIXTURES, 'brreg/roller-923609016.json');

async function all<T>(rows: AsyncIterable<SourceRow<T>>) {
  const out: SourceRow<T>[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

function rowsOf<T>(rows: SourceRow<T>[]): T[] {
  return rows.flatMap((row) => (row.kind === 'row' ? [row.row] : []));
}

const text = (value: string) => Readable.from([value]);

describe('Companies House BasicCompanyData', () => {
  const raw = readFileSync(CH_FILE, 'utf8');
  const [headerLine, ...bodyLines] = raw.split('\n').filter((line) => line !== '');

  it('the fixture shows the quirks the reader handles', () => {
    expect(headerLine).toContain(' CompanyNumber'); // header names with a leading space
    expect(headerLine).toContain(' PreviousName_1.CompanyName');
    expect(bodyLines.every((line) => line.startsWith('"') && line.endsWith('"'))).toBe(true); // every value quoted
    expect(raw).toContain('"None Supplied"');
  });

  it('reads every company by header name, with DD/MM/YYYY dates, SIC codes and previous names', async () => {
    const rows = await all(readBasicCompanyData(createReadStream(CH_FILE)));
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.kind === 'row')).toBe(true);
    const companies = rowsOf(rows);
    expect(companies.map((c) => c.companyNumber)).toContain('SC606050');
    const first = companies[0];
    expect(rows[0].line).toBe(2);
    expect(first).toMatchObject({
      companyNumber: '12778855',
      name: '! LIMITED',
      registeredAddress: { addressLine1: 'UNIT 3 NEWTON BUSINESS CENTRE', postTown: 'SHEFFIELD', postCode: 'S35 2PH' },
      category: 'Private Limited Company',
      status: 'Active',
      incorporatedOn: '2020-07-29',
      accounts: { referenceDay: 31, referenceMonth: 7, nextDueOn: '2022-04-29', lastMadeUpTo: null },
      confirmationStatement: { nextDueOn: '2021-08-11', lastMadeUpTo: null },
      sicCodes: [{ code: '78300', text: 'Human resources provision and management of human resources functions' }],
      previousNames: [],
    });
    const graphics = companies.find((c) => c.companyNumber === '11743365');
    expect(graphics?.sicCodes.map((s) => s.code)).toEqual(['18129', '59112', '63120', '74201']);
    const obac = companies.find((c) => c.companyNumber === 'FC031362');
    expect(obac?.sicCodes).toEqual([]); // "None Supplied"
    expect(obac?.accounts.nextDueOn).toBeNull(); // "" is absent, not a date
    const renamed = companies.find((c) => c.companyNumber === '07687209');
    expect(renamed?.previousNames).toEqual([{ name: '!OBAC FITTINGS LIMITED', changedOn: '2011-07-15' }]);
  });

  it('maps by name, not position: reordered columns read the same', async () => {
    const split = (line: string) => line.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)?.map((f) => f.replace(/,$/, '')) ?? [];
    const header = headerLine.split(',');
    const row = split(bodyLines[0]).slice(0, header.length);
    const order = header.map((_, i) => i).reverse();
    const file = `${order.map((i) => header[i]).join(',')}\n${order.map((i) => row[i]).join(',')}\n`;
    const [reordered] = rowsOf(await all(readBasicCompanyData(text(file))));
    const [original] = rowsOf(await all(readBasicCompanyData(createReadStream(CH_FILE))));
    expect(reordered).toEqual(original);
  });

  it('reads doubled inner quotes, a BOM and CRLF line ends', async () => {
    const line = bodyLines[0].replace('"! LIMITED"', '"""K"" LINE LIMITED"');
    const file = `\uFEFF${headerLine}\r\n${line}\r\n`;
    const rows = await all(readBasicCompanyData(text(file)));
    expect(rowsOf(rows)[0].name).toBe('"K" LINE LIMITED');
  });

  it('rejects a bad row with its line number and reason; the rest reads', async () => {
    const badDate = bodyLines[1].replace('"11/09/2012"', '"31/02/2012"');
    const badSic = bodyLines[2].replace('"47710 - Retail', '"RETAIL - Retail');
    const short = `${bodyLines[3].split('","').slice(0, 40).join('","')}"`;
    const file = [headerLine, bodyLines[0], badDate, badSic, short, bodyLines[4]].join('\n');
    const rows = await all(readBasicCompanyData(text(file)));
    expect(rows.map((r) => r.kind)).toEqual(['row', 'reject', 'reject', 'reject', 'row']);
    expect(rows[1]).toEqual({
      kind: 'reject',
      line: 3,
      reason: 'IncorporationDate: "31/02/2012" is not a date (DD/MM/YYYY)',
    });
    expect(rows[2]).toMatchObject({ line: 4, reason: expect.stringContaining('SICCode.SicText_1') });
    expect(rows[3]).toMatchObject({ line: 5, reason: '40 fields where the header has 55' });
  });

  it('rejects a row with a stray quote as a CSV syntax error and reads on', async () => {
    const file = [headerLine, bodyLines[0], bodyLines[1].replace('"! LTD"', '"! "LTD"'), bodyLines[2]].join('\n');
    const rows = await all(readBasicCompanyData(text(file)));
    expect(rows.map((r) => r.kind)).toEqual(['row', 'reject', 'row']);
    expect(rows[1]).toMatchObject({ line: 3, reason: expect.stringMatching(/^CSV syntax: /) });
  });

  it('stops at once on a file of another kind, naming the expected one', async () => {
    await expect(
      all(readBasicCompanyData(createReadStream(join(FIXTURES, 'gleif/rr-cdf.first50.csv')))),
    ).rejects.toThrow(/Expected a Companies House BasicCompanyData CSV.*its header has no “CompanyName”/);
    await expect(all(readBasicCompanyData(createReadStream(PSC_FILE)))).rejects.toThrow(/BasicCompanyData/);
  });
});

describe('Companies House PSC snapshot', () => {
  it('reads persons with their natures of control; statements and the totals record are passed over', async () => {
    const lines = readFileSync(PSC_FILE, 'utf8').trim().split('\n');
    const totals = JSON.parse(lines.at(-1) ?? '');
    expect(totals.company_number).toBeUndefined(); // the totals record has no company number
    const rows = await all(readPscSnapshot(createReadStream(PSC_FILE)));
    expect(rows.every((row) => row.kind === 'row')).toBe(true);
    expect(rows.map((row) => row.line)).toEqual([1, 3, 4]);
    const persons = rowsOf(rows);
    expect(persons[0]).toMatchObject({
      companyNumber: '08209948',
      kind: 'individual',
      name: 'Mr Marc Anthony Feldman',
      forename: 'Marc',
      surname: 'Feldman',
      naturesOfControl: ['ownership-of-shares-75-to-100-percent'],
      notifiedOn: '2021-12-13',
      ceasedOn: null,
      countryOfResidence: 'England',
    });
    expect(persons[1]).toMatchObject({
      companyNumber: '07434180',
      kind: 'corporate-entity',
      name: 'Robert Hitchins Limited',
      registrationNumber: '00686734',
      naturesOfControl: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
    });
  });

  it('rejects a line that is not JSON or names no company, with its line number', async () => {
    const lines = readFileSync(PSC_FILE, 'utf8').trim().split('\n');
    const noCompany = lines[0].replace('"company_number":"08209948",', '');
    const file = [lines[0], '{"company_number": "0820', noCompany, lines[3]].join('\n');
    const rows = await all(readPscSnapshot(text(file)));
    expect(rows.map((r) => [r.kind, r.line])).toEqual([
      ['row', 1],
      ['reject', 2],
      ['reject', 3],
      ['row', 4],
    ]);
    expect(rows[2]).toMatchObject({ reason: 'company_number: is missing' });
  });

  it('stops at once on a file of another kind', async () => {
    await expect(all(readPscSnapshot(createReadStream(CH_FILE)))).rejects.toThrow(
      /Expected a Companies House PSC snapshot/,
    );
  });
});

describe('SEC EDGAR submissions', () => {
  it('reads the company, former names, addresses ("None" as absent) and the filings as parallel arrays', async () => {
    const rows = await all(readSecSubmission(createReadStream(SEC_FILE)));
    expect(rows).toHaveLength(1);
    const [tesla] = rowsOf(rows);
    const raw = JSON.parse(readFileSync(SEC_FILE, 'utf8'));
    expect(raw.addresses.business.street2).toBe('None');
    expect(tesla).toMatchObject({
      cik: '0001318605',
      name: 'Tesla, Inc.',
      sic: '3711',
      ein: '912197729',
      tickers: ['TSLA'],
      exchanges: ['Nasdaq'],
      stateOfIncorporation: 'DE',
      formerNames: [{ name: 'TESLA MOTORS INC', from: '2005-02-17', to: '2017-01-27' }],
      businessAddress: { street1: '3500 DEER CREEK RD', street2: null, city: 'PALO ALTO', stateOrCountry: 'CA' },
    });
    expect(tesla.filings).toHaveLength(raw.filings.recent.accessionNumber.length);
    expect(tesla.filings[0]).toEqual({
      accessionNumber: '0001790565-22-000015',
      form: '4',
      filedOn: '2022-11-30',
      reportDate: '2022-11-28',
      primaryDocument: 'xslF345X03/edgardoc.xml',
      description: 'PRIMARY DOCUMENT',
    });
  });

  it('rejects a document whose parallel filing arrays differ in length, naming the array', async () => {
    const broken = JSON.parse(readFileSync(SEC_FILE, 'utf8'));
    broken.filings.recent.form.pop();
    const rows = await all(readSecSubmission(text(JSON.stringify(broken))));
    expect(rows).toEqual([
      {
        kind: 'reject',
        line: 1,
        reason: 'the document: filings.recent.form: has 1000 filings, accessionNumber has 1001',
      },
    ]);
  });

  it('stops at once on a file of another kind', async () => {
    await expect(all(readSecSubmission(createReadStream(UNIT_FILE)))).rejects.toThrow(
      /Expected SEC EDGAR submissions JSON/,
    );
    await expect(all(readSecSubmission(createReadStream(CH_FILE)))).rejects.toThrow(
      /Expected SEC EDGAR submissions JSON/,
    );
  });
});

describe('Brønnøysund units and roles', () => {
  it('reads a unit, its addresses, SN2007 codes, status flags; <U+00F8>-style text is kept as found', async () => {
    const rows = await all(readBrregUnits(createReadStream(UNIT_FILE)));
    const [equinor] = rowsOf(rows);
    expect(rows[0].line).toBe(1);
    expect(equinor).toMatchObject({
      organisationNumber: '923609016',
      name: 'EQUINOR ASA',
      legalForm: { code: 'ASA', name: 'Allmennaksjeselskap' },
      website: 'www.equinor.com',
      businessAddress: { lines: ['Forusbeen 50'], postCode: '4035', town: 'STAVANGER', countryCode: 'NO' },
      postalAddress: { lines: ['Postboks 8500'] },
      registeredOn: '1995-03-12',
      foundedOn: '1972-09-18',
      deletedOn: null,
      employees: 21408,
      vatRegistered: true,
      bankrupt: false,
      windingUp: false,
    });
    expect(equinor.industries).toEqual([
      { code: '06.100', name: 'Utvinning av r<U+00E5>olje' },
      { code: '06.200', name: 'Utvinning av naturgass' },
      { code: '19.200', name: 'Produksjon av raffinerte petroleumsprodukter og fossile brenselsprodukter' },
    ]);
  });

  it('streams the bulk array of units; a bad unit is a reject with its record number', async () => {
    const unit = JSON.parse(readFileSync(UNIT_FILE, 'utf8'));
    const bulk = JSON.stringify([
      unit,
      { ...unit, organisasjonsnummer: '12' },
      { ...unit, stiftelsesdato: '1972-13-01' },
    ]);
    const rows = await all(readBrregUnits(Readable.from(bulk.match(/[\s\S]{1,97}/g) ?? [])));
    expect(rows.map((r) => [r.kind, r.line])).toEqual([
      ['row', 1],
      ['reject', 2],
      ['reject', 3],
    ]);
    expect(rows[1]).toMatchObject({ reason: 'organisasjonsnummer: is not an organisation number (9 digits)' });
    expect(rows[2]).toMatchObject({ reason: 'stiftelsesdato: "1972-13-01" is not a date (YYYY-MM-DD)' });
  });

  it('reads roles held by persons and units, naming the unit from the links', async () => {
    const [roles] = rowsOf(await all(readBrregRoles(createReadStream(ROLES_FILE))));
    expect(roles.organisationNumber).toBe('923609016');
    expect(roles.roles.find((r) => r.type === 'DAGL')).toMatchObject({
      group: 'DAGL',
      holder: { kind: 'person', firstName: 'Anders', lastName: 'Opedal', bornOn: '1968-05-04' },
    });
    expect(roles.roles.filter((r) => r.group === 'STYR')).toHaveLength(14);
    expect(roles.roles.find((r) => r.type === 'LEDE')?.holder).toMatchObject({ firstName: 'Jon Erik' });
    expect(roles.roles.some((r) => r.holder.kind === 'person' && r.holder.firstName === 'Finn Bj<U+00F8>rn')).toBe(
      true,
    );
    expect(roles.roles.find((r) => r.type === 'REVI')?.holder).toEqual({
      kind: 'unit',
      organisationNumber: '976389387',
      name: 'ERNST & YOUNG AS',
      legalForm: 'AS',
      deleted: false,
    });
  });

  it('stops at once on a file of another kind', async () => {
    await expect(all(readBrregUnits(createReadStream(ROLES_FILE)))).rejects.toThrow(/Expected Brønnøysund units JSON/);
    await expect(all(readBrregRoles(createReadStream(UNIT_FILE)))).rejects.toThrow(/Expected Brønnøysund roles JSON/);
    await expect(all(readBrregUnits(createReadStream(CH_FILE)))).rejects.toThrow(/Expected Brønnøysund units JSON/);
  });
});
