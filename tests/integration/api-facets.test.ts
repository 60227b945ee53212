import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { industryPath } from '../../core/reference/reference-data.ts';
import { FACET_VALUES } from '../../core/search/facets.ts';
import { fieldColumn } from '../../core/sections/record-fields.ts';
import type { SectionDecl } from '../../core/sections/section.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// `facets=` on the data API (ADR 0020, 0033): the search page's facet counts in `meta.facets`, on
// the companies search and every record section, GET and POST …/search (under nested filters).
// Every section and facet is taken from the section registry, so a new one is covered too.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const DATA = '/api/site/data/v1/legal_entities';
const json = async (url: string) => {
  const response = await t.app.inject({ url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const post = async (url: string, body: object) => {
  const response = await t.app.inject({ method: 'POST', url, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

type FacetValue = { id: number; count: number; estimate: boolean };

/** A facet as SQL counts it over the section's table: rows per value where `where`, as meta.facets lists them. */
async function sqlFacet(section: SectionDecl, field: string, where: RawBuilder<unknown>): Promise<FacetValue[]> {
  const decl = section.filters.find((f) => f.field === field);
  if (!decl || (decl.kind !== 'reference' && decl.kind !== 'enum')) throw new Error(`${section.id}: ${field}`);
  const rows = await sql<{ id: number | null; n: number }>`
    select ${sql.ref(`b.${decl.column}`)} as id, count(*)::int as n from ${sql.table(section.baseTable)} b
    where ${where} group by 1`.execute(t.db.kysely);
  const sectors = decl.kind === 'reference' && decl.ref === 'industries';
  const totals = new Map<number, number>();
  for (const { id, n } of rows.rows) {
    if (id === null) continue;
    const value = sectors ? industryPath(t.reference, Number(id))[0].id : Number(id);
    totals.set(value, (totals.get(value) ?? 0) + n);
  }
  return [...totals]
    .map(([id, count]) => ({ id, count, estimate: false }))
    .sort((a, b) => b.count - a.count || a.id - b.id)
    .slice(0, FACET_VALUES);
}

const recordSections = SECTIONS.filter((s) => s.record);
const pathOf = (s: SectionDecl) => `/api/site/data/v1/${s.record?.api ?? s.record?.table}`;

/**
 * Two filters of a section's rows, their GET parameters and their SQL: the company status most of
 * its rows have (a facet value: the cube's), and its sort field from the median on (a range: a sample).
 */
async function twoFilters(section: SectionDecl) {
  const record = section.record!;
  const field = record.fields.find((f) => f.key === record.sortField)!;
  const column = sql.ref(`b.${fieldColumn(field)}`);
  const table = sql.table(section.baseTable);
  const { status } = (
    await sql<{ status: number }>`
      select company_status_id as status from ${table} b where company_status_id is not null
      group by 1 order by count(*) desc, 1 limit 1`.execute(t.db.kysely)
  ).rows[0];
  const median = (
    await sql<{ v: string }>`
      select ${field.type === 'date' ? sql`to_char(percentile_disc(0.5) within group (order by ${column}), 'YYYY-MM-DD')` : sql`percentile_disc(0.5) within group (order by ${column})::text`} as v
      from ${table} b`.execute(t.db.kysely)
  ).rows[0].v;
  const bound = field.type === 'date' ? sql`${median}::date` : sql`${Number(median)}`;
  return {
    status: { param: 'company_status', value: String(status), sql: sql`b.company_status_id = ${status}` },
    from: { param: `${record.sortField}:from`, value: median, sql: sql`${column} >= ${bound}` },
  };
}

describe('facets= on every record section', () => {
  for (const section of recordSections) {
    it(`${section.id}: each declared facet, unfiltered, under filters and under nested filters, as SQL counts`, async () => {
      const path = pathOf(section);
      const all = section.facets.join(',');
      // Unfiltered: the whole table.
      const whole = await json(`${path}?count=1&facets=${all}`);
      expect(Object.keys(whole.meta.facets)).toEqual(section.facets);
      for (const field of section.facets) {
        expect(whole.meta.facets[field], field).toEqual(await sqlFacet(section, field, sql`true`));
      }
      expect(whole.meta.facets.company_jurisdiction.length).toBeGreaterThan(0);

      // A facet value and a range: each facet under the other filters, its own left out.
      const { status, from } = await twoFilters(section);
      const filtered = await json(
        `${path}?count=1&${status.param}=${status.value}&${from.param}=${from.value}&facets=${all}`,
      );
      expect(filtered.meta.total).toBeGreaterThan(0);
      for (const field of section.facets) {
        const where = field === 'company_status' ? from.sql : sql`${status.sql} and ${from.sql}`;
        expect(filtered.meta.facets[field], field).toEqual(await sqlFacet(section, field, where));
      }

      // POST …/search: the same filters ANDed in a tree count as the GET's flat ones…
      const tree = await post(`${path}/search`, {
        count: 1,
        filter: { all: [{ [status.param]: status.value }, { all: [{ [from.param]: from.value }] }] },
        facets: section.facets,
      });
      expect(tree.meta.facets).toEqual(filtered.meta.facets);
      expect(tree.meta.total).toBe(filtered.meta.total);

      // …and under `any`, which no facet can leave out, every facet counts what the tree finds.
      const either = await post(`${path}/search`, {
        count: 1,
        filter: { any: [{ [status.param]: status.value }, { [from.param]: from.value }] },
        facets: all,
      });
      for (const field of section.facets) {
        expect(either.meta.facets[field], field).toEqual(
          await sqlFacet(section, field, sql`(${status.sql} or ${from.sql})`),
        );
      }
    });
  }
});

describe('facets= on the companies data API', () => {
  it('counts the asked fields among the matches, each count what that filter finds', async () => {
    const page = await json(`${DATA}?count=1&facets=jurisdiction,status`);
    expect(Object.keys(page.meta.facets).sort()).toEqual(['jurisdiction', 'status']);
    const [top] = page.meta.facets.jurisdiction;
    expect(top.count).toBeGreaterThan(0);
    const filtered = await json(`${DATA}?count=1&jurisdiction=${top.id}`);
    expect(filtered.meta.total).toBe(top.count);
    // Facets follow the other filters: the statuses within that jurisdiction, each what both filters find.
    const within = await json(`${DATA}?count=1&jurisdiction=${top.id}&facets=status`);
    const [status] = within.meta.facets.status;
    expect(status.count).toBeLessThanOrEqual(top.count);
    const both = await json(`${DATA}?count=1&jurisdiction=${top.id}&status=${status.id}`);
    expect(both.meta.total).toBe(status.count);
  });

  it('works with a name query, and leaves meta as it was without facets=', async () => {
    const [first] = (await json(`${DATA}?count=1`)).data;
    const word = first.legal_entities.name.split(' ')[0];
    const named = await json(`${DATA}?q=${encodeURIComponent(word)}&facets=size`);
    expect(named.meta.facets.size.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBeGreaterThan(0);
    expect((await json(`${DATA}?count=1`)).meta).not.toHaveProperty('facets');
  });

  it('POST …/search counts under its tree as the GET under the same filters, with a name query too', async () => {
    const companies = SECTIONS[0];
    const all = companies.facets.join(',');
    const [top] = (await json(`${DATA}?count=1&facets=jurisdiction`)).meta.facets.jurisdiction;
    const [first] = (await json(`${DATA}?count=1&jurisdiction=${top.id}`)).data;
    const word = first.legal_entities.name.split(' ')[0];
    for (const [query, filter] of [
      [`jurisdiction=${top.id}&status=1`, { all: [{ jurisdiction: String(top.id) }, { status: '1' }] }],
      [
        `jurisdiction=${top.id}&dates[registration]:from=2000`,
        { all: [{ 'dates[registration]:from': '2000' }, { jurisdiction: String(top.id) }] },
      ],
      [`q=${encodeURIComponent(word)}&jurisdiction=${top.id}`, { jurisdiction: String(top.id) }],
    ] as const) {
      const q = query.startsWith('q=') ? { q: word } : {};
      const get = await json(`${DATA}?count=1&${query}&facets=${all}`);
      const tree = await post(`${DATA}/search`, { ...q, count: 1, filter, facets: all });
      expect(tree.meta.facets, query).toEqual(get.meta.facets);
      expect(get.meta.facets.jurisdiction.length, query).toBeGreaterThan(0);
    }
    // Under `not`, the jurisdictions counted are all but the one left out, as SQL counts them.
    const others = await post(`${DATA}/search`, {
      count: 1,
      filter: { not: { jurisdiction: String(top.id) } },
      facets: 'jurisdiction',
    });
    expect(others.meta.facets.jurisdiction).toEqual(
      await sqlFacet(companies, 'jurisdiction', sql`not coalesce(b.jurisdiction_id = ${top.id}, false)`),
    );
    expect(others.meta.facets.jurisdiction.some((v: FacetValue) => v.id === top.id)).toBe(false);
  });
});

describe('a facet a section does not declare', () => {
  const refused = async (request: { url: string; method?: 'GET' | 'POST'; payload?: object }, name: string) => {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json();
    expect(error.details.parameter).toBe('facets');
    if (name) expect(error.message).toContain(`"${name}"`);
    return error.message as string;
  };

  it('is a 400 naming it and listing the facets allowed, on GET and POST, of every section', async () => {
    const vessels = SECTIONS.find((s) => s.id === 'vessels')!;
    // engine_type is a facet of aircraft, not of vessels.
    const message = await refused({ url: `${pathOf(vessels)}?facets=company_status,engine_type` }, 'engine_type');
    for (const field of vessels.facets) expect(message).toContain(field);
    await refused({ url: `${pathOf(vessels)}/search`, method: 'POST', payload: { facets: 'colour' } }, 'colour');
    await refused(
      { url: `${pathOf(vessels)}/search`, method: 'POST', payload: { facets: ['vessel_type', 'colour'] } },
      'colour',
    );
    const companies = await refused({ url: `${DATA}?facets=jurisdiction,colour` }, 'colour');
    for (const field of SECTIONS[0].facets) expect(companies).toContain(field);
    await refused({ url: `${DATA}/search`, method: 'POST', payload: { facets: 'company_status' } }, 'company_status');
  });

  it('is a 400 for an empty name or a value that is no list of names', async () => {
    await refused({ url: `${pathOf(recordSections[0])}?facets=` }, '');
    await refused({ url: `${DATA}?facets=status,,size` }, '');
    await refused({ url: `${DATA}/search`, method: 'POST', payload: { facets: ['status', 7] } }, '');
    await refused({ url: `${DATA}/search`, method: 'POST', payload: { facets: { status: true } } }, '');
  });
});
