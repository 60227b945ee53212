// The profile's summary, financial chart and timeline, the flags as SVG files, and the
// comparison's "differs" rule (ADR 0022, ADR 0009), through the real pages.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { formatDay } from '../../core/i18n/i18n.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** Text of the page with tags dropped and React's comment markers and entities undone. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** The summary's facts, by their `data-summary` key: label and the text of the value. */
function summaryOf(html: string): Map<string, { label: string; value: string; html: string }> {
  const section = /<section[^>]*class="profile-summary"[\s\S]*?<\/dl>/.exec(html)?.[0] ?? '';
  return new Map(
    [...section.matchAll(/<div data-summary="([^"]+)"><dt>([^<]*)<\/dt><dd>([\s\S]*?)<\/dd><\/div>/g)].map((m) => [
      m[1],
      { label: m[2], value: text(m[3]).trim(), html: m[3] },
    ]),
  );
}

/** The timeline's entries, newest first: date, kind and text. */
function timelineOf(html: string): string[] {
  const list = /<ol class="timeline">([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '';
  return [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => text(m[1]).trim());
}

async function companyWhere(condition: ReturnType<typeof sql>) {
  const row = await sql<{ id: number; uri: string; name: string; jurisdiction_id: number; registered_on: string }>`
    select le.id::int, le.uri, le.name, le.jurisdiction_id, to_char(le.registered_on, 'YYYY-MM-DD') as registered_on
    from legal_entities le where ${condition} order by le.id limit 1`.execute(t.db.kysely);
  const company = row.rows[0];
  if (!company) throw new Error('no such company in the test template');
  return company;
}

describe('the profile summary', () => {
  it('says who the company is above the detail: status since when, age, size, address, identifiers to copy, people', async () => {
    const company = await companyWhere(sql`le.status_id = 1 and le.registered_on is not null
      and exists (select 1 from legal_entity_identifiers i where i.legal_entity_id = le.id and i.identifier_type_id = 2)
      and exists (select 1 from legal_entity_members m where m.legal_entity_id = le.id and m.position_id <> 5)`);
    const html = (await get(`/companies/details/${company.uri}/`)).body;
    const summary = summaryOf(html);
    expect([...summary.keys()].slice(0, 2)).toEqual(['status', 'jurisdiction']);
    expect(summary.get('status')?.value).toBe(`Active since ${formatDay('en', company.registered_on)}`);
    const years = Math.floor(
      (Date.now() - Date.parse(`${company.registered_on}T00:00:00Z`)) / (365.2425 * 24 * 3600 * 1000),
    );
    expect(summary.get('age')?.value).toMatch(new RegExp(`^(${years}|${years - 1}|${years + 1}) years? · registered`));
    // The summary comes before the detail sections.
    expect(html.indexOf('class="profile-summary"')).toBeLessThan(html.indexOf('id="identifiers"'));

    // The company number: selectable text, and a copy button the island shows (hidden without script).
    const number = await sql<{ identifier: string }>`select identifier from legal_entity_identifiers
      where legal_entity_id = ${company.id} and identifier_type_id = 2 order by position limit 1`.execute(t.db.kysely);
    const item = summary.get('identifier-company_number');
    expect(item?.label).toBe('Company number');
    expect(item?.html).toContain(
      `<span id="copy-identifier-company_number" class="copy-value">${number.rows[0].identifier}</span>`,
    );
    expect(item?.html).toMatch(
      /<button type="button" class="copy-button" data-copy="copy-identifier-company_number" data-copied="Copied" aria-label="Copy Company number" hidden="">Copy<\/button>/,
    );
    expect(html).toContain('navigator.clipboard');

    // People: the members who are no company, counted once each.
    const people = await sql<{ n: number }>`select count(distinct m.id)::int as n from legal_entity_members x
      join members m on m.id = x.member_id
      where x.legal_entity_id = ${company.id} and m.taken_down_at is null
        and m.legal_entity_id is null and m.name_type <> 'legal_entity'`.execute(t.db.kysely);
    const n = people.rows[0].n;
    expect(summary.get('people')?.value).toBe(`${n} ${n === 1 ? 'person' : 'people'}`);

    // In German and French, every label translated.
    const de = summaryOf((await get(`/de/companies/details/${company.uri}/`)).body);
    expect(de.get('status')?.value).toBe(`Aktiv seit ${formatDay('de', company.registered_on)}`);
    expect(de.get('age')?.label).toBe('Alter');
    expect(de.get('identifier-company_number')?.label).toBe('Registernummer');
    const fr = summaryOf((await get(`/fr/companies/details/${company.uri}/`)).body);
    expect(fr.get('age')?.label).toBe('Âge');
    expect(fr.get('people')?.label).toBe('Personnes');
  });

  it('dates an inactive company from its dissolution, by its own status name', async () => {
    const company = await companyWhere(
      sql`not exists (select 1 from legal_entity_dates d where d.legal_entity_id = le.id and d.date_type_id = 4)`,
    );
    await sql`update legal_entities set status_id = 3 where id = ${company.id}`.execute(t.db.kysely);
    await t.db.kysely
      .insertInto('legal_entity_dates')
      .values({ legal_entity_id: company.id, date_type_id: 4, date: '2021-06-30' })
      .execute();
    // As every writer does once it has committed: the profile's kept parts (ADR 0040) move on.
    await afterCompanyWrite(t.db, { companies: [company.id], names: [] });
    const summary = summaryOf((await get(`/companies/details/${company.uri}/`)).body);
    expect(summary.get('status')?.value).toBe('Dissolved since 30 Jun 2021');
  });
});

describe('revenue and profit by year', () => {
  it('draws the financial statements as a named chart with its table, a loss below zero', async () => {
    const company = await companyWhere(
      sql`not exists (select 1 from financial_statements f where f.legal_entity_id = le.id)`,
    );
    const eur = [...t.reference.currencies.byId.values()].find((c) => c.uri === 'eur');
    if (!eur) throw new Error('no euro in the reference data');
    const before = (await get(`/companies/details/${company.uri}/`)).body;
    expect(before).not.toContain('data-chart="financials"');
    const statement = (id: number, year: number, revenue: string, profit: string) => ({
      legal_entity_id: company.id,
      id,
      company_jurisdiction_id: company.jurisdiction_id,
      revenue,
      profit,
      currency_id: eur.id,
      report_year: year,
      period_end: `${year}-12-31`,
    });
    await t.db.kysely
      .insertInto('financial_statements')
      .values([
        statement(910_000_001, 2022, '1000000.00', '120000.00'),
        statement(910_000_002, 2023, '1250000.00', '-50000.00'),
      ])
      .execute();
    await afterCompanyWrite(t.db, { companies: [company.id], names: [] });
    const html = (await get(`/companies/details/${company.uri}/`)).body;
    const figure = /<figure class="chart financials-chart" data-chart="financials">[\s\S]*?<\/figure>/.exec(html)?.[0];
    expect(figure).toBeDefined();
    expect(figure).toMatch(/<svg class="chart-svg" role="img" aria-labelledby="[^"]+"/);
    expect(figure).toContain('Revenue and profit by year (EUR)');
    expect(figure).toContain(
      '2022: revenue 1,000,000 EUR, profit 120,000 EUR; 2023: revenue 1,250,000 EUR, profit -50,000 EUR',
    );
    const rows = [
      ...(figure ?? '').matchAll(/<tr><th scope="row">(\d+)<\/th><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g),
    ];
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['2022', '1,000,000 EUR', '120,000 EUR'],
      ['2023', '1,250,000 EUR', '-50,000 EUR'],
    ]);
    // Two columns a year; the profit stands on the zero line, the loss hangs from it.
    const body = figure ?? '';
    expect(body.match(/<rect[^>]*class="chart-revenue"/g)?.length).toBe(2);
    const zero = Number(/<line[^>]*y1="([\d.]+)"[^>]*class="chart-axis"/.exec(body)?.[1]);
    const profits = [
      ...body.matchAll(/<rect[^>]*y="([\d.]+)" width="[\d.]+" height="([\d.]+)" class="chart-profit"/g),
    ].map((m) => [Number(m[1]), Number(m[2])]);
    expect(profits).toHaveLength(2);
    expect(profits[0][0] + profits[0][1]).toBeCloseTo(zero, 0);
    expect(profits[1][0]).toBeCloseTo(zero, 0);
    expect(body).toMatch(/class="chart-tick">-\d/);
    // In German, the caption and headers too.
    const de = (await get(`/de/companies/details/${company.uri}/`)).body;
    expect(de).toContain('Umsatz und Gewinn nach Jahr (EUR)');
  });
});

