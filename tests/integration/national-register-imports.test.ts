import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { expectRecordedChangesInWords } from '../support/change-words.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { writeZip } from '../support/zip-file.ts';

// The national registers' sources (docs/decisions/0016-national-registers.md) end to end through the
// import framework on their real fixture files: companies made with the right fields, a re-import
// that changes nothing, a bad row reported with its line, a wrong file stopped naming the kind expected.

let t: TestDatabase;
let dir: string;

beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'national-registers-'));
});
afterAll(() => t.db.close());

const fixture = (path: string) => join(REGISTRY_FIXTURES, path);
const CH = fixture('companies-house/basic-company-data.first12.csv');
const PSC = fixture('companies-house/psc-snapshot.sample.jsonl');
const SEC = fixture('sec/CIK0001318605.json');
const UNIT = fixture('brreg/enhet-923609016.json');
const ROLES = fixture('brreg/roller-923609016.json');

function importFile(source: string, path: string, rejectsPath?: string) {
  return runImport(t.db, IMPORT_SOURCES[source], [path], { rejectsPath, batchSize: 5 });
}

async function companyByKey(scheme: string, key: string) {
  const row = await t.db.kysely
    .selectFrom('company_keys')
    .innerJoin('legal_entities as le', 'le.id', 'company_keys.legal_entity_id')
    .innerJoin('locations as l', 'l.id', 'le.jurisdiction_id')
    .select(['le.id', 'le.name', 'le.registered_on', 'le.status_id', 'l.country_code', 'l.subdivision_code'])
    .where('company_keys.scheme', '=', scheme)
    .where('company_keys.key', '=', key)
    .executeTakeFirstOrThrow();
  return { ...row, id: Number(row.id) };
}

const day = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

async function identifiers(id: number) {
  const rows = await t.db.kysely
    .selectFrom('legal_entity_identifiers as i')
    .innerJoin('identifier_types as t', 't.id', 'i.identifier_type_id')
    .select(['t.uri', 'i.identifier'])
    .where('i.legal_entity_id', '=', id)
    .orderBy('t.uri')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.uri, r.identifier]));
}

async function members(id: number) {
  return t.db.kysely
    .selectFrom('legal_entity_members as x')
    .innerJoin('members as m', 'm.id', 'x.member_id')
    .innerJoin('positions as p', 'p.id', 'x.position_id')
    .select(['m.name', 'm.name_type', 'p.uri as position'])
    .where('x.legal_entity_id', '=', id)
    .orderBy('p.uri')
    .orderBy('m.name')
    .execute();
}

describe('ch-companies and ch-psc', () => {
  it('creates the companies of BasicCompanyData with their fields; a re-import changes nothing', async () => {
    const first = await importFile('ch-companies', CH);
    expect(first).toMatchObject({ read: 12, new: 12, changed: 0, rejected: 0 });
    const company = await companyByKey('register', 'GB/RA000585/07687209');
    expect(company).toMatchObject({ name: '!OBAC UK LIMITED', status_id: 1, country_code: 'GB' });
    expect(day(company.registered_on)).toBe('2011-06-29');
    expect(await identifiers(company.id)).toMatchObject({ company_number: '07687209' });
    const names = await t.db.kysely
      .selectFrom('legal_entity_names')
      .select('name')
      .where('legal_entity_id', '=', company.id)
      .execute();
    expect(names.map((n) => n.name)).toContain('!OBAC FITTINGS LIMITED');
    const address = await t.db.kysely
      .selectFrom('legal_entity_addresses')
      .select(['address_line_1', 'post_code'])
      .where('legal_entity_id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(address).toMatchObject({ address_line_1: 'UNIT 9   BERRY COURT FARM BRAMLEY ROAD', post_code: 'RG26 5AT' });
    const dates = await t.db.kysely
      .selectFrom('legal_entity_dates as d')
      .innerJoin('date_types as t', 't.id', 'd.date_type_id')
      .select(['t.uri', 'd.date'])
      .where('d.legal_entity_id', '=', company.id)
      .execute();
    expect(Object.fromEntries(dates.map((d) => [d.uri, day(d.date)]))).toMatchObject({
      registration: '2011-06-29',
      accounts: '2021-09-29',
      annual_report: '2021-07-13',
    });
    const changes = await t.db.kysely
      .selectFrom('company_changes')
      .select(['field', 'source'])
      .where('legal_entity_id', '=', company.id)
      .execute();
    expect(changes).toContainEqual({ field: 'company', source: 'ch-companies' });

    const again = await importFile('ch-companies', CH);
    expect(again).toMatchObject({ read: 12, new: 0, changed: 0, unchanged: 12, rejected: 0 });
  });

  it('reports a bad row with its line number and reason, in the summary and the rejects file', async () => {
    const text = await readFile(CH, 'utf8');
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, text.replace('"29/07/2020"', '"29/13/2020"'));
    const rejectsPath = join(dir, 'bad.rejects.tsv');
    const summary = await importFile('ch-companies', bad, rejectsPath);
    expect(summary).toMatchObject({ read: 12, rejected: 1 });
    expect(summary.rejects).toEqual([
      {
        file: 'bad.csv',
        unit: 'line',
        at: 2,
        reason: 'IncorporationDate: "29/13/2020" is not a date (DD/MM/YYYY)',
      },
    ]);
    expect(await readFile(rejectsPath, 'utf8')).toContain(
      'bad.csv\tline\t2\tIncorporationDate: "29/13/2020" is not a date',
    );
  });

  it('stops at once on a file of the wrong kind, naming the kind expected', async () => {
    await expect(importFile('ch-companies', PSC)).rejects.toThrow(/Expected a Companies House BasicCompanyData CSV/);
    const failed = await t.db.kysely
      .selectFrom('imports')
      .select(['status', 'message'])
      .where('source', '=', 'ch-companies')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/BasicCompanyData/);
  });

  it('makes persons with significant control shareholders of the companies they control', async () => {
    const summary = await importFile('ch-psc', PSC);
    // 07434180 and 08810260 are not in the BasicCompanyData sample: a PSC makes no company.
    expect(summary).toMatchObject({ changed: 1, new: 0, rejected: 2 });
    expect(summary.rejects.map((r) => r.at)).toEqual([3, 4]);
    const company = await companyByKey('register', 'GB/RA000585/08209948');
    expect(await members(company.id)).toEqual([
      { name: 'Marc Anthony Feldman', name_type: 'individual', position: 'shareholder' },
    ]);
    const natures = await t.db.kysely
      .selectFrom('legal_entity_members')
      .select('natures')
      .where('legal_entity_id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(natures.natures).toEqual(['ownership-of-shares-75-to-100-percent']);
    const again = await importFile('ch-psc', PSC);
    expect(again).toMatchObject({ changed: 0, unchanged: 1 });
    await expect(importFile('ch-psc', CH)).rejects.toThrow(/Expected a Companies House PSC snapshot/);
  });

  it('links a corporate PSC registered at Companies House to that company', async () => {
    // The sample's corporate PSC, moved onto a company of the BasicCompanyData sample and naming another as itself.
    const [, , corporate] = (await readFile(PSC, 'utf8')).split('\n');
    const line = corporate
      .replace('"company_number":"07434180"', '"company_number":"08209948"')
      .replace('00686734', '12778855');
    const path = join(dir, 'psc-corporate.jsonl');
    await writeFile(path, `${line}\n`);
    expect(await importFile('ch-psc', path)).toMatchObject({ changed: 1, rejected: 0 });
    const company = await companyByKey('register', 'GB/RA000585/08209948');
    const owner = await companyByKey('register', 'GB/RA000585/12778855');
    const member = await t.db.kysely
      .selectFrom('legal_entity_members as x')
      .innerJoin('members as m', 'm.id', 'x.member_id')
      .select(['m.name', 'm.legal_entity_id', 'x.natures'])
      .where('x.legal_entity_id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(member).toEqual({
      name: 'Robert Hitchins Limited',
      legal_entity_id: expect.anything(),
      natures: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
    });
    expect(Number(member.legal_entity_id)).toBe(owner.id);
  });
});

