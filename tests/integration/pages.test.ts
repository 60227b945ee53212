import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { findCompanies } from '../../core/companies/find-companies.ts';
import { de } from '../../core/i18n/de.ts';
import { en } from '../../core/i18n/en.ts';
import { fr } from '../../core/i18n/fr.ts';
import { profileCredits } from '../../core/purchases/purchases.ts';
import { displayName } from '../../core/reference/reference-data.ts';
import { commonNameWord } from '../support/name-words.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

const resultCount = (html: string) => /id="results-count"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';

/** Text of the cells of one column of the results table, in order (without the town a card shows under a name). */
function column(html: string, key: string): string[] {
  return [...html.matchAll(new RegExp(`<td data-column="${key}"[^>]*>(.*?)</td>`, 'g'))].map((m) =>
    m[1]
      .replace(/<span class="row-town"[^>]*>.*?<\/span>/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&')
      .trim(),
  );
}

describe('home', () => {
  it('shows the four sections and sample company cards', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    for (const heading of [
      'Solutions for growth',
      'Tools for productivity',
      'Data you won&#x27;t find anywhere else',
      'Use cases',
    ]) {
      expect(res.body).toContain(heading);
    }
    expect(res.body.match(/class="card"/g)?.length).toBe(6);
    expect(res.body).toMatch(/href="\/companies\/details\/[^"]+\/"/);
  });
});

