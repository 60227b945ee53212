// The related-record sections through the built app: filtered paths, facets, the table view
// cookie, the profile's record lists, and the records data API against SQL on the same data.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { industryPath } from '../../core/reference/reference-data.ts';
import { groupCounts } from '../../core/search/facets.ts';
import { parseSearchState } from '../../core/search/search-state.ts';
import { SECTIONS, sectionById } from '../../core/sections/sections.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.db.kysely)).rows[0].n;

/** Text of the cells of one column of the results table, in order. */
function column(html: string, key: string): string[] {
  return [...html.matchAll(new RegExp(`<td data-column="${key}"[^>]*>(.*?)</td>`, 'g'))].map((m) =>
    m[1].replace(/<[^>]+>/g, '').trim(),
  );
}

const resultCount = (html: string) => /id="results-count"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';

describe('filtered paths (spec §2)', () => {
  it('real estate by jurisdiction and by category, as readable paths', async () => {
    const top = await sql<{ id: number; n: number }>`
      select jurisdiction_id as id, count(*)::int as n from real_estate group by 1 order by 2 desc limit 1`.execute(
      t.db.kysely,
    );
    const { id, n } = top.rows[0];
    const uri = t.reference.locations.byId.get(id)!.uri;
    const byJurisdiction = await get(`/real-estate/search/f/jurisdiction-${uri}-${id}/`);
    expect(byJurisdiction.statusCode).toBe(200);
    expect(resultCount(byJurisdiction.body)).toBe(`${n.toLocaleString('en-GB')} record${n === 1 ? '' : 's'}`);

    const commercial = await count(sql`select count(*)::int as n from real_estate where category_id = 2`);
    const byCategory = await get('/real-estate/search/f/category-commercial-2/');
    expect(byCategory.statusCode).toBe(200);
    expect(resultCount(byCategory.body)).toContain(commercial.toLocaleString('en-GB'));
    for (const cell of column(byCategory.body, 'category')) expect(cell).toBe('Commercial');
  });

  it('contacts by type, industry and address, alone and combined', async () => {
    const pick = await sql<{ industry: number; address: number }>`
      select company_industry_id as industry, address_id as address from contacts
      where email is not null group by 1, 2 order by count(*) desc limit 1`.execute(t.db.kysely);
    const { industry, address } = pick.rows[0];
    const industryUri = t.reference.industries.byId.get(industry)!.uri;
    const addressUri = t.reference.locations.byId.get(address)!.uri;
    const expected = await count(sql`
      select count(*)::int as n from contacts
      where email is not null and company_industry_id = ${industry} and address_id = ${address}`);
    const combined = await get(
      `/contacts/search/f/type-email/industry-${industryUri}-${industry}/address-${addressUri}-${address}/`,
    );
    expect(combined.statusCode).toBe(200);
    expect(resultCount(combined.body)).toContain(String(expected));
    const emails = column(combined.body, 'email');
    expect(emails.length).toBe(Math.min(expected, 20));
    expect(combined.body).not.toContain('data-column="phone"');
    // The type by its name, in the title as in the filters ("Email", not the code "email").
    expect(combined.body).toMatch(/<title>[^<]*Contact type: Email[^<]*<\/title>/);
    expect((await get('/de/contacts/search/f/type-email/')).body).toMatch(/<title>[^<]*E-Mail[^<]*<\/title>/);

    for (const path of [`type-phone`, `industry-${industryUri}-${industry}`, `address-${addressUri}-${address}`]) {
      expect((await get(`/contacts/search/f/${path}/`)).statusCode, path).toBe(200);
    }
    expect((await get('/contacts/search/f/type-pigeon/')).statusCode).toBe(400);
  });
});

describe('unfiltered totals', () => {
  it('are the whole table, from the facet cube', async () => {
    const companies = await count(sql`select count(*)::int as n from legal_entities`);
    expect(resultCount((await get('/companies/search/')).body)).toBe(`${companies.toLocaleString('en-GB')} companies`);
    const vessels = await count(sql`select count(*)::int as n from vessels`);
    expect(resultCount((await get('/vessels/search/')).body)).toBe(`${vessels.toLocaleString('en-GB')} records`);
  });
});

