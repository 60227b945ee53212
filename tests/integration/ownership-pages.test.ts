import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { personPath } from '../../core/people/person-path.ts';
import { textOf } from '../support/accounts.ts';
import {
  CH,
  CHILD,
  GROUP,
  MIDDLE,
  OWNERSHIP_RECORDS,
  PSC,
  RR_CSV,
  TOP,
  writeLeiFile,
} from '../support/ownership-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The profile's Ownership section and the person page's "Companies they control" (ADR 0038,
// "Display") through the app, on the real GLEIF relationship fixture (rr-cdf.first50.csv) and the
// Companies House PSC sample. The LEI records are CONSTRUCTED from the fixture's first real record
// under the relationship fixture's LEIs (never presented as real).

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  dir = await mkdtemp(join(tmpdir(), 'registra-ownership-pages-'));
  const path = await writeLeiFile(join(dir, 'lei.xml'), OWNERSHIP_RECORDS);
  await runImport(t.db, IMPORT_SOURCES['gleif-lei'], [path]);
  await runImport(t.db, IMPORT_SOURCES['gleif-rr'], [RR_CSV]);
  await runImport(t.db, IMPORT_SOURCES['ch-companies'], [CH]);
  await runImport(t.db, IMPORT_SOURCES['ch-psc'], [PSC]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function companyOf(scheme: string, key: string) {
  return t.db.kysely
    .selectFrom('company_keys')
    .innerJoin('legal_entities', 'legal_entities.id', 'company_keys.legal_entity_id')
    .select(['legal_entities.id', 'legal_entities.uri'])
    .where('scheme', '=', scheme)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
}

/** The Ownership section of a page's HTML. */
function ownershipHtml(html: string): string {
  const start = html.indexOf('id="ownership"');
  expect(start).toBeGreaterThan(0);
  const end = html.indexOf('</section>', html.indexOf('</details>', start));
  return html.slice(start, end);
}

describe('the Ownership section of a profile', () => {
  it('shows the chain up, each link with its source, and says the parent GLEIF names that Registra lacks', async () => {
    const child = await companyOf('lei', CHILD);
    const middle = await companyOf('lei', MIDDLE);
    const page = await t.app.inject({ url: `/companies/details/${child.uri}/` });
    expect(page.statusCode).toBe(200);
    const section = ownershipHtml(page.body);
    const text = textOf(section);
    // The chain: MIDDLE (a link to its profile), then TOP, named by its LEI and not in Registra.
    expect(section).toContain(`href="/companies/details/${middle.uri}/"`);
    expect(text).toMatch(/MIDDLE GROUP PLC.*Direct parent of CHILD HOLDINGS LIMITED.*Current/s);
    expect(text).toContain('since 23 Aug 2019');
    expect(text).toContain(`Source: GLEIF, ${CHILD}&gt;${MIDDLE}`);
    expect(text).toContain(`LEI ${TOP} · not in Registra`);
    expect(section).toContain('data-chain-end="missing_link"');
    expect(text).toContain(
      `LEI ${TOP} is named as a parent by GLEIF but is not in Registra: the chain cannot be followed further.`,
    );
    // Drawn as the connections graph is: a picture hidden from screen readers, the list beside it.
    expect(section).toMatch(/<svg[^>]*class="graph-svg"[^>]*aria-hidden="true"/);
    // In German too.
    const de = await t.app.inject({ url: `/de/companies/details/${child.uri}/` });
    expect(textOf(ownershipHtml(de.body))).toContain('wird von GLEIF als Muttergesellschaft genannt');
  });

  it('lists the group below level by level, and refuses a level outside the group', async () => {
    const group = await companyOf('lei', GROUP);
    const page = await t.app.inject({ url: `/companies/details/${group.uri}/` });
    const text = textOf(ownershipHtml(page.body));
    expect(text).toContain('7 companies in the group below, 7 of them direct subsidiaries.');
    expect(text).toContain('Showing 7 of 7 subsidiaries at this level.');
    // The list (the picture draws the same names): in name order.
    const list = textOf(page.body.slice(page.body.indexOf('id="ownership-group"')));
    const names = [...list.slice(0, list.indexOf('Showing')).matchAll(/GROUP SUBSIDIARY ([A-G]) LIMITED/g)].map(
      (m) => m[1],
    );
    expect(names).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);

    const middle = await companyOf('lei', MIDDLE);
    const outside = await t.app.inject({ url: `/companies/details/${group.uri}/?group_parent=${middle.id}` });
    expect(outside.statusCode).toBe(400);
    const bad = await t.app.inject({ url: `/companies/details/${group.uri}/?group_parent=abc` });
    expect(bad.statusCode).toBe(400);
    const cursor = await t.app.inject({ url: `/companies/details/${group.uri}/?group_cursor=not-a-cursor` });
    expect(cursor.statusCode).toBe(400);
    const sideways = Buffer.from('["GROUP SUBSIDIARY A LIMITED",1,"sideways"]').toString('base64url');
    const direction = await t.app.inject({ url: `/companies/details/${group.uri}/?group_cursor=${sideways}` });
    expect(direction.statusCode).toBe(400);
  });

  it('shows the beneficial owners from the PSC register, and the person page what they control', async () => {
    const company = await companyOf('register', 'GB/RA000585/08209948');
    const page = await t.app.inject({ url: `/companies/details/${company.uri}/` });
    const text = textOf(ownershipHtml(page.body));
    expect(text).toMatch(/Beneficial owners.*Marc Anthony Feldman.*Beneficial owner.*Shares 75–100 %.*75–100 %/s);
    expect(text).toContain('Companies House (register of persons with significant control)');
    const person = await t.db.kysely
      .selectFrom('members')
      .select(['id', 'name'])
      .where('name', '=', 'Marc Anthony Feldman')
      .executeTakeFirstOrThrow();
    const personPage = await t.app.inject({ url: personPath(person.name, Number(person.id)) });
    expect(personPage.statusCode).toBe(200);
    const start = personPage.body.indexOf('id="controlled-companies"');
    expect(start).toBeGreaterThan(0);
    const controlled = textOf(personPage.body.slice(start, personPage.body.indexOf('</section>', start)));
    expect(controlled).toMatch(/Companies they control \( ?1 ?\)/);
    expect(controlled).toMatch(/Shares 75–100 %.*75–100 %.*Current/s);
    expect(personPage.body.slice(start)).toContain(`href="/companies/details/${company.uri}/"`);
  });

  it('says when nothing is known', async () => {
    const lonely = await t.db.kysely
      .selectFrom('legal_entities')
      .select('uri')
      .where('name', '=', 'AFRINVEST SECURITIES LIMITED')
      .executeTakeFirst();
    const uri = lonely?.uri ?? (await companyOf('register', 'GB/RA000585/12778855')).uri;
    const page = await t.app.inject({ url: `/companies/details/${uri}/` });
    expect(textOf(ownershipHtml(page.body))).toContain(
      'Registra knows no parent, owner or subsidiary of this company.',
    );
  });
});