describe('the timeline', () => {
  it('lists dates, events, documents, filings and name changes newest first, each code by its label', async () => {
    const company = await companyWhere(sql`true`);
    await t.db.kysely
      .insertInto('events')
      .values({
        legal_entity_id: company.id,
        id: 920_000_001,
        event_date: '2099-01-03',
        event_type: 'capital_increase',
        description: null,
      })
      .execute();
    await t.db.kysely
      .insertInto('documents')
      .values({
        legal_entity_id: company.id,
        id: 920_000_002,
        title: 'Order of the court',
        document_type: 'court_order',
        filed_on: '2099-01-02',
      })
      .execute();
    await t.db.kysely
      .insertInto('company_changes')
      .values({
        legal_entity_id: company.id,
        field: 'name',
        old_value: JSON.stringify('Earlier Name Ltd'),
        new_value: JSON.stringify(company.name),
        source: 'gleif-lei',
        source_date: new Date('2099-01-01T00:00:00Z'),
        observed_at: new Date('2099-01-01T06:00:00Z'),
      })
      .execute();
    const html = (await get(`/companies/details/${company.uri}/`)).body;
    const entries = timelineOf(html);
    expect(entries.slice(0, 3)).toEqual([
      '3 Jan 2099 Event Capital increase',
      '2 Jan 2099 Document Court order · Order of the court',
      `1 Jan 2099 Name change Renamed from “Earlier Name Ltd” to “${company.name}”`,
    ]);
    // Registration is among its dates, and entries run newest first.
    const days = [...html.matchAll(/<ol class="timeline">[\s\S]*?<\/ol>/g)].flatMap((list) =>
      [...list[0].matchAll(/<time datetime="([^"]+)"/gi)].map((m) => m[1]),
    );
    expect(days.length).toBe(entries.length);
    expect([...days].sort().reverse()).toEqual(days);
    const timeline = /<section id="timeline"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    for (const code of ['capital_increase', 'court_order']) expect(timeline).not.toContain(code);

    const de = timelineOf((await get(`/de/companies/details/${company.uri}/`)).body);
    expect(de.slice(0, 3)).toEqual([
      '3. Jan. 2099 Ereignis Kapitalerhöhung',
      '2. Jan. 2099 Dokument Court order · Order of the court',
      `1. Jan. 2099 Namensänderung Umbenannt von „Earlier Name Ltd“ in „${company.name}“`,
    ]);
    const fr = timelineOf((await get(`/fr/companies/details/${company.uri}/`)).body);
    expect(fr[0]).toMatch(/^3 janv\. 2099 Événement /);
  });

  it('folds every section with details and summary (no script needed), and lists them in the contents', async () => {
    const company = await companyWhere(sql`true`);
    const html = (await get(`/companies/details/${company.uri}/`)).body;
    for (const id of ['timeline', 'names', 'addresses', 'identifiers', 'members'])
      expect(html).toMatch(
        new RegExp(
          `<section id="${id}" aria-labelledby="${id}-title" class="profile-section"><details open=""><summary><h2 id="${id}-title">`,
        ),
      );
    const contents = /<nav class="profile-toc" aria-label="Contents of the profile">([\s\S]*?)<\/nav>/.exec(html)?.[1];
    expect(contents).toContain('href="#timeline"');
    expect(contents).toContain('href="#members"');
  });
});

