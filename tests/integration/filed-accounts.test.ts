import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfilePage } from '../../app/presenters/profile-page.server.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { chAccountsSource, secIxbrlSource } from '../../core/imports/sources/accounts/accounts-sources.ts';
import type { AppServices } from '../../core/services.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

// Filed accounts (docs/decisions/0037-inline-xbrl-accounts.md "Import and product"): the real
// Companies House and SEC inline XBRL fixtures through the real parser into facts and figures;
// idempotent; a restated figure is one change in the feed; an unknown company is created; a bad
// file is a reject and the rest imports; the profile shows the figures with the filing as source.

const FIXTURES = '/work/shared/fixtures/accounts-ixbrl';
const CROUCH = 'Prod223_2911_00390616_20201231.html';
const DEMO_TV = 'Prod223_2911_05078870_20200930.html';
const SC = 'Prod223_2911_SC312961_20200930.html';
const APPLE = 'aapl-20200926.htm';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(join(tmpdir(), 'registra-accounts-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const k = () => t.db.kysely;

async function companyOf(scheme: string, key: string) {
  return k()
    .selectFrom('company_keys as c')
    .innerJoin('legal_entities as l', 'l.id', 'c.legal_entity_id')
    .select(['l.id', 'l.uri', 'l.name', 'l.jurisdiction_id'])
    .where('c.scheme', '=', scheme)
    .where('c.key', '=', key)
    .executeTakeFirst();
}

async function statements(companyId: number) {
  return k()
    .selectFrom('financial_statements')
    .select([
      'period_end',
      'scope_id',
      'basis_id',
      'revenue',
      'gross_profit',
      'operating_profit',
      'profit_before_tax',
      'profit',
      'total_assets',
      'current_assets',
      'cash',
      'total_liabilities',
      'equity',
      'average_employees',
      'filing_id',
    ])
    .where('legal_entity_id', '=', companyId)
    .orderBy('period_end', 'desc')
    .orderBy('scope_id')
    .execute();
}

async function counts() {
  const row = await sql<Record<string, string>>`select
    (select count(*) from filings) as filings, (select count(*) from filing_facts) as facts,
    (select count(*) from filing_contexts) as contexts, (select count(*) from financial_statements) as statements,
    (select count(*) from company_changes) as changes, (select count(*) from legal_entities) as companies`.execute(k());
  return row.rows[0];
}

describe('importing filed accounts', () => {
  it('creates unknown companies from the filing and keeps every fact and the figures per period and scope', async () => {
    const accounts = join(dir, 'accounts');
    await mkdir(accounts);
    for (const f of [CROUCH, DEMO_TV, SC]) await copyFile(join(FIXTURES, f), join(accounts, f));
    await writeFile(join(accounts, 'broken.html'), '<html><body><p>no inline XBRL here');
    const rejectsPath = join(dir, 'rejects.tsv');
    const summary = await runImport(t.db, chAccountsSource, [accounts], { rejectsPath });
    expect(summary).toMatchObject({ read: 4, new: 3, rejected: 1 });
    const rejects = await readFile(rejectsPath, 'utf8');
    expect(rejects).toContain('broken.html');

    // Leading zeros restored and SC kept; the company created from the filing's own name.
    const crouch = await companyOf('register', 'GB/RA000585/00390616');
    expect(crouch?.name).toBe('MAURICE CROUCH (GROWERS) LTD');
    const scottish = await companyOf('register', 'GB/RA000585/SC312961');
    expect(scottish?.name).toBe('CORINTHIAN EUROPE LIMITED');
    const number = await k()
      .selectFrom('legal_entity_identifiers')
      .select('identifier')
      .where('legal_entity_id', '=', crouch?.id as number)
      .execute();
    expect(number.map((n) => n.identifier)).toContain('00390616');

    // Figures hand-checked against the filing (balance sheet and notes of 31 Dec 2020 and its comparative).
    expect(await statements(crouch?.id as number)).toMatchObject([
      {
        period_end: '2020-12-31',
        scope_id: 1,
        basis_id: 1,
        total_assets: '22925795.00',
        current_assets: '4289294.00',
        cash: '2165.00',
        total_liabilities: '4628497.00',
        equity: '18297298.00',
        average_employees: 21,
        revenue: null,
      },
      { period_end: '2019-12-31', scope_id: 1, basis_id: 2, equity: '18156227.00', average_employees: 23 },
    ]);
    // Company and consolidated figures kept apart (Demo TV's group accounts).
    const demo = await companyOf('register', 'GB/RA000585/05078870');
    const demoRows = await statements(demo?.id as number);
    expect(demoRows.filter((r) => r.period_end === '2020-09-30')).toMatchObject([
      { scope_id: 1, profit: '989528.00', revenue: null, equity: '1262403.00' },
      {
        scope_id: 2,
        revenue: '21444801.00',
        gross_profit: '7472221.00',
        operating_profit: '2245991.00',
        profit_before_tax: '2159151.00',
        profit: '1719447.00',
        equity: '2288664.00',
        average_employees: 138,
      },
    ]);

    // Every fact kept, with its context.
    const filing = await k()
      .selectFrom('filings')
      .selectAll()
      .where('source_name', '=', DEMO_TV)
      .executeTakeFirstOrThrow();
    expect(filing).toMatchObject({ kind: 'ch-accounts', period_end: '2020-09-30', entity_number: '05078870' });
    const facts = await sql<{
      n: string;
    }>`select count(*) as n from filing_facts where filing_id = ${filing.id}`.execute(k());
    expect(Number(facts.rows[0].n)).toBe(filing.fact_count);
    expect(filing.fact_count).toBeGreaterThan(600);
    const turnover = await sql<{ amount: string; period_start: string; period_end: string; dimensions: unknown }>`
      select f.amount, c.period_start, c.period_end, c.dimensions from filing_facts f
      join xbrl_concepts x on x.id = f.concept_id
      join filing_contexts c using (legal_entity_id, filing_id, context_no)
      where f.filing_id = ${filing.id} and x.local_name = 'TurnoverRevenue' and c.period_end = '2020-09-30'`.execute(
      k(),
    );
    expect(turnover.rows.map((r) => Number(r.amount))).toContain(21444801);
    expect(demoRows.every((r) => r.filing_id === filing.id)).toBe(true);

    // The new filings are changes (records.financial_statements) of the import.
    const changes = await k()
      .selectFrom('company_changes')
      .select(['field', 'import_id'])
      .where('legal_entity_id', '=', crouch?.id as number)
      .execute();
    expect(changes.map((c) => c.field)).toEqual(expect.arrayContaining(['company', 'records.financial_statements']));
  });

  it('changes nothing when the same filings come again, as a file, a directory or renamed', async () => {
    const before = await counts();
    const again = await runImport(t.db, chAccountsSource, [join(FIXTURES, CROUCH)]);
    expect(again).toMatchObject({ read: 1, new: 0, unchanged: 1, rejected: 0 });
    // The same bytes under another name are the same filing.
    const renamed = join(dir, 'renamed.html');
    await copyFile(join(FIXTURES, SC), renamed);
    expect(await runImport(t.db, chAccountsSource, [renamed])).toMatchObject({ new: 0, unchanged: 1 });
    const after = await counts();
    expect(after).toEqual(before);
  });

  it('imports an SEC 10-K by CIK, consolidated, and its comparatives fill earlier years', async () => {
    const summary = await runImport(t.db, secIxbrlSource, [join(FIXTURES, APPLE)]);
    expect(summary).toMatchObject({ new: 1, rejected: 0 });
    const apple = await companyOf('sec-cik', '0000320193');
    expect(apple?.name).toBe('Apple Inc.');
    const rows = await statements(apple?.id as number);
    expect(rows.map((r) => [r.period_end, r.scope_id, r.basis_id, r.revenue])).toEqual([
      ['2020-09-26', 2, 1, '274515000000.00'],
      ['2019-09-28', 2, 2, '260174000000.00'],
      ['2018-09-29', 2, 2, '265595000000.00'],
    ]);
    expect(rows[0]).toMatchObject({
      profit: '57411000000.00',
      total_assets: '323888000000.00',
      equity: '65339000000.00',
    });
  });

  it('records a restated figure as one change that reaches /api/changes', async () => {
    const crouch = await companyOf('register', 'GB/RA000585/00390616');
    const start = Number(
      (await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(k())).rows[0].id,
    );
    // An amended filing of the same period: net assets 18,297,298 restated as 18,297,999.
    const html = await readFile(join(FIXTURES, CROUCH), 'utf8');
    const amended = html.replaceAll('18,297,298', '18,297,999');
    expect(amended).not.toBe(html);
    const file = join(dir, 'Prod223_2912_00390616_20201231.html');
    await writeFile(file, amended);
    const summary = await runImport(t.db, chAccountsSource, [file]);
    expect(summary).toMatchObject({ new: 1, rejected: 0 });
    const changes = await k()
      .selectFrom('company_changes')
      .select(['field', 'old_value', 'new_value'])
      .where('id', '>', start)
      .where('legal_entity_id', '=', crouch?.id as number)
      .execute();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      field: 'records.financial_statements',
      old_value: expect.objectContaining({ equity: 18297298 }),
      new_value: expect.objectContaining({ equity: 18297999 }),
    });
    const user = await createSignedInUser(t.db, 'accounts-feed');
    const feed = await t.app.inject({
      method: 'GET',
      url: `/api/changes?since=${start}&company=${crouch?.id}`,
      headers: { cookie: user.cookie },
    });
    expect(feed.statusCode).toBe(200);
    expect(feed.json().data).toEqual([
      expect.objectContaining({
        field: 'records.financial_statements',
        company: expect.objectContaining({ id: crouch?.id }),
      }),
    ]);
  });

  it('shows the figures by year on the profile, with the filing as their source', async () => {
    const demo = await companyOf('register', 'GB/RA000585/05078870');
    const services = {
      db: t.db,
      reference: t.reference,
      siteUrl: 'http://localhost',
      mailer: {} as AppServices['mailer'],
      payments: {} as AppServices['payments'],
    } as AppServices;
    const page = await loadProfilePage(services, 'en', demo?.uri as string);
    if (!page || 'notYet' in page) throw new Error('no profile');
    expect(page.financials?.years.map((y) => [y.year, y.revenue])).toEqual([
      [2019, 19372069],
      [2020, 21444801],
    ]);
    const section = page.records.find((r) => r.id === 'records-financial-statements');
    expect(JSON.stringify(section)).toContain('21,444,801');
    expect(section?.sources).toContain(`Companies House accounts ${DEMO_TV}`);
    // The timeline: one entry a period, not one a scope.
    const statements = page.timeline.filter((e) => e.href === '#records-financial-statements');
    expect(statements.map((e) => e.date)).toEqual(['2020-09-30', '2019-09-30']);
  });

  it('sets the employees band from the latest year the filings state, which the Employees filter finds', async () => {
    const band = async (id: number) =>
      (await k().selectFrom('legal_entities').select('employees_id').where('id', '=', id).executeTakeFirstOrThrow())
        .employees_id;
    // Crouch's 2020 accounts: 21 employees, the band 11-50 (id 2); Demo TV's group: 138 in the
    // consolidated statement, the band 51-200 (id 3), preferred over the company-only one.
    const crouch = await companyOf('register', 'GB/RA000585/00390616');
    const demo = await companyOf('register', 'GB/RA000585/05078870');
    expect(await band(crouch?.id as number)).toBe(2);
    expect(await band(demo?.id as number)).toBe(3);
    const change = await k()
      .selectFrom('company_changes')
      .select(['old_value', 'new_value', 'source'])
      .where('legal_entity_id', '=', crouch?.id as number)
      .where('field', '=', 'employees')
      .execute();
    expect(change).toEqual([{ old_value: null, new_value: '11-50', source: 'ch-accounts' }]);

    // The companies search's Employees filter finds it in its band, not in another.
    const search = async (employees: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/site/data/v1/legal_entities?employees=${employees}&jurisdiction=826&count=100`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((item: { legal_entities: { id: number } }) => item.legal_entities.id);
    };
    expect(await search('11-50')).toContain(crouch?.id);
    expect(await search('51-200')).not.toContain(crouch?.id);
    expect(await search('51-200')).toContain(demo?.id);
    // The company's copy on its records (the statements' Employees column) follows.
    const copies = await k()
      .selectFrom('financial_statements')
      .select('company_employees_id')
      .where('legal_entity_id', '=', crouch?.id as number)
      .execute();
    expect(copies.map((c) => c.company_employees_id)).toEqual(copies.map(() => 2));

    // An older filing (2017, saying 600 employees) imported afterwards leaves the newer band alone.
    const html = await readFile(join(FIXTURES, CROUCH), 'utf8');
    const older = html
      .replaceAll('2019-', '2016-')
      .replaceAll('2020-', '2017-')
      .replace('contextRef="c1" unitRef="u8" decimals="0">21<', 'contextRef="c1" unitRef="u8" decimals="0">600<');
    expect(older).toContain('>600<');
    const file = join(dir, 'Prod223_2911_00390616_20171231.html');
    await writeFile(file, older);
    expect(await runImport(t.db, chAccountsSource, [file])).toMatchObject({ new: 1, rejected: 0 });
    const years = await statements(crouch?.id as number);
    expect(years.find((r) => r.period_end === '2017-12-31')).toMatchObject({ basis_id: 1, average_employees: 600 });
    expect(await band(crouch?.id as number)).toBe(2);
    const changes = await k()
      .selectFrom('company_changes')
      .select('id')
      .where('legal_entity_id', '=', crouch?.id as number)
      .where('field', '=', 'employees')
      .execute();
    expect(changes).toHaveLength(1);
  });
});