/** The links of each facet of a search page, as a browser reads them. */
function facetLinks(html: string): string[][] {
  const nav = /<nav class="facets"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<ul[^>]*>(.*?)<\/ul>/gs)].map((facet) =>
    [...facet[1].matchAll(/<a href="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&')),
  );
}

describe('facets', () => {
  for (const section of SECTIONS) {
    it(`link, on ${section.id}, to searches that parse, answer 200 and select the value linked`, async () => {
      const page = await get(`/${section.id}/search/`);
      expect(page.statusCode).toBe(200);
      const facets = facetLinks(page.body);
      expect(facets.length).toBe(section.facets.length);
      for (const links of facets) {
        expect(links.length).toBeGreaterThan(0);
        // Every link is a search the page's own parser accepts (the path form included)…
        for (const link of links) {
          const url = new URL(link, 'http://localhost');
          const rest = url.pathname.slice(`/${section.id}/search/`.length);
          const segments = rest.startsWith('f/') ? rest.slice(2).split('/').filter(Boolean) : [];
          expect(parseSearchState(section, url.searchParams, segments), link).toMatchObject({ ok: true });
        }
        // …and the first of each facet is requested (each request renders a page with its facets;
        // ~900 links in all would take the suite half a minute): 200, the value followed marked current.
        const narrowed = await get(links[0]);
        expect(narrowed.statusCode, links[0]).toBe(200);
        expect(narrowed.body, links[0]).toMatch(/<a href="[^"]+" aria-current="true">/);
      }
    });
  }

  it('count each value as SQL does, and follow the other filters', async () => {
    const all = await get('/vessels/search/');
    const types = await sql<{ id: number; n: number }>`
      select vessel_type_id as id, count(*)::int as n from vessels group by 1`.execute(t.db.kysely);
    const vesselType = sectionById('vessels')!.record!.fields.find((f) => f.key === 'vessel_type')!;
    const facet = /<h3 id="facet-vessel_type">.*?<\/ul>/s.exec(all.body)?.[0] ?? '';
    for (const { id, n } of types.rows) {
      const label = vesselType.values!.find((v) => v.id === id)!.label.en;
      expect(facet).toContain(`<span class="facet-label">${label}</span> <span class="facet-count">${n}</span>`);
    }

    const active = await get('/vessels/search/?company_status=1');
    const activeTypes = await sql<{ id: number; n: number }>`
      select vessel_type_id as id, count(*)::int as n from vessels where company_status_id = 1 group by 1`.execute(
      t.db.kysely,
    );
    const activeFacet = /<h3 id="facet-vessel_type">.*?<\/ul>/s.exec(active.body)?.[0] ?? '';
    for (const { id, n } of activeTypes.rows) {
      const label = vesselType.values!.find((v) => v.id === id)!.label.en;
      expect(activeFacet).toContain(`<span class="facet-label">${label}</span> <span class="facet-count">${n}</span>`);
    }
    // A filter that is not a facet value: counted from the matching rows.
    const recent = await get('/vessels/search/?registration_date:from=2015&company_status=1');
    const recentTypes = await sql<{ id: number; n: number }>`
      select vessel_type_id as id, count(*)::int as n from vessels
      where registration_date >= '2015-01-01' and company_status_id = 1 group by 1`.execute(t.db.kysely);
    const recentFacet = /<h3 id="facet-vessel_type">.*?<\/ul>/s.exec(recent.body)?.[0] ?? '';
    expect(recentTypes.rows.length).toBeGreaterThan(0);
    for (const { id, n } of recentTypes.rows) {
      const label = vesselType.values!.find((v) => v.id === id)!.label.en;
      expect(recentFacet).toContain(`<span class="facet-label">${label}</span> <span class="facet-count">${n}</span>`);
    }
    // A facet value links to the search narrowed to it, keeping the other filters.
    expect(activeFacet).toMatch(/href="\/vessels\/search\/\?company_status=1&amp;vessel_type=[a-z_]+"/);
  });

  it('count a companies search the cube cannot answer (a registration range) as SQL does, industries by sector', async () => {
    const page = await get('/companies/search/?dates[registration]:from=2000&status=1');
    expect(page.statusCode).toBe(200);
    /** The counts a facet shows, in its order. */
    const shown = (field: string) => {
      const facet = new RegExp(`<h3 id="facet-${field}">.*?</ul>`, 's').exec(page.body)?.[0] ?? '';
      return [...facet.matchAll(/<span class="facet-count">([^<]*)<\/span>/g)].map((c) => c[1]);
    };
    /** SQL's counts per value, most first, as many as a facet shows. */
    const expected = async (
      query: ReturnType<typeof sql<{ id: number | null; n: number }>>,
      group = (id: number) => id,
    ) => {
      const totals = new Map<number, number>();
      for (const { id, n } of (await query.execute(t.db.kysely)).rows) {
        if (id !== null) totals.set(group(id), (totals.get(group(id)) ?? 0) + n);
      }
      return [...totals.values()]
        .sort((a, b) => b - a)
        .slice(0, 12)
        .map((n) => n.toLocaleString('en-GB'));
    };
    const since2000 = sql`registration_sort >= '2000-01-01'`;
    // Each facet counts under the other filters: its own filter is left out.
    expect(shown('jurisdiction')).toEqual(
      await expected(sql`select jurisdiction_id as id, count(*)::int as n from legal_entities
        where ${since2000} and status_id = 1 group by 1`),
    );
    expect(shown('status')).toEqual(
      await expected(sql`select status_id as id, count(*)::int as n from legal_entities where ${since2000} group by 1`),
    );
    const sectorOf = (id: number) => industryPath(t.reference, id)[0].id;
    const sectors = await expected(
      sql`select primary_industry_id as id, count(*)::int as n from legal_entities
        where ${since2000} and status_id = 1 group by 1`,
      sectorOf,
    );
    expect(sectors.length).toBeGreaterThan(1);
    expect(shown('jurisdiction').length).toBeGreaterThan(1);
    expect(shown('industry')).toEqual(sectors);
  });
});

describe('facet cubes counted a range of companies at a time (PGlite)', () => {
  it('add up to the groups of one whole-table count', async () => {
    for (const [id, prefix] of [
      ['companies', ''],
      ['vessels', 'company_'],
    ]) {
      const section = sectionById(id)!;
      const [status, place] = [sql.ref(`b.${prefix}status_id`), sql.ref(`b.${prefix}jurisdiction_id`)];
      const query = (range: RawBuilder<SqlBool>) => sql<Record<string, number | null>>`
        select ${status} as d0, ${place} as d1, count(*)::int as n from ${sql.table(section.baseTable)} b
        where ${range} group by 1, 2`;
      const rows = (await query(sql<SqlBool>`true`).execute(t.db.kysely)).rows;
      const key = (r: Record<string, number | null>) => `${r.d0}/${r.d1}`;
      const whole = new Map(rows.map((r) => [key(r), r.n]));
      const chunked = await groupCounts(t.db, section, query, 37);
      expect(new Map(chunked.map((r) => [key(r), r.n])), id).toEqual(whole);
    }
  });
});

describe('table view (spec §4: style per page in a cookie, default style-2)', () => {
  it('defaults to style-2, keeps a chosen style and columns in an HttpOnly cookie, per section', async () => {
    expect((await get('/vessels/search/')).body).toContain('class="results-table style-2"');
    const chosen = await get('/vessels/search/?company_status=1&style=style-3');
    expect(chosen.statusCode).toBe(302);
    expect(chosen.headers.location).toBe('/vessels/search/?company_status=1');
    const cookie = String(chosen.headers['set-cookie']);
    expect(cookie).toMatch(/^table_view=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const jar = cookie.split(';')[0];
    expect((await get('/vessels/search/', { cookie: jar })).body).toContain('class="results-table style-3"');
    // Other sections keep their own default.
    expect((await get('/patents/search/', { cookie: jar })).body).toContain('class="results-table style-2"');

    const columns = await get('/vessels/search/?table=1&columns=imo_number&columns=vessel_name', { cookie: jar });
    const jar2 = String(columns.headers['set-cookie']).split(';')[0];
    const page = await get('/vessels/search/', { cookie: jar2 });
    const headers = [...page.body.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual(['IMO number', 'Vessel name']);
    expect(page.body).toContain('class="results-table style-3"');
  });
});

describe('company profile', () => {
  it('lists the first records of each type and links to all of them', async () => {
    const pick = await sql<{ id: number; uri: string; name: string; n: number }>`
      select c.id, c.uri, c.name, count(*)::int as n from permits p join legal_entities c on c.id = p.legal_entity_id
      group by c.id, c.uri, c.name order by count(*) desc, c.id limit 1`.execute(t.db.kysely);
    const { id, uri, name, n } = pick.rows[0];
    const profile = await get(`/companies/details/${uri}/`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain('id="records-permits"');
    const all = `/permits/search/?company=${id}`;
    expect(profile.body).toContain(`href="${all}"`);
    const list = await get(all);
    expect(list.statusCode).toBe(200);
    expect(column(list.body, 'company_legal_name').length).toBe(Math.min(n, 20));
    expect(resultCount(list.body)).toBe(`${n} record${n === 1 ? '' : 's'}`);
    // The filter's chip names the company, not its id.
    const chips = /<ul class="chips"[^>]*>(.*?)<\/ul>/s.exec(list.body)?.[1] ?? '';
    expect(chips).toContain(`Company: ${name.replaceAll('&', '&amp;')}`);
  });
});

describe('records data API', () => {
  it('returns the share entries of the companies asked for, or of the first companies that have any', async () => {
    const rows = await sql<{ legal_entity_id: number; position: number; kind: string }>`
      select legal_entity_id, position, kind from legal_entity_shares order by legal_entity_id, position`.execute(
      t.db.kysely,
    );
    const companies = [...new Set(rows.rows.map((r) => r.legal_entity_id))];
    expect(companies.length).toBeGreaterThan(3);
    const entries = (ids: number[]) =>
      rows.rows.filter((r) => ids.includes(r.legal_entity_id)).map((r) => [r.legal_entity_id, r.position, r.kind]);
    const read = async (query: string) => {
      const response = await get(`/api/data_import_shares/api/v1/shares?${query}`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: { legal_entity_id: number; position: number; kind: string }[] };
      return body.data.map((r) => [r.legal_entity_id, r.position, r.kind]);
    };
    const asked = [companies[2], companies[0]];
    expect(await read(`le_le_id=${asked.join('|')}`)).toEqual(entries(asked));
    expect(await read('count=3')).toEqual(entries(companies.slice(0, 3)));
  });

  it('returns the records of the companies asked for, and one record by id', async () => {
    const pick = await sql<{ id: number }>`
      select legal_entity_id as id from vessels group by 1 order by count(*) desc limit 2`.execute(t.db.kysely);
    const ids = pick.rows.map((r) => r.id);
    const expected = await count(
      sql`select count(*)::int as n from vessels where legal_entity_id in (${sql.join(ids)})`,
    );
    const res = await get(`/api/site/data/v1/vessels?le_le_id=${ids.join('|')}&count=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(expected);
    for (const v of body.data) {
      expect(ids).toContain(v.legal_entity_id);
      expect(v.imo_number).toMatch(/^\d{7}$/);
      expect(v.legal_entity.id).toBe(v.legal_entity_id);
    }
    const one = await get(`/api/site/data/v1/vessels?id=${body.data[0].id}`);
    expect(one.json().data.map((v: { id: number }) => v.id)).toEqual([body.data[0].id]);
  });

  it('walks every record of a filter exactly once by following next', async () => {
    const expected = await sql<{ id: number }>`
      select id from permits where company_status_id = 1 order by application_date desc, id desc`.execute(t.db.kysely);
    const seen: number[] = [];
    let next: string | null = null;
    do {
      const res = await get(`/api/site/data/v1/permits?company_status=1&count=37${next ? `&after=${next}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.data.map((p: { id: number }) => p.id));
      next = body.meta.next;
    } while (next);
    expect(seen).toEqual(expected.rows.map((r) => r.id));
  });

  it('names the bad parameter in a 400', async () => {
    const res = await get('/api/site/data/v1/accounting?revenue:from=lots');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.parameter).toBe('revenue:from');
    expect((await get('/api/site/data/v1/inspections_and_violations?category=safety')).statusCode).toBe(200);
    expect((await get('/api/site/data/v1/members?position=director')).statusCode).toBe(200);
  });
});
