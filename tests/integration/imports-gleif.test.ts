import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfilePage } from '../../app/presenters/profile-page.server.ts';
import { readCompanyProvenance } from '../../core/companies/company-history.ts';
import { WrongFileError } from '../../core/imports/company-facts.ts';
import { ImportInterrupted, runImport } from '../../core/imports/run-import.ts';
import { elf } from '../../core/imports/sources/elf.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { gleifRepex } from '../../core/imports/sources/gleif-repex.ts';
import { gleifRr } from '../../core/imports/sources/gleif-rr.ts';
import type { AppServices } from '../../core/services.ts';
import { expectRecordedChangesInWords } from '../support/change-words.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

// The GLEIF and ELF importers on the real fixtures of ../shared/fixtures/gleif (their README lists
// the quirks asserted here), on PGlite and PostgreSQL. Files marked CONSTRUCTED are built by the
// test from a real record or from GLEIF's published layout; they are never presented as real.

const FIXTURES = '/work/shared/fixtures/gleif';
const LEI_FILE = join(FIXTURES, 'lei-cdf-2.1.top10.xml');
const RR_XML = join(FIXTURES, 'rr-cdf.sample.xml');
const RR_CSV = join(FIXTURES, 'rr-cdf.first50.csv');
const ELF_FILE = join(FIXTURES, 'elf-codes-2021.first60.csv');

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'registra-imports-'));
});
afterAll(async () => {
  await t?.db.close();
  await rm(dir, { recursive: true, force: true });
});

const k = () => t.db.kysely;

async function companyOfLei(lei: string) {
  return k()
    .selectFrom('company_keys')
    .innerJoin('legal_entities', 'legal_entities.id', 'company_keys.legal_entity_id')
    .select(['legal_entities.id', 'legal_entities.name', 'legal_entities.jurisdiction_id', 'legal_entities.status_id'])
    .where('company_keys.scheme', '=', 'lei')
    .where('company_keys.key', '=', lei)
    .executeTakeFirst();
}

/** CONSTRUCTED: the fixture's first LEIRecord under another LEI and name (a company the fixture does not have). */
async function constructedLeiFile(records: { lei: string; name: string }[]): Promise<string> {
  const text = await readFile(LEI_FILE, 'utf8');
  const start = text.indexOf('<lei:LEIRecord>');
  const end = text.indexOf('</lei:LEIRecord>') + '</lei:LEIRecord>'.length;
  const template = text.slice(start, end);
  const body = records
    .map((r) =>
      template
        .replaceAll('029200013A5N6ZD0F605', r.lei)
        .replace('AFRINVEST SECURITIES LIMITED</lei:LegalName>', `${r.name}</lei:LegalName>`)
        .replace('RC603315', `RC-${r.lei.slice(-8)}`),
    )
    .join('\n');
  return `${text.slice(0, text.indexOf('<lei:LEIRecords>'))}<lei:LEIRecords>\n${body}\n</lei:LEIRecords>\n</lei:LEIData>\n`;
}

