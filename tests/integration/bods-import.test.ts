import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { controlledBy, groupPage, ownershipOf } from '../../core/ownership/ownership.ts';
import { expectRecordedChangesInWords } from '../support/change-words.ts';
import { CH, PSC } from '../support/ownership-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

// The BODS importer (ADR 0038 "BODS importer") on the standard's own published examples
// (tests/fixtures/bods-examples/PROVENANCE.md: made-up companies and people, copied unchanged). The
// examples' subject companies are put in Registra first by the Companies House importer, from a
// CONSTRUCTED BasicCompanyData file (the real fixture's first row under each example company's name
// and number); the PSC line that overlaps a BODS link is CONSTRUCTED the same way from the real PSC
// sample's first line with the example's person.

const EXAMPLES = new URL('../fixtures/bods-examples/', import.meta.url).pathname;
const example = (file: string) => join(EXAMPLES, file);
const bods = IMPORT_SOURCES.bods;
if (!bods) throw new Error('no bods source');

const JENEX = '03209885';
const MVJ = '08150312';
const CHRINON = '07444723';
const LISTED = 'XE000017';
// indirect-ownership.json's GB-COH ids XE9999 and XE1010, zero-padded to eight as the Companies House files write numbers.
const COMPANY_A = '00XE9999';
const COMPANY_B = '00XE1010';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(join(tmpdir(), 'registra-bods-'));
  const [header, first] = (await readFile(CH, 'utf8')).split('\n') as [string, string];
  const rows = [
    ['JENEX LIMITED', JENEX],
    ['MVJ LIMITED', MVJ],
    ['CHRINON LTD', CHRINON],
    ['Listed Company OS-17', LISTED],
    ['Company A', COMPANY_A],
    ['Company B', COMPANY_B],
  ].map(([name, number]) =>
    first
      .replace('"! LIMITED","12778855"', `"${name}","${number}"`)
      .replace('id/company/12778855', `id/company/${number}`),
  );
  const companies = join(dir, 'BasicCompanyData-2024-11-01-examples.csv');
  await writeFile(companies, `${header}\n${rows.join('\n')}\n`);
  const summary = await runImport(t.db, IMPORT_SOURCES['ch-companies'], [companies]);
  expect(summary.new).toBe(6);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function companyId(number: string): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('company_keys')
    .select('legal_entity_id')
    .where('scheme', '=', 'register')
    .where('key', '=', `GB/RA000585/${number}`)
    .executeTakeFirstOrThrow();
  return Number(row.legal_entity_id);
}

/** The membership rows of a company, as the graph reads them. */
async function membersOf(number: string) {
  return (
    await sql<{
      name: string;
      name_type: string;
      owner_id: string | null;
      natures: string[] | null;
      since: string | null;
      until: string | null;
      source: string | null;
      share_min: string | null;
      share_max: string | null;
      birth_year: number | null;
      birth_month: number | null;
    }>`select m.name, m.name_type, m.legal_entity_id::text as owner_id, x.natures, to_char(x.since, 'YYYY-MM-DD') as since,
        to_char(x.until, 'YYYY-MM-DD') as until, x.source, x.share_min::text, x.share_max::text, m.birth_year, m.birth_month
      from legal_entity_members x join members m on m.id = x.member_id
      where x.legal_entity_id = ${await companyId(number)} order by x.source, m.name`.execute(t.db.kysely)
  ).rows;
}

async function tableCounts() {
  const row = (
    await sql<{ members: string; links: string; changes: string; exceptions: string; records: string }>`select
      (select count(*) from members) as members, (select count(*) from legal_entity_members) as links,
      (select count(*) from company_changes) as changes, (select count(*) from company_reporting_exceptions) as exceptions,
      (select count(*) from company_source_records) as records`.execute(t.db.kysely)
  ).rows[0];
  return row;
}

/** The published BODS 0.4 schema (tests/fixtures/bods-0.4/), draft 2020-12, as ownership.test.ts reads it. */
function bodsValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const folder = new URL('../fixtures/bods-0.4/', import.meta.url);
  const read = (file: string) =>
    JSON.parse(readFileSync(new URL(file, folder), 'utf8').replaceAll('"urn:', '"https://bods.invalid/'));
  for (const file of ['components.json', 'entity-record.json', 'person-record.json', 'relationship-record.json'])
    ajv.addSchema(read(file));
  return ajv.compile(read('statement.json'));
}

