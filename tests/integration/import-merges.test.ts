import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

// Merges (docs/decisions/0014-importers.md "Merges"): a record whose keys name two companies merges
// the second into the first; what users keep of it follows, its history is kept, and its URI
// answers 301 with the survivor's profile. Files are CONSTRUCTED from the real fixture's first
// record (another LEI, name and register number): they are never presented as real.

const LEI_FILE = '/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml';
const FIXTURE_LEI = '029200013A5N6ZD0F605';
const FIXTURE_NUMBER = 'RC603315';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  dir = await mkdtemp(join(tmpdir(), 'registra-merges-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** CONSTRUCTED: LEI-CDF files of the fixture's first record under other LEIs, names and register numbers. */
async function leiFile(name: string, records: { lei: string; name: string; number: string }[]): Promise<string> {
  const text = await readFile(LEI_FILE, 'utf8');
  const start = text.indexOf('<lei:LEIRecord>');
  const template = text.slice(start, text.indexOf('</lei:LEIRecord>') + '</lei:LEIRecord>'.length);
  const body = records
    .map((r) =>
      template
        .replaceAll(FIXTURE_LEI, r.lei)
        .replace('AFRINVEST SECURITIES LIMITED</lei:LegalName>', `${r.name}</lei:LegalName>`)
        .replaceAll(FIXTURE_NUMBER, r.number),
    )
    .join('\n');
  const path = join(dir, name);
  await writeFile(
    path,
    `${text.slice(0, text.indexOf('<lei:LEIRecords>'))}<lei:LEIRecords>\n${body}\n</lei:LEIRecords>\n</lei:LEIData>\n`,
  );
  return path;
}

const companyOfKey = (scheme: string, key: string) =>
  t.db.kysely
    .selectFrom('company_keys')
    .innerJoin('legal_entities as l', 'l.id', 'company_keys.legal_entity_id')
    .select(['l.id', 'l.uri', 'l.name'])
    .where('scheme', '=', scheme)
    .where('key', '=', key)
    .executeTakeFirst();

describe('merging companies that an import finds to be one', () => {
  it('merges the company of the second key into the first, keeps its users’ data and history, and redirects its URI', async () => {
    const first = { lei: '5493001KJTIIGC8Y1R12', name: 'MERGE TEST ALPHA LIMITED', number: 'RC-MERGE-1' };
    const second = { lei: '5493001KJTIIGC8Y1R13', name: 'MERGE TEST BETA LIMITED', number: 'RC-MERGE-2' };
    const made = await runImport(t.db, gleifLei, [await leiFile('two.xml', [first, second])]);
    expect(made).toMatchObject({ new: 2, rejected: 0 });
    const alpha = (await companyOfKey('lei', first.lei))!;
    const beta = (await companyOfKey('lei', second.lei))!;
    expect(alpha.id).not.toBe(beta.id);

    // A user tracks and lists the company that will be merged away; another tracks both.
    const user = await createSignedInUser(t.db, 'merge-user');
    const both = await createSignedInUser(t.db, 'merge-both');
    const as = (u: typeof user, url: string, body: unknown) =>
      postJson(t.app, 'POST', url, body, { cookie: u.cookie, csrf: u.csrf });
    expect((await as(user, `/api/existing_objects_tracking/users/${user.id}`, { object_id: beta.id })).statusCode).toBe(
      201,
    );
    for (const id of [alpha.id, beta.id])
      await as(both, `/api/existing_objects_tracking/users/${both.id}`, { object_id: id });
    const list = (await as(user, `/api/watchlists/users/${user.id}`, { name: 'Merges' })).json().watchlist;
    await as(user, `/api/watchlists/${list.id}/objects`, { object_ids: [beta.id] });

    // The register number of the first with the LEI of the second: the two are one.
    const merged = await runImport(t.db, gleifLei, [
      await leiFile('one.xml', [{ ...second, number: first.number, name: 'MERGE TEST ALPHA LIMITED' }]),
    ]);
    expect(merged.rejected).toBe(0);
    expect(
      await t.db.kysely.selectFrom('legal_entities').select('id').where('id', '=', beta.id).executeTakeFirst(),
    ).toBe(undefined);
    expect((await companyOfKey('lei', second.lei))?.id).toBe(alpha.id);
    expect((await companyOfKey('lei', first.lei))?.id).toBe(alpha.id);

    const tracked = (uid: number) =>
      t.db.kysely
        .selectFrom('existing_objects_tracking')
        .select('legal_entity_id')
        .where('user_id', '=', uid)
        .execute()
        .then((rows) => rows.map((r) => Number(r.legal_entity_id)));
    expect(await tracked(user.id)).toEqual([alpha.id]);
    expect(await tracked(both.id)).toEqual([alpha.id]);
    const listed = await t.db.kysely
      .selectFrom('watchlist_objects')
      .select('legal_entity_id')
      .where('watchlist_id', '=', list.id)
      .execute();
    expect(listed.map((r) => Number(r.legal_entity_id))).toEqual([alpha.id]);

    const history = await sql<{ field: string; old_value: { uri: string } | null }>`select field, old_value
      from company_changes where legal_entity_id = ${alpha.id} order by id`.execute(t.db.kysely);
    // The merged company's own history (its appearance) now belongs to the survivor, then the merge.
    expect(history.rows.filter((r) => r.field === 'company')).toHaveLength(2);
    expect(history.rows.map((r) => r.field)).toContain('merged');
    expect(history.rows.find((r) => r.field === 'merged')?.old_value?.uri).toBe(beta.uri);

    for (const lang of ['', '/de']) {
      const response = await t.app.inject({ url: `${lang}/companies/details/${beta.uri}/` });
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(`${lang}/companies/details/${alpha.uri}/`);
    }
    expect((await t.app.inject({ url: `/companies/details/${alpha.uri}/` })).statusCode).toBe(200);

    // Importing the same file again finds one company and changes nothing.
    const again = await runImport(t.db, gleifLei, [
      await leiFile('one-again.xml', [{ ...second, number: first.number, name: 'MERGE TEST ALPHA LIMITED' }]),
    ]);
    expect(again).toMatchObject({ new: 0, changed: 0, unchanged: 1 });
  });
});