describe('gleif-lei on the real LEI-CDF fixture', () => {
  it('imports the ten records whole, through the header extension and without a final newline', async () => {
    const summary = await runImport(t.db, gleifLei, [LEI_FILE]);
    expect(summary).toMatchObject({ read: 10, new: 10, changed: 0, unchanged: 0, rejected: 0 });
    const row = await k()
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', summary.importIds[0] as number)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      source: 'gleif-lei',
      status: 'done',
      read: 10,
      new: 10,
      file_name: 'lei-cdf-2.1.top10.xml',
    });
    expect(row.file_sha256).toMatch(/^[0-9a-f]{64}$/);

    const afrinvest = await companyOfLei('029200013A5N6ZD0F605');
    expect(afrinvest?.name).toBe('AFRINVEST SECURITIES LIMITED');
    // Matched later on the register: jurisdiction + registration authority + number.
    const register = await k()
      .selectFrom('company_keys')
      .selectAll()
      .where('scheme', '=', 'register')
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .executeTakeFirstOrThrow();
    expect(register.key).toBe('NG-LA/RA000469/RC603315');
    const identifiers = await k()
      .selectFrom('legal_entity_identifiers')
      .innerJoin('identifier_types', 'identifier_types.id', 'legal_entity_identifiers.identifier_type_id')
      .select(['identifier_types.uri', 'identifier'])
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .orderBy('identifier_types.uri')
      .execute();
    expect(identifiers).toEqual([
      { uri: 'company_number', identifier: 'RC603315' },
      { uri: 'lei', identifier: '029200013A5N6ZD0F605' },
    ]);
    const nigeria = await k().selectFrom('locations').select('id').where('country_code', '=', 'NG').execute();
    expect(nigeria.map((l) => l.id)).toContain(afrinvest?.jurisdiction_id);

    // Legal and headquarters addresses, with the region as given (ISO 3166-2).
    const addresses = await k()
      .selectFrom('legal_entity_addresses')
      .innerJoin('address_types', 'address_types.id', 'legal_entity_addresses.address_type_id')
      .select(['address_types.uri', 'address_line_1', 'address_line_2', 'locality', 'post_code', 'state'])
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .orderBy('address_types.uri')
      .execute();
    expect(addresses).toEqual([
      {
        uri: 'headquarter',
        address_line_1: '27 GERRARD ROAD',
        address_line_2: 'IKOYI',
        locality: 'LAGOS',
        post_code: null,
        state: 'NG-LA',
      },
      {
        uri: 'registered',
        address_line_1: '27 GERRARD ROAD',
        address_line_2: 'IKOYI',
        locality: 'LAGOS',
        post_code: '23401',
        state: 'NG-LA',
      },
    ]);
    // Other names in another language are kept.
    const names = await k()
      .selectFrom('legal_entity_names')
      .innerJoin('name_types', 'name_types.id', 'legal_entity_names.name_type_id')
      .select(['name_types.uri', 'name'])
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .orderBy('name_types.uri')
      .execute();
    expect(names).toEqual([
      { uri: 'legal_name_full', name: 'AFRINVEST SECURITIES LIMITED' },
      { uri: 'other_language', name: 'AFRINVEST SECURITIES LIMITED' },
    ]);
  });

  it('keeps legal form 8888 with its OtherLegalForm, and the LAPSED registration', async () => {
    const afrinvest = await companyOfLei('029200013A5N6ZD0F605');
    const form = await k()
      .selectFrom('legal_entity_legal_forms')
      .selectAll()
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .executeTakeFirstOrThrow();
    expect(form).toMatchObject({ elf_code: '8888', other_legal_form: 'LIMITED' });
    const lapsed = await k()
      .selectFrom('lei_registrations')
      .selectAll()
      .where('lei', '=', '029200073F9T3DD5J993')
      .executeTakeFirstOrThrow();
    expect(lapsed.registration_status).toBe('LAPSED');
    expect(lapsed.entity_status).toBe('ACTIVE');
    expect(new Date(lapsed.last_update_date as Date).toISOString()).toBe('2018-06-06T09:31:12.000Z');
    expect(new Date(lapsed.initial_registration_date as Date).getTime()).toBeGreaterThan(0);
  });

  it('records each new company once in the change feed, with provenance of every field from its source record', async () => {
    const afrinvest = await companyOfLei('029200013A5N6ZD0F605');
    const changes = await k()
      .selectFrom('company_changes')
      .selectAll()
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .execute();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ field: 'company', old_value: null, source: 'gleif-lei' });
    expect(new Date(changes[0]?.source_date as Date).toISOString()).toBe('2018-08-02T15:23:46.000Z');
    // A new company has no provenance rows of its own: its source record says where each fact came from.
    const rows = await k()
      .selectFrom('company_provenance')
      .select('field')
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .execute();
    expect(rows).toEqual([]);
    const provenance = await readCompanyProvenance(t.db, afrinvest?.id as number);
    expect([...provenance.keys()]).toEqual(
      expect.arrayContaining([
        'name',
        'addresses.legal',
        'addresses.headquarters',
        'legal_form',
        'lei_registration',
        'identifiers.lei',
      ]),
    );
    expect(new Set([...provenance.values()].map((p) => p.source))).toEqual(new Set(['gleif-lei']));
    expect(provenance.get('name')?.source_date?.toISOString()).toBe('2018-08-02T15:23:46.000Z');
  });

  it('makes the new names searchable and builds their export documents', async () => {
    const afrinvest = await companyOfLei('029200013A5N6ZD0F605');
    const word = await k().selectFrom('name_words').selectAll().where('word', '=', 'afrinvest').executeTakeFirst();
    expect(word?.documents).toBe(1);
    const document = await k()
      .selectFrom('export_documents')
      .select('legal_entity_id')
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .execute();
    expect(document).toHaveLength(1);
  });

  it('is idempotent: the same file again (gzipped) changes nothing and says so', async () => {
    const before = await k()
      .selectFrom('company_changes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const gz = join(dir, 'lei.xml.gz');
    await writeFile(gz, gzipSync(await readFile(LEI_FILE)));
    // Each source record keeps its hash; a record whose stored hash is missing (written before hashes)
    // or differs is compared by its facts, and is unchanged all the same.
    const hashes = await k().selectFrom('company_source_records').select(['legal_entity_id', 'facts_hash']).execute();
    expect(hashes.length).toBe(10);
    expect(hashes.every((h) => /^[A-Za-z0-9+/]{27}=$/.test(h.facts_hash ?? ''))).toBe(true);
    await k()
      .updateTable('company_source_records')
      .set({ facts_hash: null })
      .where('legal_entity_id', '=', hashes[0]?.legal_entity_id as number)
      .execute();
    await k()
      .updateTable('company_source_records')
      .set({ facts_hash: 'not the hash' })
      .where('legal_entity_id', '=', hashes[1]?.legal_entity_id as number)
      .execute();
    const summary = await runImport(t.db, gleifLei, [gz]);
    expect(summary).toMatchObject({ read: 10, new: 0, changed: 0, unchanged: 10, rejected: 0 });
    const after = await k()
      .selectFrom('company_changes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('writes a changed field as one change (old → new) with the source date, and refreshes the lexicon', async () => {
    // CONSTRUCTED delta: the real record with its name and update date changed.
    const text = await readFile(LEI_FILE, 'utf8');
    const delta = text
      .replace('AFRINVEST SECURITIES LIMITED</lei:LegalName>', 'AFRINVEST QUORTEX LIMITED</lei:LegalName>')
      .replace('<lei:LastUpdateDate>2018-08-02T15:23:46Z', '<lei:LastUpdateDate>2018-09-03T10:00:00+02:00');
    const file = join(dir, 'delta.xml');
    await writeFile(file, delta);
    const summary = await runImport(t.db, gleifLei, [file]);
    expect(summary).toMatchObject({ read: 10, new: 0, changed: 1, unchanged: 9 });
    const afrinvest = await companyOfLei('029200013A5N6ZD0F605');
    expect(afrinvest?.name).toBe('AFRINVEST QUORTEX LIMITED');
    const changes = await k()
      .selectFrom('company_changes')
      .selectAll()
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .where('import_id', '=', summary.importIds[0] as number)
      .orderBy('field')
      .execute();
    expect(changes.map((c) => c.field)).toEqual(['lei_registration', 'name']);
    const name = changes.find((c) => c.field === 'name');
    expect(name).toMatchObject({ old_value: 'AFRINVEST SECURITIES LIMITED', new_value: 'AFRINVEST QUORTEX LIMITED' });
    expect(new Date(name?.source_date as Date).toISOString()).toBe('2018-09-03T08:00:00.000Z');
    const provenance = await k()
      .selectFrom('company_provenance')
      .selectAll()
      .where('legal_entity_id', '=', afrinvest?.id as number)
      .where('field', '=', 'name')
      .executeTakeFirstOrThrow();
    expect(new Date(provenance.source_date as Date).toISOString()).toBe('2018-09-03T08:00:00.000Z');
    expect(
      await k().selectFrom('name_words').selectAll().where('word', '=', 'quortex').executeTakeFirst(),
    ).toMatchObject({ documents: 1 });
  });

  it('reports a bad record with its record number and imports the rest', async () => {
    const text = await readFile(LEI_FILE, 'utf8');
    // CONSTRUCTED: the third record's next renewal date made unreadable.
    const bad = text.replace('<lei:LastUpdateDate>2018-07-27T12:43:39Z', '<lei:LastUpdateDate>27/07/2018 12:43');
    const file = join(dir, 'bad.xml');
    await writeFile(file, bad);
    const rejects = join(dir, 'bad.rejects.tsv');
    const summary = await runImport(t.db, gleifLei, [file], { rejectsPath: rejects });
    expect(summary.rejected).toBe(1);
    expect(summary.rejects[0]).toMatchObject({ unit: 'record', at: 3 });
    expect(summary.rejects[0]?.reason).toContain('27/07/2018 12:43');
    expect(summary.read).toBe(10);
    const listed = (await readFile(rejects, 'utf8')).trim().split('\n');
    expect(listed[0]).toBe('file\tunit\tat\treason');
    expect(listed[1]).toMatch(/^bad\.xml\trecord\t3\t.*27\/07\/2018/);
  });

  it('stops at once on a file of the wrong kind, naming what it expected', async () => {
    const error = await runImport(t.db, gleifLei, [RR_XML]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongFileError);
    expect((error as Error).message).toContain('LEI-CDF');
    const row = await k().selectFrom('imports').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', read: 0 });
    expect(row.message).toContain('<LEIData>');
    const csv = await runImport(t.db, gleifLei, [ELF_FILE]).catch((e: unknown) => e);
    expect(csv).toBeInstanceOf(WrongFileError);
  });
});

