import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { COMPANY_EXPORT_SECTIONS, EXPORT_ROW_LIMIT, type ExportFormat } from '../../core/export/export-options.ts';
import { postJson } from '../support/accounts.ts';
import { parseStrictCsv, parseStrictXml, readXlsxSheet, type XmlElement } from '../support/export-readers.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { TEMPLATE_SEED } from '../support/test-database.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Export through the API: the gate, parameter checks, every format's content for a
// filtered companies search and a record section, each scope, and the export view settings.
// Files are read with independent readers (tests/support/export-readers.ts).

let t: TestApp;
let a: TestUser;
let b: TestUser;
/** The jurisdiction with the most companies in the template, and its companies' names. */
let jurisdiction: number;
let jurisdictionNames: string[];

beforeAll(async () => {
  t = await buildTestApp({ pages: false, siteUrl: 'https://registra.example' });
  a = await createSignedInUser(t.db, 'export-a');
  b = await createSignedInUser(t.db, 'export-b');
  // Exports spend credits (1 per 100 rows): enough for every download below (billing.test.ts and
  // export-charges below test the charge itself).
  await grantCredits(t.db, a.id, 100_000);
  await grantCredits(t.db, b.id, 100_000);
  const top = await sql<{ id: number }>`
    select jurisdiction_id as id from legal_entities group by 1 order by count(*) desc, 1 limit 1`.execute(t.db.kysely);
  jurisdiction = top.rows[0].id;
  const names = await t.db.kysely
    .selectFrom('legal_entities')
    .select('name')
    .where('jurisdiction_id', '=', jurisdiction)
    .execute();
  jurisdictionNames = names.map((n) => n.name).sort();
});
afterAll(() => t?.close());

function download(url: string, user: TestUser | null = a) {
  return t.app.inject({ url, headers: user ? { cookie: user.cookie } : {} });
}

/** The rows of a download as objects keyed by header (csv, xlsx) or by key (json, xml). */
async function rowsOf(format: ExportFormat, body: Buffer): Promise<Record<string, string>[]> {
  switch (format) {
    case 'csv': {
      const [header, ...records] = parseStrictCsv(body.toString('utf8'));
      return records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    }
    case 'json': {
      const document = JSON.parse(body.toString('utf8'));
      const [key] = Object.keys(document);
      return document[key].map((o: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)])),
      );
    }
    case 'xml': {
      const root = parseStrictXml(body.toString('utf8'));
      expect(root.name).toBe('data');
      expect(root.children).toHaveLength(1);
      return root.children[0].children.map((e: XmlElement) =>
        Object.fromEntries(e.children.map((c) => [c.name, c.text])),
      );
    }
    case 'xlsx': {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(body as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
      const out: Record<string, string>[] = [];
      sheet.eachRow((row, n) => {
        if (n === 1) return;
        const values = row.values as unknown[];
        out.push(
          Object.fromEntries(
            header.map((h, i) => {
              const v = values[i + 1];
              return [
                h,
                v instanceof Date ? v.toISOString().slice(0, 10) : v === undefined || v === null ? '' : String(v),
              ];
            }),
          ),
        );
      });
      return out;
    }
  }
}