describe('flags', () => {
  it('are SVG files beside the country name, never emoji', async () => {
    const gb = await get('/flags/gb.svg');
    expect(gb.statusCode).toBe(200);
    expect(gb.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(gb.body).toMatch(/^<svg/);
    expect(gb.headers['cache-control']).toMatch(/max-age=\d+/);
    for (const bad of ['/flags/zz.svg', '/flags/GB.svg', '/flags/gb.png', '/flags/..%2Fpackage.json', '/flags/gbr.svg'])
      expect((await get(bad)).statusCode, bad).toBe(404);

    const regionalIndicator = /[\u{1F1E6}-\u{1F1FF}]/u;
    for (const url of ['/', '/companies/search/', '/companies/directories/jurisdictions/']) {
      const body = (await get(url)).body;
      expect(body, url).not.toMatch(regionalIndicator);
      expect(body, url).toMatch(/<img class="flag" src="\/flags\/[a-z]{2}\.svg" alt="" width="20" height="15"/);
    }
    const company = await companyWhere(sql`true`);
    const profile = (await get(`/companies/details/${company.uri}/`)).body;
    expect(profile).not.toMatch(regionalIndicator);
    // The image is decorative: the jurisdiction's name is beside it.
    expect(summaryOf(profile).get('jurisdiction')?.html).toMatch(
      /^<img class="flag" src="\/flags\/[a-z]{2}\.svg" alt=""/,
    );
  });
});

describe('the comparison', () => {
  it('marks differing rows, but never identifiers, which always differ', async () => {
    const two = await sql<{ id: number }>`select le.id::int from legal_entities le
      where exists (select 1 from legal_entity_identifiers i where i.legal_entity_id = le.id and i.identifier_type_id = 2)
      order by le.id limit 2`.execute(t.db.kysely);
    const [a, b] = two.rows.map((r) => r.id);
    await sql`update legal_entities set status_id = case when id = ${a} then 1 else 3 end where id in (${a}, ${b})`.execute(
      t.db.kysely,
    );
    const html = (await get('/companies/comparison/', { cookie: `comparison=${a}.${b}` })).body;
    const rows = new Map(
      [...html.matchAll(/<tr (?:class="differs" )?data-row="([^"]+)"/g)].map((m) => [m[1], m[0].includes('differs')]),
    );
    expect(rows.get('status')).toBe(true);
    expect(rows.get('identifier-2')).toBe(false);
    expect([...rows].filter(([key, marked]) => key.startsWith('identifier-') && marked)).toEqual([]);
  });
});