async function ownershipApi(id: number) {
  const response = await t.app.inject({ url: `/api/site/data/v1/legal_entities/${id}/ownership` });
  expect(response.statusCode, response.body).toBe(200);
  const statements = response.json() as { recordType: string; recordDetails: Record<string, unknown> }[];
  const validate = bodsValidator();
  expect(validate(statements), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  return statements;
}

describe('import bods: the standard’s 0.4 examples', () => {
  it('an entity owning an entity: a corporate shareholder linked to its company, the parent in the tree', async () => {
    const summary = await runImport(t.db, bods, [example('bods-package-entity-owning-entity.json')]);
    expect(summary).toMatchObject({ read: 1, new: 0, changed: 1, rejected: 0 });
    const mvj = await companyId(MVJ);
    expect(await membersOf(JENEX)).toEqual([
      expect.objectContaining({
        name: 'MVJ LIMITED',
        name_type: 'legal_entity',
        owner_id: String(mvj),
        natures: ['shareholding'],
        source: 'bods',
        // minimum 75, exclusiveMaximum 100
        share_min: '75',
        share_max: '100',
        since: null,
        until: null,
      }),
    ]);
    const jenex = await companyId(JENEX);
    const ownership = await ownershipOf(t.db, jenex);
    expect(ownership.chain).toEqual([
      expect.objectContaining({
        owner: expect.objectContaining({ kind: 'company', id: mvj, name: 'MVJ LIMITED' }),
        relation: 'direct_parent',
        natures: ['shareholding'],
        shareMin: 75,
        shareMax: 100,
        current: true,
        sources: [expect.objectContaining({ source: 'bods' })],
      }),
    ]);
    expect(ownership.chainEnd).toBe('ultimate_parent');
    // The group tree took it through afterCompanyWrite: MVJ's group lists JENEX, from BODS.
    const group = await groupPage(t.db, mvj, { limit: 10 });
    expect(group.nodes).toEqual([
      expect.objectContaining({
        company: expect.objectContaining({ id: jenex }),
        sources: [expect.objectContaining({ source: 'bods' })],
      }),
    ]);
    // The group filter reads the same tree.
    const search = await t.app.inject({ url: `/api/site/data/v1/legal_entities?group_of=${mvj}` });
    expect(search.statusCode, search.body).toBe(200);
    expect(JSON.stringify(search.json())).toContain('JENEX LIMITED');
  });

  it('indirect ownership: the 60 % owner is the parent, the person behind it a beneficial owner of both', async () => {
    const summary = await runImport(t.db, bods, [example('indirect-ownership.json')]);
    expect(summary).toMatchObject({ read: 2, changed: 2, rejected: 0 });
    const a = await companyId(COMPANY_A);
    const b = await companyId(COMPANY_B);
    expect((await membersOf(COMPANY_A)).map((m) => [m.name, m.owner_id, m.natures, m.share_min, m.since])).toEqual([
      ['Company B', String(b), ['shareholding'], '60', '2017-11-01'],
      ['Person 1', null, ['shareholding'], '30', '2017-11-01'],
    ]);
    // An interest without a type: the standard's unknownInterest.
    expect((await membersOf(COMPANY_B)).map((m) => [m.name, m.natures, m.share_min])).toEqual([
      ['Person 1', ['unknownInterest'], null],
    ]);
    const ownership = await ownershipOf(t.db, a);
    expect(ownership.chain.map((l) => [l.owner.kind === 'company' ? l.owner.id : null, l.shareMin])).toEqual([[b, 60]]);
    expect(ownership.beneficialOwners.map((l) => [l.owner.name, l.shareMin, l.shareMax])).toEqual([
      ['Company B', 60, 60],
      ['Person 1', 30, 30],
    ]);
    expect((await groupPage(t.db, b, { limit: 10 })).nodes.map((n) => n.company.id)).toEqual([a]);
  });

  it('the ownership change is in the change feed (monitoring and webhooks read the same changes)', async () => {
    const user = await createSignedInUser(t.db, 'bods-feed');
    const response = await t.app.inject({
      url: `/api/changes?since=0&company=${await companyId(JENEX)}&field=members`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toContainEqual(
      expect.objectContaining({
        old_value: null,
        new_value: [expect.objectContaining({ name: 'MVJ LIMITED', natures: ['shareholding'], shareMin: 75 })],
        source: 'bods',
      }),
    );
  });

  it('answers the imported ownership as BODS 0.4 that validates against the published schema', async () => {
    const statements = await ownershipApi(await companyId(JENEX));
    const relationship = statements.find((s) => s.recordType === 'relationship');
    expect(relationship?.recordDetails.interests).toEqual([
      expect.objectContaining({ type: 'shareholding', share: { minimum: 75, maximum: 100 } }),
    ]);
    expect(relationship).toMatchObject({ source: { type: ['thirdParty'] } });
  });

  it('a listed company exempt from disclosure: a reporting exception with its reason and words', async () => {
    const summary = await runImport(t.db, bods, [example('listed-company-exempt-from-disclosure.json')]);
    expect(summary).toMatchObject({ read: 1, changed: 1, rejected: 0 });
    const listed = await companyId(LISTED);
    const rows = await t.db.kysely
      .selectFrom('company_reporting_exceptions')
      .select(['source', 'reason', 'description'])
      .where('legal_entity_id', '=', listed)
      .execute();
    expect(rows).toEqual([
      {
        source: 'bods',
        reason: 'subjectExemptFromDisclosure',
        description: 'Exempt from disclosure as a company listed on a recognised stock exchange',
      },
    ]);
    expect((await ownershipOf(t.db, listed)).exceptions).toEqual([
      expect.objectContaining({
        relation: 'beneficial_owner',
        reasons: ['subjectExemptFromDisclosure'],
        sources: [expect.objectContaining({ source: 'bods', date: '2019-05-10' })],
      }),
    ]);
    const statements = await ownershipApi(listed);
    expect(statements.find((s) => s.recordType === 'relationship')?.recordDetails.interestedParty).toEqual({
      reason: 'subjectExemptFromDisclosure',
      description: 'Exempt from disclosure as a company listed on a recognised stock exchange',
    });
    // The same example in the 0.3 shape (unspecified interested party) says the same: unchanged.
    const older = await runImport(t.db, bods, [example('0.3-os-17-dr-02-dc-06.json')]);
    expect(older).toMatchObject({ read: 1, changed: 0, unchanged: 1, rejected: 0 });
  });

  it('a subject without an identifier Registra matches on is a reject naming its statement; the rest imports', async () => {
    // bods-package.json's subject has the GB-COH id 2063384560, which is no UK company number.
    const before = await tableCounts();
    const rejectsPath = join(dir, 'package.rejects.tsv');
    const summary = await runImport(t.db, bods, [example('bods-package.json')], { rejectsPath });
    expect(summary).toMatchObject({ read: 1, new: 0, changed: 0, rejected: 1 });
    expect(summary.rejects).toEqual([
      expect.objectContaining({
        unit: 'record',
        at: 3,
        reason: expect.stringContaining('Profitech Ltd has no GB-COH'),
      }),
    ]);
    expect(await readFile(rejectsPath, 'utf8')).toContain('bods-package.json\trecord\t3\t');
    expect(await tableCounts()).toEqual(before);

    // Joint ownership: the arrangement is CHRINON's shareholder (not in Registra: its name only);
    // its own owners are rejected (an arrangement has no identifier to find it by).
    const joint = await runImport(t.db, bods, [example('joint-ownership.json')]);
    expect(joint).toMatchObject({ read: 3, changed: 1, rejected: 2 });
    expect(await membersOf(CHRINON)).toEqual([
      expect.objectContaining({
        name: 'Joint shareholding',
        name_type: 'legal_entity',
        owner_id: null,
        natures: ['shareholding'],
        share_min: '100',
        share_max: '100',
        since: '2018-01-01',
        source: 'bods',
      }),
    ]);
    expect((await ownershipOf(t.db, await companyId(CHRINON))).beneficialOwners).toEqual([
      expect.objectContaining({
        owner: { kind: 'unknown_company', lei: null, name: 'Joint shareholding', country: null },
        shareMin: 100,
      }),
    ]);
  });
});

describe('import bods: a 0.3 file, and a link the PSC register states too', () => {
  it('reads the 0.3 shape and shows a link BODS and the PSC register both state once, with both sources', async () => {
    // 0.3: CHRINON LTD's person with 100 % — replaces what BODS said of CHRINON before (the arrangement).
    const summary = await runImport(t.db, bods, [example('0.3-gb-coh-bods-package.json')]);
    expect(summary).toMatchObject({ read: 1, changed: 1, rejected: 0 });
    // The PSC register states the same person (CONSTRUCTED line: the sample's first, under the example's person).
    const [first] = (await readFile(PSC, 'utf8')).split('\n') as [string];
    const line = JSON.parse(first);
    line.company_number = CHRINON;
    Object.assign(line.data, {
      name: 'Mr Christopher Taggart',
      name_elements: { title: 'Mr', forename: 'Christopher', surname: 'Taggart' },
      date_of_birth: { month: 4, year: 1964 },
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2016-04-06',
    });
    const psc = join(dir, 'psc-chrinon.jsonl');
    await writeFile(psc, `${JSON.stringify(line)}\n`);
    await runImport(t.db, IMPORT_SOURCES['ch-psc'], [psc]);

    // Each source keeps its own row: the PSC import left BODS's, and BODS's the PSC's.
    expect((await membersOf(CHRINON)).map((m) => [m.source, m.name, m.share_min, m.birth_year])).toEqual([
      ['bods', 'Christopher Taggart', '100', 1964],
      ['ch-psc', 'Christopher Taggart', null, 1964],
    ]);
    const chrinon = await companyId(CHRINON);
    const { beneficialOwners } = await ownershipOf(t.db, chrinon);
    expect(beneficialOwners).toHaveLength(1);
    expect(beneficialOwners[0]).toMatchObject({
      owner: { kind: 'person', name: 'Christopher Taggart', birth: '1964-04' },
      start: '2016-04-06',
      current: true,
      natures: ['shareholding', 'ownership-of-shares-75-to-100-percent'],
      sources: [expect.objectContaining({ source: 'bods' }), expect.objectContaining({ source: 'psc' })],
      // BODS says exactly 100 %, the register 75–100 %: said as disagreeing.
      disagreement: 'share',
    });
    // The person page's list (controlledBy) names each source's position.
    const person = beneficialOwners[0]?.owner;
    if (person?.kind !== 'person' || person.id === null) throw new Error('expected a person');
    expect(await controlledBy(t.db, person.id)).toEqual([
      expect.objectContaining({ company: expect.objectContaining({ id: chrinon }), shareMin: 100, current: true }),
    ]);
    const statements = await ownershipApi(chrinon);
    expect(statements.filter((s) => s.recordType === 'person')).toHaveLength(1);
  });

  it('every change the BODS imports recorded reads as words (reports, digests, the feed)', async () => {
    expect(await expectRecordedChangesInWords(t.db, t.reference)).toBeGreaterThanOrEqual(3);
  });

  it('importing the same files again changes nothing', async () => {
    const before = await tableCounts();
    const files = [
      'bods-package-entity-owning-entity.json',
      'listed-company-exempt-from-disclosure.json',
      '0.3-gb-coh-bods-package.json',
    ].map(example);
    const summary = await runImport(t.db, bods, files);
    expect(summary).toMatchObject({ read: 3, new: 0, changed: 0, unchanged: 3, rejected: 0 });
    expect(await tableCounts()).toEqual(before);
  });
});

describe('import bods: a bad file', () => {
  it('lists each bad statement with its line and writes nothing', async () => {
    const before = await tableCounts();
    const membersBefore = await membersOf(JENEX);
    // The entity-owning-entity example as JSON Lines, broken three ways.
    const [entity, owner, relationship] = JSON.parse(
      await readFile(example('bods-package-entity-owning-entity.json'), 'utf8'),
    ) as Record<string, unknown>[];
    const lines = [
      JSON.stringify(entity),
      JSON.stringify(owner).slice(0, -5), // line 2: cut short, not JSON
      JSON.stringify({
        ...(relationship as object),
        statementId: 'unknown-party',
        recordId: 'r2',
        recordDetails: { ...(relationship?.recordDetails as object), interestedParty: 'no-such-record' },
      }),
      JSON.stringify({ ...(relationship as object), statementDate: 20170630 }), // line 4: a number for a date
      JSON.stringify({
        ...(relationship as object),
        recordId: 'r5',
        statementId: 'interests',
        recordDetails: { ...(relationship?.recordDetails as object), interests: 'shareholding' },
      }),
    ];
    const path = join(dir, 'broken.jsonl');
    await writeFile(path, `${lines.join('\n')}\n`);
    const rejectsPath = join(dir, 'broken.rejects.tsv');
    await expect(runImport(t.db, bods, [path], { rejectsPath })).rejects.toThrow(
      /4 statements are not readable.*Nothing of broken\.jsonl was applied/,
    );
    const rejects = (await readFile(rejectsPath, 'utf8')).trim().split('\n').slice(1);
    expect(rejects.map((r) => r.split('\t').slice(0, 3).join(' '))).toEqual([
      'broken.jsonl line 2',
      'broken.jsonl line 3',
      'broken.jsonl line 4',
      'broken.jsonl line 5',
    ]);
    expect(rejects[1]).toContain('its interested party no-such-record is no statement of the file');
    expect(rejects[2]).toContain('statementDate');
    expect(rejects[3]).toContain('interests');
    expect(await tableCounts()).toEqual(before);
    expect(await membersOf(JENEX)).toEqual(membersBefore);
    const failed = await t.db.kysely
      .selectFrom('imports')
      .select(['status', 'message'])
      .where('file_name', '=', 'broken.jsonl')
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
  });

  it('a file that is not BODS is refused at its first statement', async () => {
    await expect(runImport(t.db, bods, [PSC])).rejects.toThrow(/Expected BODS statements.*line 1/);
  });
});