describe('the gate and the parameters', () => {
  it('answers a guest 401, whatever the parameters', async () => {
    for (const url of [
      '/api/export/companies',
      '/api/export/companies?format=xlsx',
      '/api/export/vessels?format=pdf',
    ]) {
      const response = await download(url, null);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code).toBe('unauthorized');
    }
  });

  it.each([
    ['format=pdf', 'format'],
    ['format=CSV', 'format'],
    ['separator=pipe', 'separator'],
    ['scope=everything', 'scope'],
    ['scope=first&count=0', 'count'],
    [`scope=first&count=${EXPORT_ROW_LIMIT + 1}`, 'count'],
    ['scope=selected&ids=1,x', 'ids'],
    ['scope=selected', 'ids'],
    ['sections=addresses|secrets', 'sections'],
    ['jurisdiction=abc', 'jurisdiction'],
    ['nonsense=1', 'nonsense'],
    ['format=csv&format=xml', 'format'],
  ])('answers 400 naming the bad parameter (%s)', async (query, parameter) => {
    const response = await download(`/api/export/companies?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    const error = response.json().error;
    expect(error.details.parameter).toBe(parameter);
    expect(error.message).toContain(parameter);
  });

  it('refuses too many ids and an unknown section', async () => {
    const ids = Array.from({ length: EXPORT_ROW_LIMIT + 1 }, (_, i) => i + 1).join(',');
    const tooMany = await download(`/api/export/companies?scope=selected&ids=${ids}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details.parameter).toBe('ids');
    expect((await download('/api/export/spaceships')).statusCode).toBe(404);
  });
});