describe('sec-submissions', () => {
  it('creates the filer with its jurisdiction, EIN and filings; the bulk zip re-imports unchanged', async () => {
    const summary = await importFile('sec-submissions', SEC);
    expect(summary).toMatchObject({ read: 1, new: 1, rejected: 0 });
    const tesla = await companyByKey('sec-cik', '0001318605');
    expect(tesla).toMatchObject({ name: 'Tesla, Inc.', subdivision_code: 'US-DE' });
    expect(await identifiers(tesla.id)).toMatchObject({ tax_number: '91-2197729' });
    const documents = await t.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('legal_entity_id', '=', tesla.id)
      .executeTakeFirstOrThrow();
    expect(Number(documents.n)).toBe(1001);

    const zip = join(dir, 'submissions.zip');
    await writeZip(zip, [
      { name: 'CIK0001318605.json', text: await readFile(SEC, 'utf8') },
      { name: 'CIK0001318605-submissions-001.json', text: '{"accessionNumber": [], "form": []}' },
    ]);
    expect(await importFile('sec-submissions', zip)).toMatchObject({ read: 1, new: 0, changed: 0, unchanged: 1 });
    await expect(importFile('sec-submissions', UNIT)).rejects.toThrow(/Expected SEC EDGAR submissions JSON/);
  });
});

describe('brreg-units and brreg-roles', () => {
  it('creates the Norwegian company and its officers and board; re-imports change nothing', async () => {
    expect(await importFile('brreg-units', UNIT)).toMatchObject({ read: 1, new: 1, rejected: 0 });
    const equinor = await companyByKey('register', 'NO/RA000472/923609016');
    expect(equinor).toMatchObject({ name: 'EQUINOR ASA', country_code: 'NO', status_id: 1 });
    expect(day(equinor.registered_on)).toBe('1972-09-18');
    expect(await identifiers(equinor.id)).toMatchObject({ company_number: '923609016', vat: 'NO923609016MVA' });

    const copy = join(dir, 'roller-923609016.json');
    await copyFile(ROLES, copy);
    expect(await importFile('brreg-roles', copy)).toMatchObject({ read: 1, changed: 1, rejected: 0 });
    const board = await members(equinor.id);
    expect(board.filter((m) => m.position === 'officer').map((m) => m.name)).toEqual(['Anders Opedal']);
    expect(board.filter((m) => m.position === 'president').map((m) => m.name)).toEqual(['Jon Erik Reinhardsen']);
    expect(board.filter((m) => m.position === 'director')).toHaveLength(10);
    expect(board.map((m) => m.name)).toContain('Finn Bj<U+00F8>rn Ruyter');

    expect(await importFile('brreg-units', UNIT)).toMatchObject({ changed: 0, unchanged: 1 });
    expect(await importFile('brreg-roles', copy)).toMatchObject({ changed: 0, unchanged: 1 });
    await expect(importFile('brreg-roles', UNIT)).rejects.toThrow(/Expected Brønnøysund roles JSON/);
  });
});

describe('the changes these real imports recorded', () => {
  it('read as words in every language: no raw code, no ISO date', async () => {
    expect(await expectRecordedChangesInWords(t.db, t.reference)).toBeGreaterThan(1);
  });
});
