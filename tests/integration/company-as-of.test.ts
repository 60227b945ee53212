import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGAL_ENTITY_SECTIONS } from '../../core/api/legal-entity-schemas.ts';
import { rebuildCompany } from '../../core/companies/as-of.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// A company as of a day (docs/decisions/0028-company-as-of.md): a sequence of real imports of the
// GLEIF LEI-CDF fixture, each observed on a day the test sets; after each, the data API's answer
// is kept; then the answer `as_of` each day equals the one kept that day. Later versions of the
// fixture are CONSTRUCTED by editing a copy of it (a rename, a move, a lapsed status, a new company).

const LEI_FILE = '/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml';
const AFRINVEST = '029200013A5N6ZD0F605';
const NEWCOMER = '529900NEWCOMER000042';
const DATA = '/api/site/data/v1/legal_entities';
const SECTIONS = LEGAL_ENTITY_SECTIONS.join('|');

let t: TestApp;
let dir: string;
let afrinvest: { id: number; uri: string };
let newcomer: { id: number; uri: string };
/** The data API's answer for AFRINVEST after each import, by the day it was observed. */
const snapshots = new Map<string, unknown>();

const get = (url: string) => t.app.inject({ method: 'GET', url });

async function companyOfLei(lei: string) {
  const row = await sql<{ id: number; uri: string }>`select l.id::int as id, l.uri from company_keys k
    join legal_entities l on l.id = k.legal_entity_id where k.scheme = 'lei' and k.key = ${lei}`.execute(t.db.kysely);
  return row.rows[0];
}

/** Imports a version of the file and says it was observed at `at` (the changes, their provenance). */
async function importObserved(file: string, at: string): Promise<void> {
  const summary = await runImport(t.db, gleifLei, [file]);
  const id = summary.importIds[0] as number;
  await sql`update company_changes set observed_at = ${new Date(at)} where import_id = ${id}`.execute(t.db.kysely);
  await sql`update imports set started_at = ${new Date(at)} where id = ${id}`.execute(t.db.kysely);
}

async function apiAnswer(id: number, asOf?: string) {
  const response = await get(`${DATA}?id=${id}&sections=${SECTIONS}${asOf ? `&as_of=${asOf}` : ''}`);
  return { status: response.statusCode, body: response.json() };
}