describe('an interrupted import', () => {
  it('leaves no company half written, and the next run finishes it cleanly', async () => {
    const leis = Array.from({ length: 6 }, (_, i) => `KILL00000000000000${String(i).padStart(2, '0')}`);
    const file = join(dir, 'interrupted.xml');
    await writeFile(file, await constructedLeiFile(leis.map((lei, i) => ({ lei, name: `Interrupted Holding ${i}` }))));
    const controller = new AbortController();
    const error = await runImport(t.db, gleifLei, [file], {
      batchSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.read >= 2) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInterrupted);
    const row = await k().selectFrom('imports').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', message: 'interrupted' });
    const written = await k()
      .selectFrom('company_keys')
      .select('legal_entity_id')
      .where('scheme', '=', 'lei')
      .where('key', 'in', leis)
      .execute();
    expect(written).toHaveLength(2);
    // Each written company is whole: its name, both addresses and its LEI registration.
    for (const { legal_entity_id: id } of written) {
      const addresses = await k()
        .selectFrom('legal_entity_addresses')
        .select('address_type_id')
        .where('legal_entity_id', '=', id)
        .execute();
      expect(addresses).toHaveLength(2);
      expect(
        await k().selectFrom('lei_registrations').select('lei').where('legal_entity_id', '=', id).execute(),
      ).toHaveLength(1);
    }
    const rerun = await runImport(t.db, gleifLei, [file]);
    expect(rerun).toMatchObject({ read: 6, new: 4, unchanged: 2, changed: 0 });
  });

  it('marks an import that died (killed, no chance to say so) failed on the next run', async () => {
    const dead = await k()
      .insertInto('imports')
      .values({ source: 'gleif-lei', file_name: 'x.xml', file_sha256: '0'.repeat(64), status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await runImport(t.db, gleifLei, [LEI_FILE]);
    const row = await k().selectFrom('imports').selectAll().where('id', '=', dead.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', message: 'interrupted' });
  });
});

describe('gleif-rr', () => {
  it('reads the XML sample whole although its header counts the full file', async () => {
    const summary = await runImport(t.db, gleifRr, [RR_XML]);
    expect(summary).toMatchObject({ read: 10, rejected: 0 });
    expect(summary.new + summary.unchanged).toBe(10);
    const rel = await k()
      .selectFrom('lei_relationships')
      .selectAll()
      .where('start_lei', '=', '001GPB6A9XPE8XJICC14')
      .where('relationship_type', '=', 'IS_FUND-MANAGED_BY')
      .executeTakeFirstOrThrow();
    expect(rel).toMatchObject({
      end_lei: '5493001Z012YSB2A0K51',
      relationship_status: 'ACTIVE',
      period_start: '2012-11-29',
    });
  });

  it('reads the golden-copy CSV (minimal quoting, CRLF) by header name, taking the relationship period from any slot', async () => {
    const raw = await readFile(RR_CSV, 'utf8');
    expect(raw).toContain('\r\n');
    const summary = await runImport(t.db, gleifRr, [RR_CSV]);
    expect(summary).toMatchObject({ read: 50, rejected: 0 });
    const rel = await k()
      .selectFrom('lei_relationships')
      .selectAll()
      .where('start_lei', '=', '073LKXEKEP6T62NK2G42')
      .executeTakeFirstOrThrow();
    // Slot 1 is the accounting period (2021); slot 2 the relationship period.
    expect(rel).toMatchObject({
      end_lei: 'CYSD4L2598RQ9BPPCB72',
      relationship_type: 'IS_DIRECTLY_CONSOLIDATED_BY',
      period_start: '2017-10-02',
    });
    const again = await runImport(t.db, gleifRr, [RR_CSV]);
    expect(again).toMatchObject({ read: 50, new: 0, changed: 0, unchanged: 50 });
  });

  it('makes a consolidation parent a parent-company member of the child, linked to the parent company', async () => {
    // CONSTRUCTED LEI records for both ends of the CSV's first relationship (the fixture's companies are others).
    const file = join(dir, 'rr-ends.xml');
    await writeFile(
      file,
      await constructedLeiFile([
        { lei: '073LKXEKEP6T62NK2G42', name: 'Child Bancorp' },
        { lei: 'CYSD4L2598RQ9BPPCB72', name: 'Parent Financial' },
      ]),
    );
    await runImport(t.db, gleifLei, [file]);
    const child = await companyOfLei('073LKXEKEP6T62NK2G42');
    const parent = await companyOfLei('CYSD4L2598RQ9BPPCB72');
    const members = await k()
      .selectFrom('legal_entity_members')
      .innerJoin('members', 'members.id', 'legal_entity_members.member_id')
      .select([
        'members.name',
        'members.legal_entity_id',
        'legal_entity_members.position_id',
        'legal_entity_members.since',
      ])
      .where('legal_entity_members.legal_entity_id', '=', child?.id as number)
      .execute();
    expect(members).toEqual([
      { name: 'Parent Financial', legal_entity_id: parent?.id, position_id: 5, since: '2017-10-02' },
    ]);
    const change = await k()
      .selectFrom('company_changes')
      .selectAll()
      .where('legal_entity_id', '=', child?.id as number)
      .where('field', '=', 'members')
      .executeTakeFirstOrThrow();
    expect(change.new_value).toMatchObject({ lei: 'CYSD4L2598RQ9BPPCB72', position: 'parent_company' });
  });

  it('refuses a file of the wrong kind', async () => {
    await expect(runImport(t.db, gleifRr, [LEI_FILE])).rejects.toThrow(/RelationshipData/);
    await expect(runImport(t.db, gleifRr, [ELF_FILE])).rejects.toThrow(/Relationship\.StartNode\.NodeID/);
  });
});

describe('gleif-repex', () => {
  it('keeps reporting exceptions from a file in GLEIF’s published RepEx layout (CONSTRUCTED)', async () => {
    // CONSTRUCTED from the RepEx 1.1 layout (ReportingExceptionData / Header / ReportingExceptions / Exception):
    // not a GLEIF file. The first LEI is a company imported above.
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<repex:ReportingExceptionData xmlns:repex="http://www.gleif.org/data/schema/repex/2016">
  <repex:Header>
    <repex:ContentDate>2023-06-05T09:24:22+02:00</repex:ContentDate>
    <repex:FileContent>GLEIF_FULL_PUBLISHED</repex:FileContent>
    <repex:RecordCount>999</repex:RecordCount>
  </repex:Header>
  <repex:ReportingExceptions>
    <repex:Exception>
      <repex:LEI>029200013A5N6ZD0F605</repex:LEI>
      <repex:ExceptionCategory>DIRECT_ACCOUNTING_CONSOLIDATION_PARENT</repex:ExceptionCategory>
      <repex:ExceptionReason>NATURAL_PERSONS</repex:ExceptionReason>
    </repex:Exception>
    <repex:Exception>
      <repex:LEI>029200013A5N6ZD0F605</repex:LEI>
      <repex:ExceptionCategory>ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT</repex:ExceptionCategory>
      <repex:ExceptionReason>NON_CONSOLIDATING</repex:ExceptionReason>
      <repex:ExceptionReason>NO_KNOWN_PERSON</repex:ExceptionReason>
      <repex:ExceptionReference>Annual report 2022</repex:ExceptionReference>
    </repex:Exception>
    <repex:Exception>
      <repex:LEI>not-an-lei</repex:LEI>
      <repex:ExceptionCategory>DIRECT_ACCOUNTING_CONSOLIDATION_PARENT</repex:ExceptionCategory>
      <repex:ExceptionReason>NATURAL_PERSONS</repex:ExceptionReason>
    </repex:Exception>
  </repex:ReportingExceptions>
</repex:ReportingExceptionData>`;
    const file = join(dir, 'repex.constructed.xml');
    await writeFile(file, xml);
    const summary = await runImport(t.db, gleifRepex, [file]);
    expect(summary).toMatchObject({ read: 3, new: 2, rejected: 1 });
    expect(summary.rejects[0]).toMatchObject({ at: 3 });
    const rows = await k()
      .selectFrom('lei_reporting_exceptions')
      .selectAll()
      .where('lei', '=', '029200013A5N6ZD0F605')
      .orderBy('exception_category')
      .execute();
    expect(rows.map((r) => [r.exception_category, r.reasons, r.reference])).toEqual([
      ['DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', ['NATURAL_PERSONS'], null],
      ['ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT', ['NON_CONSOLIDATING', 'NO_KNOWN_PERSON'], 'Annual report 2022'],
    ]);
    expect(new Date(rows[0]?.source_date as Date).toISOString()).toBe('2023-06-05T07:24:22.000Z');
    const company = await companyOfLei('029200013A5N6ZD0F605');
    const changes = await k()
      .selectFrom('company_changes')
      .select('field')
      .where('legal_entity_id', '=', company?.id as number)
      .where('field', '=', 'reporting_exceptions')
      .execute();
    expect(changes).toHaveLength(2);
    expect(await runImport(t.db, gleifRepex, [file])).toMatchObject({ new: 0, changed: 0, unchanged: 2 });
  });
});

describe('the profile of an imported company', () => {
  it('shows its legal form, LEI registration and reporting exceptions, in the reader’s language', async () => {
    const company = await companyOfLei('029200013A5N6ZD0F605');
    const row = await k()
      .selectFrom('legal_entities')
      .select('uri')
      .where('id', '=', company?.id as number)
      .executeTakeFirstOrThrow();
    const services = {
      db: t.db,
      reference: t.reference,
      siteUrl: 'http://localhost',
      mailer: {} as AppServices['mailer'],
      payments: {} as AppServices['payments'],
    };
    const en = await loadProfilePage(services, 'en', row.uri);
    const gleif = en?.sections.find((s) => s.id === 'gleif');
    expect(gleif?.title).toBe('Legal entity identifier (GLEIF)');
    expect(gleif?.rows.map((r) => [r.label, r.value, r.note])).toEqual([
      ['Legal form', 'LIMITED', 'ELF 8888'],
      ['LEI 029200013A5N6ZD0F605', 'Issued', expect.stringContaining('last updated')],
      ['No direct parent reported', 'controlled by natural persons', undefined],
      [
        'No ultimate parent reported',
        'the parent does not consolidate, no known controlling person',
        'Annual report 2022',
      ],
    ]);
    const de = await loadProfilePage(services, 'de', row.uri);
    // The registration status is a GLEIF code, shown by its label (ADR 0022).
    expect(de?.sections.find((s) => s.id === 'gleif')?.rows[1]?.value).toBe('Ausgegeben');
    expect(de?.sections.find((s) => s.id === 'gleif')?.rows[2]?.label).toBe(
      'Keine direkte Muttergesellschaft gemeldet',
    );
    // A demo company GLEIF has not been imported for has no such section.
    const demo = await k().selectFrom('legal_entities').select('uri').where('id', '=', 1).executeTakeFirstOrThrow();
    expect((await loadProfilePage(services, 'en', demo.uri))?.sections.map((s) => s.id)).not.toContain('gleif');
  });
});

describe('elf', () => {
  it('reads the ISO 20275 list: BOM, every field quoted, pseudo-codes first, ;-separated abbreviations', async () => {
    const raw = await readFile(ELF_FILE);
    expect(raw.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const summary = await runImport(t.db, elf, [ELF_FILE]);
    expect(summary).toMatchObject({ read: 60, new: 60, rejected: 0 });
    const pseudo = await k()
      .selectFrom('legal_forms')
      .selectAll()
      .where('code', 'in', ['8888', '9999'])
      .orderBy('code')
      .execute();
    expect(pseudo.map((f) => [f.code, f.country_code, f.status])).toEqual([
      ['8888', null, 'ACTV'],
      ['9999', null, 'ACTV'],
    ]);
    expect(await k().selectFrom('legal_form_names').selectAll().where('code', '=', '8888').execute()).toEqual([]);
    const vof = await k()
      .selectFrom('legal_form_names')
      .selectAll()
      .where('code', '=', 'CYW2')
      .executeTakeFirstOrThrow();
    expect(vof).toMatchObject({
      language_code: 'nl',
      name: 'Vennootschap onder firma',
      abbreviations: ['VOF', 'vof', 'V.O.F.', 'v.o.f.'],
    });
    const aruba = await k().selectFrom('legal_forms').selectAll().where('code', '=', 'CYW2').executeTakeFirstOrThrow();
    expect(aruba).toMatchObject({ country_code: 'AW', created_on: '2017-11-30' });
    expect(await runImport(t.db, elf, [ELF_FILE])).toMatchObject({ new: 0, changed: 0, unchanged: 60 });
  });

  it('reports a row whose field count is not the header’s, with its line', async () => {
    const lines = (await readFile(ELF_FILE, 'utf8')).split(/\r?\n/);
    // CONSTRUCTED: the fourth line cut short.
    lines[3] = '"F0A6","Argentina","AR"';
    const file = join(dir, 'elf-short.csv');
    await writeFile(file, lines.join('\n'));
    const summary = await runImport(t.db, elf, [file]);
    expect(summary.rejects).toEqual([
      { file: 'elf-short.csv', unit: 'line', at: 4, reason: '3 fields where the header has 16' },
    ]);
  });

  it('keeps the names of a code in every language', async () => {
    // CONSTRUCTED: one real code given a second language row (the list's layout for multilingual codes).
    const lines = (await readFile(ELF_FILE, 'utf8')).split(/\r?\n/);
    const file = join(dir, 'elf-two-languages.csv');
    await writeFile(
      file,
      [
        lines[0],
        '"CYW2","Aruba","AW","","","Société en nom collectif","French","fr","Societe en nom collectif","SNC","","2017-11-30","ACTV","","",""',
      ].join('\r\n'),
    );
    await runImport(t.db, elf, [file]);
    const names = await k()
      .selectFrom('legal_form_names')
      .select(['language_code', 'name'])
      .where('code', '=', 'CYW2')
      .orderBy('language_code')
      .execute();
    expect(names).toEqual([
      { language_code: 'fr', name: 'Société en nom collectif' },
      { language_code: 'nl', name: 'Vennootschap onder firma' },
    ]);
  });
});

describe('matching', () => {
  it('finds a demo company by its LEI among its identifiers, and keeps its URI', async () => {
    const demo = await sql<{ id: number; uri: string; identifier: string }>`
      select l.id, l.uri, i.identifier from legal_entity_identifiers i
      join legal_entities l on l.id = i.legal_entity_id
      join identifier_types t on t.id = i.identifier_type_id
      where t.uri = 'lei' and i.identifier ~ '^[A-Z0-9]{18}[0-9]{2}$'
      and not exists (select 1 from company_keys k where k.legal_entity_id = l.id) limit 1`.execute(k());
    const company = demo.rows[0];
    if (!company) throw new Error('the test template has no demo company with an LEI');
    const file = join(dir, 'demo-lei.xml');
    await writeFile(file, await constructedLeiFile([{ lei: company.identifier, name: 'Renamed By GLEIF Limited' }]));
    const summary = await runImport(t.db, gleifLei, [file]);
    expect(summary).toMatchObject({ new: 0, changed: 1 });
    const after = await k()
      .selectFrom('legal_entities')
      .select(['name', 'uri'])
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ name: 'Renamed By GLEIF Limited', uri: company.uri });
    const name = await k()
      .selectFrom('company_changes')
      .selectAll()
      .where('legal_entity_id', '=', company.id)
      .where('field', '=', 'name')
      .executeTakeFirstOrThrow();
    expect(name.new_value).toBe('Renamed By GLEIF Limited');
    expect(typeof name.old_value).toBe('string');
  });
});

describe('the search lexicon after all these imports', () => {
  it('counts every word as a full rebuild would (moved by the changed names only)', async () => {
    const kept = await sql<{
      word: string;
      documents: number;
    }>`select word, documents from name_words order by word`.execute(k());
    const truth = await sql<{ word: string; documents: number }>`
      select word, ndoc as documents from ts_stat('select name_tsv from legal_entities') order by word`.execute(k());
    expect(kept.rows.length).toBeGreaterThan(100);
    expect(kept.rows).toEqual(truth.rows);
    const deletes = await sql<{ n: number }>`select count(*)::int as n from name_words w
      where length(w.word) >= 3 and not exists (select 1 from name_word_deletes d where d.word = w.word)`.execute(k());
    expect(deletes.rows[0]?.n).toBe(0);
  });
});

describe('the changes these real imports recorded', () => {
  it('read as words in every language: no raw code, no ISO date', async () => {
    expect(await expectRecordedChangesInWords(t.db, t.reference)).toBeGreaterThan(1);
  });
});