describe('record section columns', () => {
  it("are labelled as the spec lists them: the company named only beside a record's own name or jurisdiction", async () => {
    const headers = async (url: string) =>
      [...(await get(url)).body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(await headers('/connections/search/')).toEqual([
      'Name',
      'Position',
      'Email',
      'Phone',
      'Company legal name',
      'Company jurisdiction',
    ]);
    expect((await headers('/contacts/search/')).slice(-5)).toEqual([
      'Legal name',
      'Jurisdiction',
      'Primary industry',
      'Employees',
      'Size',
    ]);
  });
});

describe('companies search', () => {
  it('lists all companies newest registration first, with the spec columns', async () => {
    const res = await get('/companies/search/');
    expect(res.statusCode).toBe(200);
    for (const label of [
      'Legal name',
      'Company number',
      'Status',
      'Jurisdiction',
      'Registration date',
      'Primary industry',
      'Size',
    ]) {
      // A sortable column's header is a link to its sort (ADR 0022).
      expect(res.body).toMatch(new RegExp(`<th scope="col"[^>]*>(<a [^>]*>)?${label}<`));
    }
    expect(res.body).toContain(
      '<th scope="col" aria-sort="descending"><a href="/companies/search/?sort=registration_date_asc"',
    );
    expect(res.body).toContain('<th scope="col"><a href="/companies/search/?sort=name_asc"');
    expect(res.body).toContain('<th scope="col">Company number</th>');
    const total = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(res.body).toContain(`${Number(total.n)} companies`);
    const newest = await t.db.kysely
      .selectFrom('legal_entities')
      .select('name')
      .orderBy('registration_sort', 'desc')
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    expect(column(res.body, 'legal_name')).toEqual(newest.map((r) => r.name));
  });

  it('filters by jurisdiction through the readable path and the query parameter alike', async () => {
    const top = await sql<{ jurisdiction_id: number; n: number }>`
      select jurisdiction_id, count(*)::int as n from legal_entities group by 1 order by 2 desc limit 1`.execute(
      t.db.kysely,
    );
    const { jurisdiction_id: id, n } = top.rows[0];
    const location = t.reference.locations.byId.get(id)!;
    const byPath = await get(`/companies/search/f/jurisdiction-${location.uri}-${id}/`);
    expect(byPath.statusCode).toBe(200);
    expect(byPath.body).toContain(`${n} compan`);
    const names = column(byPath.body, 'jurisdiction');
    expect(names.length).toBe(Math.min(20, n));
    for (const name of names) expect(name).toContain(displayName(location));
    const byQuery = await get(`/companies/search/?jurisdiction=${id}`);
    expect(column(byQuery.body, 'legal_name')).toEqual(column(byPath.body, 'legal_name'));
    expect(byQuery.body).toContain(
      `<link rel="canonical" href="http://localhost:3000/companies/search/f/jurisdiction-${location.uri}-${id}/"/>`,
    );
  });

  it('filters by status, size and registration years, and pages with a cursor', async () => {
    const res = await get('/companies/search/?status=1&dates[registration]:from=2000&dates[registration]:to=2020');
    expect(res.statusCode).toBe(200);
    const expected = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status_id', '=', 1)
      .where('registered_on', '>=', '2000-01-01')
      .where('registered_on', '<=', '2020-12-31')
      .executeTakeFirstOrThrow();
    expect(res.body).toContain(`${Number(expected.n)} compan`);
    for (const status of column(res.body, 'status')) expect(status).toBe('Active');
    const link = /<a [^>]*rel="next"[^>]*>/.exec(res.body)?.[0] ?? '';
    const next = /href="([^"]+)"/.exec(link)?.[1].replace(/&amp;/g, '&');
    expect(next).toContain('after=');
    const page2 = await get(next!);
    const first = new Set(column(res.body, 'legal_name'));
    const second = column(page2.body, 'legal_name');
    expect(second.length).toBeGreaterThan(0);
    for (const name of second) expect(first.has(name)).toBe(false);
  });

  it('finds a company by name, without its legal form, with an accent dropped and with a typo', async () => {
    const company = await t.db.kysely
      .selectFrom('legal_entities')
      .select(['name', 'search_name'])
      .where(sql<boolean>`length(search_name) between 10 and 40 and search_name like '% %'`)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const exact = await get(`/companies/search/?q=${encodeURIComponent(company.name)}`);
    expect(column(exact.body, 'legal_name')[0]).toBe(company.name);
    const plain = await get(`/companies/search/?q=${encodeURIComponent(company.search_name)}`);
    expect(column(plain.body, 'legal_name').slice(0, 5)).toContain(company.name);
    const words = company.search_name.split(' ');
    const long = words.findIndex((w) => w.length >= 5);
    if (long >= 0) {
      const w = words[long];
      words[long] = `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`;
      const typo = await get(`/companies/search/?q=${encodeURIComponent(words.join(' '))}`);
      expect(column(typo.body, 'legal_name').slice(0, 5)).toContain(company.name);
    }
  });

  it('pages a name query by relevance: following Next shows every match once, in the order of one page', async () => {
    const { word, companies } = await commonNameWord(t);
    expect(companies).toBeGreaterThan(20);
    const state = { q: word, filters: [], sort: 'relevance', page: 1 };
    const whole = await findCompanies(t.db, t.reference, state, 100);
    expect(whole.rows).toHaveLength(companies);
    const shown: string[] = [];
    let url: string | null = `/companies/search/?q=${word}`;
    for (let pages = 0; url && pages < 10; pages++) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      shown.push(
        ...[...res.body.matchAll(/<td data-column="legal_name"[^>]*><a href="\/companies\/details\/([^/"]+)\//g)].map(
          (m) => decodeURIComponent(m[1]),
        ),
      );
      url = /<a href="([^"]+)" rel="next">/.exec(res.body)?.[1].replaceAll('&amp;', '&') ?? null;
    }
    expect(shown).toEqual(whole.rows.map((row) => row.uri));
  });

  it('answers bad parameters with a 400 page naming them', async () => {
    const res = await get('/companies/search/?bogus=1');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('unknown parameter bogus');
    expect((await get('/companies/search/?dates[registration]:from=20x0')).statusCode).toBe(400);
    expect((await get('/companies/search/?jurisdiction=99999999')).statusCode).toBe(400);
    expect((await get('/companies/search/f/nonsense-1/')).statusCode).toBe(400);
  });

  it('shows the search again for a bound the panel cannot take: the field marked, the other filters kept (400)', async () => {
    const bad = '2020-13-45';
    const others = `q=and&status=${t.reference.statuses.items[0].id}&dates[registration]:to=2021`;
    const kept = await get(`/companies/search/?${others}`);
    const res = await get(`/companies/search/?${others}&dates[registration]:from=${bad}`);
    expect(res.statusCode).toBe(400);
    expect(resultCount(res.body)).toBe(resultCount(kept.body));
    expect(column(res.body, 'legal_name')).toEqual(column(kept.body, 'legal_name'));
    const panel = /<aside class="filter-panel">(.*?)<\/aside>/s.exec(res.body)?.[1] ?? '';
    expect(panel).toContain('role="alert"');
    const from = /<input [^>]*name="dates\[registration\]:from"[^>]*>/.exec(panel)?.[0] ?? '';
    expect(from).toContain(`value="${bad}"`);
    expect(from).toContain('aria-invalid="true"');
    expect(panel).toContain(en.search.invalidDate.replace('{{min}}', '1000').replace('{{max}}', '9999'));
    expect(/<input [^>]*name="dates\[registration\]:to"[^>]*>/.exec(panel)?.[0]).toContain('value="2021"');
    expect(panel).toMatch(/<input type="checkbox" name="[^"]+" checked="" value="[^"]+"\/>/);
    expect(/<input id="q"[^>]*>/.exec(res.body)?.[0]).toContain('value="and"');
    // In the reader's language; a record section's amount the same way.
    const german = await get(`/de/companies/search/?dates[registration]:from=${bad}`);
    expect(german.statusCode).toBe(400);
    expect(german.body).toContain(de.search.invalidDate.replace('{{min}}', '1000').replace('{{max}}', '9999'));
    const amount = await get('/fr/real-estate/search/?category=commercial&sale_amount:from=12abc');
    expect(amount.statusCode).toBe(400);
    expect(amount.body).toContain(fr.search.invalidAmount);
    expect(amount.body).toContain('<input type="checkbox" name="category" checked="" value="commercial"/>');
    // Anything else is still the page naming the parameter; the data API keeps its JSON 400.
    expect((await get(`/companies/search/?dates[registration]:from=${bad}&bogus=1`)).statusCode).toBe(400);
    const api = await get(`/api/site/data/v1/legal_entities?dates[registration]:from=${bad}`);
    expect(api.statusCode).toBe(400);
    expect(api.body).toContain('dates[registration]:from');
  });

  it('is complete without JavaScript: no framework scripts, GET forms for search, filters, sort and table view', async () => {
    const res = await get('/companies/search/?q=bank');
    expect(res.body).not.toMatch(/<script[^>]+src=/);
    expect(res.body).not.toContain('modulepreload');
    // The page's own forms: the header's search box is one more (tests/integration/header-search.test.ts).
    const main = /<main[\s\S]*<\/main>/.exec(res.body)?.[0] ?? '';
    const forms = main.match(/<form [^>]*>/g) ?? [];
    expect(forms.filter((f) => f.includes('action="/companies/search/"') && f.includes('method="get"')).length).toBe(4);
  });

  it('drills down the industry filter: each chosen sector offers its sub-industries, several at once (OR)', async () => {
    const [sector, second] = t.reference.industries.items.filter((i) => i.level === 1 && i.children.length > 1);
    const res = await get(`/companies/search/?industry=${sector.id}&industry=${second.id}`);
    expect(res.statusCode).toBe(200);
    const boxes = /<legend>Industry<\/legend>(.*?)<\/fieldset>/s.exec(res.body)?.[1] ?? '';
    const box = (id: number, checked = false) =>
      `<input type="checkbox" name="industry"${checked ? ' checked=""' : ''} value="${id}"/>`;
    expect(boxes).toContain(box(sector.id, true));
    expect(boxes).toContain(box(second.id, true));
    for (const child of [...sector.children, ...second.children]) expect(boxes).toContain(box(child));
    const other = t.reference.industries.items.find(
      (i) => i.level === 2 && i.parent_id !== sector.id && i.parent_id !== second.id,
    )!;
    expect(boxes).not.toContain(box(other.id));
    // The two values are one filter: companies of either sector (one chip naming both).
    const either = await get(`/companies/search/?industry=${sector.id}|${second.id}`);
    expect(resultCount(either.body)).toBe(resultCount(res.body));
    expect(res.body).toContain(' | ');
  });

  it('keeps the rest of the search in each form: query, sort, filters the form does not edit', async () => {
    const res = await get(
      '/companies/search/?q=bank&status=1&dates[registration]:from=2000&identifiers[lei]:is_known=&sort=name_asc',
    );
    expect(res.statusCode).toBe(200);
    const forms = [...res.body.matchAll(/<form [^>]*class="([^"]+)"[^>]*>(.*?)<\/form>/gs)];
    const hidden = (cls: string) =>
      [...(forms.find((f) => f[1] === cls)?.[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)]
        .map((m) => `${m[1]}=${m[2]}`)
        .sort();
    expect(hidden('sort')).toEqual([
      'dates[registration]:from=2000',
      'identifiers[lei]:is_known=',
      'q=bank',
      'status=1',
    ]);
    expect(hidden('search-bar')).toEqual(['dates[registration]:from=2000', 'identifiers[lei]:is_known=', 'status=1']);
    const panel = /<aside class="filter-panel">(.*?)<\/aside>/s.exec(res.body)?.[1] ?? '';
    const panelHidden = [...panel.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)]
      .map((m) => m[1])
      .sort();
    expect(panelHidden).toEqual(['identifiers[lei]:is_known', 'q', 'sort']);
  });

  it('shows a long list shortened: the chosen values and the most found, and a link to a page with all of them (ADR 0043)', async () => {
    const counts = await sql<{ id: number; n: number }>`
      select jurisdiction_id as id, count(*)::int as n from legal_entities group by 1 order by 2 desc, 1`.execute(
      t.db.kysely,
    );
    const all = counts.rows.map((r) => String(r.id));
    expect(all.length).toBeGreaterThan(24);
    const status = t.reference.statuses.items[0].id;
    // The jurisdiction with the fewest companies, chosen: it shows (ticked) though few companies have it.
    const rare = all[all.length - 1];
    const res = await get(`/companies/search/?status=${status}&jurisdiction=${rare}`);
    expect(res.statusCode).toBe(200);
    const fieldset = (html: string, legend: string) =>
      new RegExp(`<legend>${legend}</legend>(.*?)</fieldset>`, 's').exec(html)?.[1] ?? '';
    const boxes = (html: string, name: string) =>
      [...html.matchAll(new RegExp(`<input type="checkbox" name="${name}"( checked="")? value="([^"]+)"/>`, 'g'))].map(
        (m) => ({ value: m[2], checked: m[1] !== undefined }),
      );
    const jurisdiction = boxes(fieldset(res.body, 'Jurisdiction'), 'jurisdiction');
    // Eight besides the chosen one (fewer when this search's facet holds it).
    expect(jurisdiction.length).toBeGreaterThanOrEqual(8);
    expect(jurisdiction.length).toBeLessThanOrEqual(9);
    expect(jurisdiction.filter((b) => b.checked).map((b) => b.value)).toEqual([rare]);
    // With no filter the facet counts every company: the eight shown are those with the most companies.
    const eighth = counts.rows[7].n;
    const plain = boxes(fieldset((await get('/companies/search/')).body, 'Jurisdiction'), 'jurisdiction');
    expect(plain.length).toBe(8);
    for (const b of plain) expect(counts.rows.find((r) => String(r.id) === b.value)!.n).toBeGreaterThanOrEqual(eighth);
    const more = /<a href="([^"]+)" class="more-choices" data-more-choices="choices-jurisdiction">([^<]+)<\/a>/.exec(
      fieldset(res.body, 'Jurisdiction'),
    );
    expect(more?.[2]).toBe(`All ${all.length} choices`);
    expect(more?.[1]).toBe(`/companies/search/choices/jurisdiction/?status=${status}&amp;jurisdiction=${rare}`);
    // The ultimate parent's countries: the countries with most companies first, eight of them.
    const parents = boxes(fieldset(res.body, 'Ultimate parent in'), 'ultimate_parent_in');
    expect(parents.length).toBe(8);
    expect(fieldset(res.body, 'Ultimate parent in')).toContain('All 250 choices');
    // Short lists are whole and link nowhere.
    expect(fieldset(res.body, 'Status')).not.toContain('more-choices');
    expect(boxes(fieldset(res.body, 'Status'), 'status').length).toBe(t.reference.statuses.items.length);

    // The page of the link: every jurisdiction, the chosen one ticked, in a GET form to the search that keeps the rest.
    const page = await get(more![1].replace(/&amp;/g, '&'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Jurisdiction: every choice — Registra</title>');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    const whole = boxes(page.body, 'jurisdiction');
    expect(whole.map((b) => b.value).sort()).toEqual([...all].sort());
    expect(whole.filter((b) => b.checked).map((b) => b.value)).toEqual([rare]);
    expect(page.body).toContain('<div id="choices-jurisdiction" class="choices choices-long">');
    const form =
      /<form class="filter-panel" action="\/companies\/search\/" method="get">(.*?)<\/form>/s.exec(page.body)?.[1] ??
      '';
    expect(
      [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`),
    ).toEqual([`status=${status}`]);
    expect(page.body).toContain(`href="/companies/search/?status=${status}&amp;jurisdiction=${rare}"`);
    // In the reader's language, and for a record section's list.
    const german = await get(`/de/companies/search/?jurisdiction=${rare}`);
    expect(german.body).toContain(`Alle ${all.length} Möglichkeiten`);
    expect(german.body).toContain(`href="/de/companies/search/choices/jurisdiction/?jurisdiction=${rare}"`);
    expect((await get('/de/companies/search/choices/jurisdiction/')).body).toContain(`${de.search.backToSearch}</a>`);
    // Not a list of the section's panel: 404; a bad parameter: the 400 page naming it.
    expect((await get('/companies/search/choices/nothing/')).statusCode).toBe(404);
    expect((await get('/companies/search/choices/q/')).statusCode).toBe(404);
    expect((await get('/nothing/search/choices/jurisdiction/')).statusCode).toBe(404);
    const bad = await get('/companies/search/choices/jurisdiction/?bogus=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('bogus');
  });

  it('shows an empty state when nothing matches', async () => {
    const res = await get('/companies/search/?q=zzzzqqqqxxxx');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No companies match this search.');
  });
});

describe('company profile', () => {
  it('shows every section of the company, and links members to their other companies', async () => {
    const row = await sql<{ uri: string; name: string; identifier: string }>`
      select le.uri, le.name, i.identifier from legal_entities le
      join legal_entity_identifiers i on i.legal_entity_id = le.id
      where exists (select 1 from legal_entity_members m where m.legal_entity_id = le.id)
      order by le.id limit 1`.execute(t.db.kysely);
    const { uri, name, identifier } = row.rows[0];
    const res = await get(`/companies/details/${uri}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<h1>${name.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')}</h1>`);
    expect(res.body).toContain(identifier);
    for (const id of [
      'names',
      'addresses',
      'dates',
      'identifiers',
      'industries',
      'indicators',
      'shares',
      'specifications',
      'contacts',
      'members',
    ]) {
      expect(res.body).toContain(`id="${id}"`);
    }
    expect(res.body).toMatch(/<title>.+ — Registra<\/title>/);
  });

  it('lists each of a company’s documents once', async () => {
    // The seed once filed a year's confirmation statement twice (two draws of the same year).
    const twice = await sql<{ legal_entity_id: number }>`select legal_entity_id from documents
      group by legal_entity_id, title having count(*) > 1 limit 5`.execute(t.db.kysely);
    expect(twice.rows).toEqual([]);
    const many = await sql<{ uri: string }>`select le.uri from legal_entities le
      join documents d on d.legal_entity_id = le.id group by le.id, le.uri order by count(*) desc, le.id limit 3`.execute(
      t.db.kysely,
    );
    for (const { uri } of many.rows) {
      const html = (await get(`/companies/details/${uri}/`)).body;
      const section = html.match(/<section[^>]* id="records-documents"[\s\S]*?<\/section>/)?.[0] ?? '';
      const rows = [...section.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1].replace(/<[^>]+>/g, '|'));
      expect(rows.length).toBeGreaterThan(2);
      expect([uri, rows.length]).toEqual([uri, new Set(rows).size]);
    }
  });

  it('marks advanced profiles (a related list of 10 or more items)', async () => {
    const row = await sql<{ uri: string }>`
      select le.uri from legal_entities le
      where (select count(*) from legal_entity_members m where m.legal_entity_id = le.id) >= 10
         or (select count(*) from legal_entity_identifiers m where m.legal_entity_id = le.id) >= 10
         or (select count(*) from legal_entity_contacts m where m.legal_entity_id = le.id) >= 10
      limit 1`.execute(t.db.kysely);
    expect(row.rows.length).toBe(1);
    expect((await get(`/companies/details/${row.rows[0].uri}/`)).body).toContain('Advanced profile');
  });

  it('marks a profile advanced, and prices it so, when its only large list is a record section', async () => {
    // A company that is plain by every list: badge absent, priced 1 credit.
    const candidates = await sql<{ id: number; uri: string; jurisdiction_id: number }>`
      select id, uri, jurisdiction_id from legal_entities order by id desc limit 20`.execute(t.db.kysely);
    let plain: (typeof candidates.rows)[number] | undefined;
    for (const c of candidates.rows) {
      if (!(await get(`/companies/details/${c.uri}/`)).body.includes('Advanced profile')) {
        plain = c;
        break;
      }
    }
    if (!plain) throw new Error('the template has no plain profile among its last 20 companies');
    expect(await profileCredits(t.db, Number(plain.id))).toBe(1);
    // Ten bank accounts: the only list of ten.
    await t.db.kysely
      .insertInto('bank_accounts')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          legal_entity_id: plain.id,
          id: 900_000_000 + i,
          company_jurisdiction_id: plain.jurisdiction_id,
          opened_on: '2020-01-01',
        })),
      )
      .execute();
    // As every writer does once it has committed (the profile's kept parts move on, ADR 0040).
    await afterCompanyWrite(t.db, { companies: [Number(plain.id)], names: [] });
    expect((await get(`/companies/details/${plain.uri}/`)).body).toContain('Advanced profile');
    expect(await profileCredits(t.db, Number(plain.id))).toBe(2);
  });

  it("sends a profile address with the right id and a wrong or old slug to the company's own, for good", async () => {
    const row = await sql<{ id: number; uri: string }>`select id, uri from legal_entities order by id limit 1`.execute(
      t.db.kysely,
    );
    const { id, uri } = row.rows[0];
    for (const [wrong, lang] of [
      [`old-name-${id}`, ''],
      [String(id), ''],
      [`${uri.split('-')[0]}-${id}`, '/de'],
    ]) {
      if (wrong === uri) continue;
      const res = await get(`${lang}/companies/details/${wrong}/`);
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe(`${lang}/companies/details/${uri}/`);
    }
    // An id no company has, and a slug with no id, stay 404.
    expect((await get('/companies/details/old-name-999999999/')).statusCode).toBe(404);
    expect((await get(`/companies/details/${uri.replace(/-\d+$/, '')}/`)).statusCode).toBe(404);
  });

  it("names documents and events in the reader's language, never by their raw codes", async () => {
    const row = await sql<{ id: number; uri: string }>`
      select id, uri from legal_entities order by id limit 1 offset 7`.execute(t.db.kysely);
    const { id, uri } = row.rows[0];
    // Filed on the last day the seed knows, so that they are among the five the profile shows.
    await t.db.kysely
      .insertInto('documents')
      .values([
        {
          legal_entity_id: id,
          id: 900_000_001,
          title: 'Confirmation statement',
          document_type: 'annual_return',
          filed_on: '2099-01-01',
        },
        {
          legal_entity_id: id,
          id: 900_000_002,
          title: 'Order of 2 January',
          document_type: 'court_order',
          filed_on: '2099-01-02',
        },
      ])
      .execute();
    await t.db.kysely
      .insertInto('events')
      .values({
        legal_entity_id: id,
        id: 900_000_003,
        event_date: '2099-01-01',
        event_type: 'capital_increase',
        description: null,
      })
      .execute();
    const en = (await get(`/companies/details/${uri}/`)).body;
    const de = (await get(`/de/companies/details/${uri}/`)).body;
    for (const body of [en, de])
      for (const code of ['annual_return', 'capital_increase', 'court_order']) expect(body).not.toContain(code);
    for (const text of ['Annual return', 'Capital increase', 'Court order']) expect(en).toContain(text);
    for (const text of ['Jahresmeldung', 'Kapitalerhöhung']) expect(de).toContain(text);
  });

  it('is a real 404 for an unknown company and an unknown page', async () => {
    const res = await get('/companies/details/no-such-company-0/');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('There is no company at this address.');
    expect((await get('/no/such/page/')).statusCode).toBe(404);
    expect((await get('/xx/companies/search/')).statusCode).toBe(404);
    // Section pages are routed by a :section segment; one that names no section is the same 404.
    for (const path of [
      '/no-such-section/search/',
      '/no-such-section/search/advanced/',
      '/no-such-section/search/f/status-active/',
      '/no-such-section/export/',
      '/de/no-such-section/search/',
      '/dashboard/search/',
    ]) {
      const page = await get(path);
      expect(page.statusCode, path).toBe(404);
      expect(page.body, path).toContain(path.startsWith('/de/') ? de.errors.notFoundTitle : en.errors.notFoundTitle);
    }
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toMatch(/^User-agent: \*\nDisallow: \/api\/$/m);
    const api = await get('/api/no/such/route');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('directories', () => {
  it('lists jurisdictions with counts that add up to all companies', async () => {
    const res = await get('/companies/directories/jurisdictions/');
    expect(res.statusCode).toBe(200);
    const counts = [...res.body.matchAll(/<span class="count">([\d,]+)<\/span>/g)].map((m) =>
      Number(m[1].replace(/,/g, '')),
    );
    const total = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(total.n));
    expect(res.body).toMatch(/href="\/companies\/search\/f\/jurisdiction-[a-z0-9-]+-\d+\/"/);
  });

  it('lists industries by sector and drills down to sub-industries', async () => {
    const res = await get('/companies/directories/industries/');
    expect(res.statusCode).toBe(200);
    const link = /href="(\/companies\/directories\/industries\/f\/[a-z0-9-]+-\d+\/)"/.exec(res.body)?.[1];
    expect(link).toBeDefined();
    const sector = await get(link!);
    expect(sector.statusCode).toBe(200);
    expect(sector.body).toContain('Sub-industries');
    expect((await get('/companies/directories/industries/f/nothing-1/')).statusCode).toBe(404);
  });
});

describe('metadata and languages', () => {
  it('gives each page canonical, hreflang alternates, Open Graph and Twitter tags', async () => {
    for (const path of [
      '/',
      '/companies/search/',
      '/companies/directories/industries/',
      '/de/companies/directories/jurisdictions/',
      '/companies/comparison/',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      const body = res.body;
      expect(body).toContain(`<link rel="canonical" href="http://localhost:3000${path}"/>`);
      const bare = path.replace(/^\/de/, '');
      for (const [lang, prefix] of [
        ['en', ''],
        ['de', '/de'],
        ['fr', '/fr'],
        ['x-default', ''],
      ]) {
        expect(body).toContain(
          `<link rel="alternate" hrefLang="${lang}" href="http://localhost:3000${prefix}${bare}"/>`,
        );
      }
      expect(body).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      expect(body).toMatch(/<meta name="twitter:card" content="summary"\/>/);
      expect(body).toMatch(/<meta name="description" content="[^"]+"\/>/);
    }
  });

  it('serves German and French under their prefix', async () => {
    const de = await get('/de/companies/search/');
    expect(de.body).toContain('<html lang="de">');
    expect(de.body).not.toContain('<th scope="col">Legal name</th>');
    const fr = await get('/fr/');
    expect(fr.body).toContain('<html lang="fr">');
  });

  it('redirects page paths without a trailing slash', async () => {
    const res = await get('/companies/search?q=bank');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/companies/search/?q=bank');
  });
});