/** CONSTRUCTED: the fixture with AFRINVEST's record edited, and optionally a new record made from it. */
async function version(
  name: string,
  edits: [string, string][],
  extra?: { lei: string; name: string },
): Promise<string> {
  let text = await readFile(LEI_FILE, 'utf8');
  const start = text.indexOf('<lei:LEIRecord>');
  const end = text.indexOf('</lei:LEIRecord>') + '</lei:LEIRecord>'.length;
  let record = text.slice(start, end);
  const original = record;
  for (const [from, to] of edits) {
    expect(record).toContain(from);
    record = record.replace(from, to);
  }
  const added = extra
    ? `\n${original
        .replaceAll(AFRINVEST, extra.lei)
        .replace('AFRINVEST SECURITIES LIMITED</lei:LegalName>', `${extra.name}</lei:LegalName>`)
        .replace('RC603315', 'RC999042')}`
    : '';
  text = text.slice(0, start) + record + added + text.slice(end);
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  dir = await mkdtemp(join(tmpdir(), 'registra-as-of-'));

  await importObserved(LEI_FILE, '2026-01-10T12:00:00Z');
  afrinvest = await companyOfLei(AFRINVEST);
  snapshots.set('2026-01-10', (await apiAnswer(afrinvest.id)).body);

  await importObserved(
    await version('v2.xml', [
      ['AFRINVEST SECURITIES LIMITED</lei:LegalName>', 'AFRINVEST SECURITIES PLC</lei:LegalName>'],
      [
        '<lei:FirstAddressLine>27 GERRARD ROAD</lei:FirstAddressLine>',
        '<lei:FirstAddressLine>1 BROAD STREET</lei:FirstAddressLine>',
      ],
      ['<lei:EntityStatus>ACTIVE</lei:EntityStatus>', '<lei:EntityStatus>INACTIVE</lei:EntityStatus>'],
      [
        '<lei:LastUpdateDate>2018-08-02T15:23:46Z</lei:LastUpdateDate>',
        '<lei:LastUpdateDate>2026-03-01T09:00:00Z</lei:LastUpdateDate>',
      ],
    ]),
    '2026-03-05T23:59:59Z',
  );
  snapshots.set('2026-03-05', (await apiAnswer(afrinvest.id)).body);

  await importObserved(
    await version(
      'v3.xml',
      [
        ['AFRINVEST SECURITIES LIMITED</lei:LegalName>', 'AFRINVEST CAPITAL PLC</lei:LegalName>'],
        [
          '<lei:FirstAddressLine>27 GERRARD ROAD</lei:FirstAddressLine>',
          '<lei:FirstAddressLine>1 BROAD STREET</lei:FirstAddressLine>',
        ],
        [
          '<lei:LastUpdateDate>2018-08-02T15:23:46Z</lei:LastUpdateDate>',
          '<lei:LastUpdateDate>2026-05-01T09:00:00Z</lei:LastUpdateDate>',
        ],
      ],
      { lei: NEWCOMER, name: 'NEWCOMER HOLDINGS PLC' },
    ),
    '2026-05-20T00:00:00Z',
  );
  snapshots.set('2026-05-20', (await apiAnswer(afrinvest.id)).body);
  newcomer = await companyOfLei(NEWCOMER);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the data API as of a day', () => {
  it('answers each day as the company stood after that day’s import', async () => {
    // The imports changed the company between the snapshots (else the test proves nothing).
    const names = [...snapshots.values()].map(
      (s) => (s as { data: { legal_entities: { name: string } }[] }).data[0]?.legal_entities.name,
    );
    expect(names).toEqual(['AFRINVEST SECURITIES LIMITED', 'AFRINVEST SECURITIES PLC', 'AFRINVEST CAPITAL PLC']);
    for (const [day, snapshot] of snapshots) {
      const answer = await apiAnswer(afrinvest.id, day);
      expect(answer.status, day).toBe(200);
      expect(answer.body, day).toEqual(snapshot);
    }
    // A day between imports is the earlier one's; today is as now.
    expect((await apiAnswer(afrinvest.id, '2026-04-30')).body).toEqual(snapshots.get('2026-03-05'));
    expect((await apiAnswer(afrinvest.id, new Date().toISOString().slice(0, 10))).body).toEqual(
      (await apiAnswer(afrinvest.id)).body,
    );
  });

  it('is a 404 naming as_of for a company that had not appeared yet, and leaves it out of a list', async () => {
    const before = await apiAnswer(newcomer.id, '2026-05-19');
    expect(before.status).toBe(404);
    expect(before.body.error).toMatchObject({ details: { parameter: 'as_of' } });
    expect(before.body.error.message).toMatch(/did not exist yet on 2026-05-19/);
    expect((await apiAnswer(newcomer.id, '2026-05-20')).status).toBe(200);
    const list = await get(`${DATA}?le_le_id=${afrinvest.id}|${newcomer.id}&as_of=2026-03-05`);
    expect(list.json().data.map((d: { legal_entities: { id: number } }) => d.legal_entities.id)).toEqual([
      afrinvest.id,
    ]);
  });

  it('refuses a date that is not one or is to come, and as_of with a search, naming as_of', async () => {
    for (const bad of ['2026-02-30', 'yesterday', '2026-1-5', '2999-01-01']) {
      const response = await get(`${DATA}?id=${afrinvest.id}&as_of=${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.details.parameter, bad).toBe('as_of');
    }
    const search = await get(`${DATA}?q=afrinvest&as_of=2026-03-05`);
    expect(search.statusCode).toBe(400);
    expect(search.json().error.details.parameter).toBe('as_of');
  });
});

describe('the profile as of a day', () => {
  const profile = (query = '') => get(`/companies/details/${afrinvest.uri}/${query}`);

  it('shows the company as it was, with a banner linking to today’s and a date picker', async () => {
    const response = await profile('?as_of=2026-03-05');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('This profile shows the company as Registra knew it on 5 Mar 2026');
    expect(html).toMatch(new RegExp(`<a href="/companies/details/${afrinvest.uri}/">see today&#x27;s</a>`));
    expect(html).toMatch(/<input type="date"[^>]*name="as_of" value="2026-03-05"/);
    expect(html).toContain('<h1>AFRINVEST SECURITIES PLC</h1>');
    expect(html).toContain('1 BROAD STREET');
    expect(html).not.toContain('AFRINVEST CAPITAL PLC</h1>');
    // Before the second import: the name and the address as first imported.
    const first = (await profile('?as_of=2026-02-01')).body;
    expect(first).toContain('<h1>AFRINVEST SECURITIES LIMITED</h1>');
    expect(first).not.toContain('1 BROAD STREET');
    // Today's profile has the date picker and no banner, and is not the as-of page kept for its address.
    const today = (await profile()).body;
    expect(today).toContain('<h1>AFRINVEST CAPITAL PLC</h1>');
    expect(today).toMatch(/<input type="date"[^>]*name="as_of"/);
    expect(today).not.toContain('as Registra knew it on');
    // The as-of page is today's page's past: not indexed, its canonical address today's.
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000/companies/details/${afrinvest.uri}/"/>`);
    expect(today).not.toContain('noindex');
  });

  it('speaks German and French', async () => {
    const de = (await get(`/de/companies/details/${afrinvest.uri}/?as_of=2026-03-05`)).body;
    expect(de).toContain('Dieses Profil zeigt das Unternehmen, wie Registra es am');
    const fr = (await get(`/fr/companies/details/${afrinvest.uri}/?as_of=2026-03-05`)).body;
    expect(fr).toContain('Ce profil montre l&#x27;entreprise telle que Registra la connaissait le');
  });

  it('is a 400 naming as_of for a date that is not one', async () => {
    for (const bad of ['2026-13-01', 'soon', '2999-01-01']) {
      const response = await profile(`?as_of=${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.body, bad).toContain('as_of');
    }
  });

  it('says a company did not exist yet on a day before it appeared', async () => {
    const response = await get(`/companies/details/${newcomer.uri}/?as_of=2026-05-19`);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('NEWCOMER HOLDINGS PLC did not exist yet on 19 May 2026');
  });
});

describe('the compare view', () => {
  it('lists each field changed between two days, before at from and after at to', async () => {
    const response = await get(`/companies/details/${afrinvest.uri}/compare/?from=2026-01-10&to=2026-05-20`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const row = (field: string) =>
      new RegExp(`<tr data-field="${field.replace('.', '\\.')}">(.*?)</tr>`).exec(html)?.[1];
    // The name changed twice: before at from, after at to.
    expect(row('name')).toMatch(/AFRINVEST SECURITIES LIMITED<\/td><td>AFRINVEST CAPITAL PLC/);
    expect(row('addresses.legal')).toMatch(/27 GERRARD ROAD.*<\/td><td>1 BROAD STREET/);
    // The status went to inactive and back: no change between the two days.
    expect(row('status')).toBeUndefined();
    expect(html).toContain('On 10 Jan 2026');
    // One day only: the second import's changes.
    const one = (await get(`/companies/details/${afrinvest.uri}/compare/?from=2026-01-10&to=2026-03-05`)).body;
    expect(/data-field="status"/.test(one)).toBe(true);
  });

  it('is reached from the History tab by a form of two days', async () => {
    const html = (await get(`/companies/details/${afrinvest.uri}/history/`)).body;
    expect(html).toContain(`action="/companies/details/${afrinvest.uri}/compare/"`);
    expect(html).toMatch(/<input type="date"[^>]*name="from"/);
    expect(html).toContain('Compare two days');
  });

  it('is a 400 naming the parameter for a bad or reversed range', async () => {
    const bad = await get(`/companies/details/${afrinvest.uri}/compare/?from=2026-02-31`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('from');
    const reversed = await get(`/companies/details/${afrinvest.uri}/compare/?from=2026-05-01&to=2026-01-01`);
    expect(reversed.statusCode).toBe(400);
  });
});

describe('rebuildCompany on the parts no GLEIF file changes', () => {
  it('gives back the members of the positions a change wrote, keeping the links of those still there', async () => {
    const r = t.reference;
    const director = r.positions.byUri.get('director')?.id as number;
    const shareholder = r.positions.byUri.get('shareholder')?.id as number;
    const member = (id: number, name: string, position: number) => ({
      member_id: id,
      position_id: position,
      since: null,
      name,
      name_type: 'individual' as const,
      first_name: null,
      middle_name: null,
      last_name: null,
      postfix: null,
      country_id: null,
      company_id: null,
      company_uri: null,
      company_name: null,
      natures: null,
    });
    const now = {
      id: 1,
      uri: 'x-1',
      name: 'X',
      jurisdiction_id: 1,
      kind_id: null,
      size_id: null,
      employees_id: null,
      status_id: null,
      primary_industry_id: null,
      registered_on: null,
      members: [member(7, 'ANNE NEW', director), member(8, 'BOB STAYS', director), member(9, 'CARL', shareholder)],
    };
    const fact = (name: string) => ({ name, kind: 'individual', position: 'director', since: '2020-01-01' });
    const rebuilt = rebuildCompany(
      now,
      [
        {
          id: 2,
          field: 'members',
          old_value: [fact('BOB STAYS'), fact('DORA GONE')],
          new_value: [fact('ANNE NEW'), fact('BOB STAYS')],
          source: 'ch-psc',
          source_date: null,
          observed_at: new Date('2026-02-01T00:00:00Z'),
        },
      ],
      r,
    );
    expect(rebuilt.members.map((m) => [m.name, m.member_id, m.position_id])).toEqual([
      ['BOB STAYS', 8, director],
      ['DORA GONE', 0, director],
      ['CARL', 9, shareholder],
    ]);
    // The company given is left as it was.
    expect(now.members.map((m) => m.name)).toEqual(['ANNE NEW', 'BOB STAYS', 'CARL']);
  });
});