describe('companies of a filtered search, in every format', () => {
  it.each(['csv', 'json', 'xml', 'xlsx'] as const)('%s holds exactly the matching companies', async (format) => {
    const response = await download(`/api/export/companies?jurisdiction=${jurisdiction}&format=${format}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="registra_legal_entities_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}\\.${format}"$`),
    );
    expect(Number(response.headers['x-export-rows'])).toBe(jurisdictionNames.length);
    const rows = await rowsOf(format, response.rawPayload);
    const nameKey = format === 'json' || format === 'xml' ? 'name' : 'Name';
    expect(rows.map((r) => r[nameKey]).sort()).toEqual(jurisdictionNames);
    // Spec §3 reading: status and jurisdiction on every row; the default sections' columns exist.
    const jurisdictionKey = format === 'json' || format === 'xml' ? 'registry_location_name' : 'Jurisdiction';
    expect(new Set(rows.map((r) => r[jurisdictionKey])).size).toBe(1);
    const registration = format === 'json' || format === 'xml' ? 'dates.registration' : 'Date: Registration';
    expect(rows.some((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[registration] ?? ''))).toBe(true);
  });

  it('CSV uses the chosen separator and quotes everything', async () => {
    const response = await download(`/api/export/companies?jurisdiction=${jurisdiction}&separator=semicolon`);
    const text = response.body;
    expect(text.startsWith('\uFEFF"ID";"Name";"Status";"Jurisdiction"')).toBe(true);
    expect(parseStrictCsv(text, ';')).toHaveLength(jurisdictionNames.length + 1);
  });

  it('structured formats leave empty values out; CSV keeps every column', async () => {
    const json = JSON.parse(
      (await download(`/api/export/companies?jurisdiction=${jurisdiction}&format=json&sections=dates`)).body,
    );
    for (const row of json.legal_entities) {
      for (const value of Object.values(row)) expect(value === null || value === '').toBe(false);
    }
    // Not every company has every date type, so some objects have fewer keys than there are columns.
    const sizes = new Set(json.legal_entities.map((r: object) => Object.keys(r).length));
    expect(sizes.size).toBeGreaterThan(1);
    const csv = parseStrictCsv(
      (await download(`/api/export/companies?jurisdiction=${jurisdiction}&sections=dates`)).body,
    );
    expect(new Set(csv.map((r) => r.length)).size).toBe(1);
  });

  it('adds the chosen data sections; members’ companies are labelled Companies', async () => {
    const sections = 'identifiers|members|specifications|indicators|names|addresses|statuses|employees_number';
    const response = await download(`/api/export/companies?jurisdiction=${jurisdiction}&sections=${sections}`);
    const [header] = parseStrictCsv(response.body);
    for (const label of [
      'Identifier: Company number',
      'Members',
      'Companies',
      'Members: contacts',
      'Indicator: Bankrupt',
      'Legal name',
      'Address: Registered',
      'Statuses',
      'Employees',
    ]) {
      expect(header, label).toContain(label);
    }
    const withoutSections = parseStrictCsv(
      (await download(`/api/export/companies?jurisdiction=${jurisdiction}&sections=`)).body,
    )[0];
    expect(withoutSections).not.toContain('Companies');
    expect(withoutSections.slice(0, 4)).toEqual(['ID', 'Name', 'Status', 'Jurisdiction']);
  });

  it('fills every column for some company: an export of every seeded company with every section', async () => {
    // The contact columns are filled for the companies the exporter bought (ADR 0029): b buys them all.
    await sql`insert into purchases (user_id, legal_entity_id, credits)
      select ${b.id}, id, 1 from legal_entities`.execute(t.db.kysely);
    const response = await download(`/api/export/companies?sections=${COMPANY_EXPORT_SECTIONS.join('|')}`, b);
    const [header, ...records] = parseStrictCsv(response.body);
    expect(records).toHaveLength(TEMPLATE_SEED.companies);
    const empty = header.filter((_, i) => records.every((r) => r[i] === ''));
    expect(empty).toEqual([]);
    // a bought none: their export has the websites, and no email, phone or fax.
    const unbought = parseStrictCsv(
      (await download(`/api/export/companies?sections=${COMPANY_EXPORT_SECTIONS.join('|')}`)).body,
    );
    const emptyUnbought = unbought[0].filter((_, i) => unbought.slice(1).every((r) => r[i] === ''));
    expect(emptyUnbought).toEqual(['Contact: Email', 'Contact: Phone', 'Contact: Fax', 'Members: contacts']);
  });

  it.each(['csv', 'json', 'xml'] as const)(
    '%s exports industries, and each address once (its lines, not the street again)',
    async (format) => {
      const response = await download(`/api/export/companies?format=${format}&sections=addresses|industries`);
      const rows = await rowsOf(format, response.rawPayload);
      const [address, industries, primary] =
        format === 'csv'
          ? ['Address: Registered', 'Industries', 'Primary industry']
          : ['addresses.registered', 'industries', 'industries.primary'];
      const companies = await sql<{ line: string; street: string; code: string }>`
        select a.address_line_1 as line, a.street, i.code from legal_entities le
        join legal_entity_addresses a on a.legal_entity_id = le.id and a.address_type_id = 5
        join industries i on i.id = le.primary_industry_id
        order by le.registration_sort desc, le.id desc`.execute(t.db.kysely);
      expect(rows).toHaveLength(companies.rows.length);
      for (const [n, company] of companies.rows.entries()) {
        // "480 Madison Drive, Unit 1593, Madison Drive 480, Unit 1593, …" named the street twice.
        expect(rows[n][address].startsWith(`${company.line}, `)).toBe(true);
        expect(rows[n][address].split(company.street)).toHaveLength(2);
        expect(rows[n][primary]).toMatch(new RegExp(`^${company.code} `));
        expect(rows[n][industries]).toContain(rows[n][primary]);
      }
    },
  );

  it('XLSX cells are typed: ids as numbers, dates as dates (read without exceljs)', async () => {
    const response = await download(`/api/export/companies?jurisdiction=${jurisdiction}&format=xlsx`);
    const { cells, pane } = await readXlsxSheet(response.rawPayload);
    expect(pane).toMatchObject({ state: 'frozen', ySplit: '1' });
    const a2 = cells.find((c) => c.ref === 'A2');
    expect(a2?.type ?? 'n').toBe('n');
    expect(Number(a2?.value)).toBeGreaterThan(0);
  });
});