describe('BODS statements on the profile (ADR 0038 "BODS importer")', () => {
  it('shows a BODS owner and a BODS reporting exception with their source and reason in words', async () => {
    // The standard's own examples (tests/fixtures/bods-examples/PROVENANCE.md); their companies are
    // CONSTRUCTED in Registra from the companies sample's first row under the examples' names and numbers.
    const [header, first] = (await readFile(CH, 'utf8')).split('\n') as [string, string];
    const rows = [
      ['JENEX LIMITED', '03209885'],
      ['MVJ LIMITED', '08150312'],
      ['Listed Company OS-17', 'XE000017'],
    ].map(([name, number]) =>
      first.replace('"! LIMITED","12778855"', `"${name}","${number}"`).replace('company/12778855', `company/${number}`),
    );
    const companies = join(dir, 'BasicCompanyData-2024-11-01-bods.csv');
    await writeFile(companies, `${header}\n${rows.join('\n')}\n`);
    await runImport(t.db, IMPORT_SOURCES['ch-companies'], [companies]);
    const examples = new URL('../fixtures/bods-examples/', import.meta.url).pathname;
    const bods = IMPORT_SOURCES.bods;
    if (!bods) throw new Error('no bods source');
    await runImport(t.db, bods, [
      join(examples, 'bods-package-entity-owning-entity.json'),
      join(examples, 'listed-company-exempt-from-disclosure.json'),
    ]);

    const jenex = await companyOf('register', 'GB/RA000585/03209885');
    const mvj = await companyOf('register', 'GB/RA000585/08150312');
    const owned = textOf(ownershipHtml((await t.app.inject({ url: `/companies/details/${jenex.uri}/` })).body));
    expect(owned).toMatch(/MVJ LIMITED.*Shareholding.*75–100 %/s);
    expect(owned).toContain('Beneficial ownership statement (BODS)');
    const parent = (await t.app.inject({ url: `/companies/details/${mvj.uri}/` })).body;
    expect(ownershipHtml(parent)).toContain(`href="/companies/details/${jenex.uri}/"`);

    const listed = await companyOf('register', 'GB/RA000585/XE000017');
    const exempt = textOf(ownershipHtml((await t.app.inject({ url: `/companies/details/${listed.uri}/` })).body));
    expect(exempt).toMatch(/No beneficial owner named.*the company is exempt from disclosure/s);
  });
});