describe('a record section', () => {
  it.each(['csv', 'json', 'xml', 'xlsx'] as const)(
    'transactions (%s): the declared fields and company columns of the matching records',
    async (format) => {
      const expected = await t.db.kysely
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_jurisdiction_id', '=', jurisdiction)
        .executeTakeFirstOrThrow();
      const response = await download(`/api/export/transactions?company_jurisdiction=${jurisdiction}&format=${format}`);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-disposition']).toContain('_transactions_');
      const rows = await rowsOf(format, response.rawPayload);
      expect(rows).toHaveLength(Number(expected.n));
      expect(rows.length).toBeGreaterThan(0);
      const structured = format === 'json' || format === 'xml';
      const first = rows[0];
      expect(first[structured ? 'transaction_date' : 'Transaction date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(first[structured ? 'company_legal_name' : 'Company']).toBeTruthy();
      if (format === 'xml') {
        const root = parseStrictXml(response.body);
        expect(root.children[0].name).toBe('transactions');
        expect(root.children[0].children[0].name).toBe('transaction');
      }
    },
  );
});

describe('scopes', () => {
  it('exports the selected rows, in the order given', async () => {
    const picked = await someCompanies(t.db, 3, 40);
    const ids = [picked[2].id, picked[0].id, picked[1].id];
    const json = JSON.parse(
      (await download(`/api/export/companies?format=json&scope=selected&ids=${ids.join('|')}`)).body,
    );
    expect(json.legal_entities.map((r: { id: number }) => r.id)).toEqual(ids);
  });

  it('exports the first N rows of the search in its order, and the current page', async () => {
    const all = JSON.parse((await download(`/api/export/companies?format=json&sort=name_asc`)).body).legal_entities;
    const first = JSON.parse(
      (await download(`/api/export/companies?format=json&sort=name_asc&scope=first&count=7`)).body,
    ).legal_entities;
    expect(first).toHaveLength(7);
    expect(first).toEqual(all.slice(0, 7));
    const page2 = JSON.parse(
      (await download(`/api/export/companies?format=json&sort=name_asc&scope=page&page=2`)).body,
    ).legal_entities;
    expect(page2.map((r: { id: number }) => r.id)).toEqual(all.slice(20, 40).map((r: { id: number }) => r.id));
  });

  it('exports all companies of the search (the template has fewer than the cap)', async () => {
    const response = await download('/api/export/companies');
    const total = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(response.headers['x-export-rows'])).toBe(Number(total.n));
    expect(parseStrictCsv(response.body)).toHaveLength(Number(total.n) + 1);
  });

  it(`stops "all" at ${EXPORT_ROW_LIMIT.toLocaleString('en')} rows (spec §9)`, async () => {
    // Copies of the template's transactions make a record section with more rows than the cap.
    const columns = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_name = 'transactions' and table_schema = current_schema() order by ordinal_position`.execute(
        t.db.kysely,
      )
    ).rows.map((r) => r.name);
    const count = Number(
      (await sql<{ n: number }>`select count(*)::int as n from transactions`.execute(t.db.kysely)).rows[0].n,
    );
    const copies = Math.ceil((EXPORT_ROW_LIMIT + 500) / count);
    const select = columns.map((c) => (c === 'id' ? sql`t.id + g::bigint * 100000000` : sql.ref(`t.${c}`)));
    await sql`insert into transactions (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(select)} from transactions t cross join generate_series(1, ${copies}) g`.execute(t.db.kysely);
    const response = await download('/api/export/transactions?format=xml');
    expect(Number(response.headers['x-export-rows'])).toBe(EXPORT_ROW_LIMIT);
    const root = parseStrictXml(response.body);
    expect(root.children[0].children).toHaveLength(EXPORT_ROW_LIMIT);
    const first = JSON.parse(
      (await download('/api/export/transactions?format=json&scope=first&count=2500')).body,
    ).transactions;
    expect(first).toHaveLength(2500);
    expect(new Set(first.map((r: { id: number }) => r.id)).size).toBe(2500);
  });

  it('exports a company list of the caller, and only theirs', async () => {
    const companies = await someCompanies(t.db, 3, 60);
    const list = (await postJson(t.app, 'POST', `/api/watchlists/users/${a.id}`, { name: 'Export me' }, a)).json()
      .watchlist;
    await postJson(t.app, 'POST', `/api/watchlists/${list.id}/objects`, { object_ids: companies.map((c) => c.id) }, a);
    const response = await download(`/api/export/companies?format=json&list=${list.number}`);
    // Named after the list, not `…legal_entities…`.
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="registra_export-me_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.json"$/,
    );
    const json = JSON.parse(response.body);
    expect(json.legal_entities.map((r: { id: number }) => r.id).sort()).toEqual(companies.map((c) => c.id).sort());
    // Selected rows of a list stay within the list.
    const outside = (await someCompanies(t.db, 1, 100))[0].id;
    const selected = JSON.parse(
      (
        await download(
          `/api/export/companies?format=json&list=${list.number}&scope=selected&ids=${companies[0].id},${outside}`,
        )
      ).body,
    );
    expect(selected.legal_entities.map((r: { id: number }) => r.id)).toEqual([companies[0].id]);
    // Another user naming A's list number finds no list of theirs.
    const other = await download(`/api/export/companies?format=json&list=${list.number}`, b);
    expect(other.statusCode).toBe(404);
  });
});

describe('export view settings', () => {
  it('round-trips: save, list, change, delete; other users and guests are refused', async () => {
    const as = (user: TestUser | null, method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown) =>
      postJson(t.app, method, url, body, user ? user : {});
    const saved = await as(a, 'POST', `/api/export_view_settings/users/${a.id}`, {
      section: 'companies',
      format: 'xml',
      separator: 'tab',
      scope: 'first',
      count: 250,
      sections: ['members', 'dates'],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const setting = saved.json();
    expect(setting).toMatchObject({
      section: 'companies',
      format: 'xml',
      separator: 'tab',
      scope: 'first',
      count: 250,
      // Kept in the declared order.
      sections: ['dates', 'members'],
    });
    // Saving the same section again changes it (one per section); fields left out keep their value.
    const again = (
      await as(a, 'POST', `/api/export_view_settings/users/${a.id}`, { section: 'companies', format: 'json' })
    ).json();
    expect(again).toMatchObject({ id: setting.id, format: 'json', separator: 'tab', count: 250 });
    const listed = (
      await t.app.inject({ url: `/api/export_view_settings/users/${a.id}`, headers: { cookie: a.cookie } })
    ).json();
    expect(listed.count).toBe(1);
    expect(listed.data[0].id).toBe(setting.id);
    const patched = await as(a, 'PATCH', `/api/export_view_settings/${setting.id}`, { scope: 'all', format: 'xlsx' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ scope: 'all', format: 'xlsx', separator: 'tab' });
    const badFormat = await as(a, 'PATCH', `/api/export_view_settings/${setting.id}`, { format: 'pdf' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().error.details.parameter).toBe('format');

    // Another user: 403 on A's user id, 404 on A's setting; a guest: 401.
    const otherList = await t.app.inject({
      url: `/api/export_view_settings/users/${a.id}`,
      headers: { cookie: b.cookie },
    });
    expect(otherList.statusCode).toBe(403);
    expect((await as(b, 'PATCH', `/api/export_view_settings/${setting.id}`, { format: 'csv' })).statusCode).toBe(404);
    expect(
      (await as(b, 'DELETE', '/api/export_view_settings', { export_view_setting_ids: [setting.id] })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/export_view_settings/users/${a.id}` })).statusCode).toBe(401);
    expect(
      (await as(null, 'POST', `/api/export_view_settings/users/${a.id}`, { section: 'companies' })).statusCode,
    ).toBe(401);

    const deleted = await as(a, 'DELETE', '/api/export_view_settings', { export_view_setting_ids: [setting.id] });
    expect(deleted.json()).toEqual({ deleted: 1 });
    const empty = (
      await t.app.inject({ url: `/api/export_view_settings/users/${a.id}`, headers: { cookie: a.cookie } })
    ).json();
    expect(empty.count).toBe(0);
  });
});
