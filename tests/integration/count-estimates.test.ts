// Counts beyond the cheap exact count (ADR 0002, "Counts"): a broad search shows an estimate
// labelled "about", never below the rows counted exactly; a narrow one its exact count; facets
// under a range filter scale their sample by the estimate and say so. The vessels of the template
// are copied until the section has ~20,000 rows, more than both the count's cap and the facets'
// sample hold.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, countMatches } from '../../core/search/count-matches.ts';
import { plannedRows } from '../../core/search/estimate-rows.ts';
import { filterConditions } from '../../core/search/filter-sql.ts';
import { parseSearchState } from '../../core/search/search-state.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

const ROWS = 20_000;
const vessels = sectionById('vessels')!;

let t: TestApp;
/** A gross tonnage that about half the vessels reach, and one that fewer than COUNT_CAP reach. */
let broad: number;
let narrow: number;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  const k = t.db.kysely;
  const { n } = (await sql<{ n: number }>`select count(*)::int as n from vessels`.execute(k)).rows[0];
  await sql`
    insert into vessels
    select legal_entity_id, id + g::bigint * 1000000000, company_jurisdiction_id, company_industry_id, company_status_id,
      company_size_id, company_employees_id, imo_number, vessel_name, vessel_type_id, flag_id, mmsi, call_sign,
      gross_tonnage, deadweight, year_built, registration_date
    from vessels, generate_series(1, ${Math.ceil(ROWS / n) - 1}) g`.execute(k);
  await sql`analyze vessels`.execute(k);
  const tonnage = (fraction: number) =>
    sql<{ v: number }>`select percentile_disc(${fraction}) within group (order by gross_tonnage) as v from vessels`
      .execute(k)
      .then((r) => r.rows[0].v);
  broad = await tonnage(0.5);
  narrow = await tonnage(0.99);
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const truth = async (where: ReturnType<typeof sql>) =>
  (await sql<{ n: number }>`select count(*)::int as n from vessels where ${where}`.execute(t.db.kysely)).rows[0].n;
const resultCount = (html: string) => /id="results-count"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';
/** Within a quarter of the truth (the planner's statistics sample every row of a table this small). */
const near = (shown: number, actual: number) => Math.abs(shown - actual) / actual;

describe('search totals', () => {
  it('a broad search shows an estimate labelled "about", near the truth and above the exact count', async () => {
    const actual = await truth(sql`gross_tonnage >= ${broad}`);
    expect(actual).toBeGreaterThan(COUNT_CAP);
    const page = await get(`/vessels/search/?gross_tonnage:from=${broad}`);
    expect(page.statusCode).toBe(200);
    const text = resultCount(page.body);
    expect(text).toMatch(/^About [\d,]+ records$/);
    const shown = Number(text.replace(/\D/g, ''));
    expect(shown).toBeGreaterThan(COUNT_CAP);
    expect(near(shown, actual)).toBeLessThan(0.25);
    // Two significant figures.
    expect(String(shown).replace(/0+$/, '').length).toBeLessThanOrEqual(2);
    const de = await get(`/de/vessels/search/?gross_tonnage:from=${broad}`);
    expect(resultCount(de.body)).toBe(`Etwa ${shown.toLocaleString('de-DE')} Einträge`);
  });

  it('a narrow search shows its exact count', async () => {
    const actual = await truth(sql`gross_tonnage >= ${narrow}`);
    expect(actual).toBeGreaterThan(0);
    expect(actual).toBeLessThanOrEqual(COUNT_CAP);
    const page = await get(`/vessels/search/?gross_tonnage:from=${narrow}`);
    expect(resultCount(page.body)).toBe(`${actual.toLocaleString('en-GB')} record${actual === 1 ? '' : 's'}`);
  });

  it('an estimate is never below the rows counted exactly, even when the planner guesses fewer', async () => {
    // A condition the planner cannot see through: it guesses a fraction of the table, here far fewer than match.
    const state = parseSearchState(vessels, new URLSearchParams(`gross_tonnage:from=${broad}`));
    if (!state.ok) throw new Error('bad state');
    const filters = filterConditions(vessels, state.state.filters, t.reference);
    const opaque = sql`${sql.join(filters, sql` and `)} and (b.id % 1000 + 1) * 0 = 0 and b.gross_tonnage * 2 > 0`;
    expect(await plannedRows(t.db, 'vessels', opaque)).toBeLessThan(COUNT_CAP);
    const count = await countMatches(t.db, t.reference, vessels, opaque);
    expect(count.totalIsEstimate).toBe(true);
    expect(count.atLeast).toBe(COUNT_CAP + 1);
    expect(count.total).toBeGreaterThanOrEqual(count.atLeast);
  });
});

describe('facets under a range filter', () => {
  it('scale the sample by the estimate, labelled "about", near the truth', async () => {
    const page = await get(`/vessels/search/?gross_tonnage:from=${broad}`);
    const facet = /<h3 id="facet-vessel_type">.*?<\/ul>/s.exec(page.body)?.[0] ?? '';
    const shown = new Map(
      [...facet.matchAll(/<span class="facet-label">([^<]*)<\/span> <span class="facet-count">([^<]*)<\/span>/g)].map(
        (m) => [m[1], m[2]],
      ),
    );
    const actual = await sql<{ id: number; n: number }>`
      select vessel_type_id as id, count(*)::int as n from vessels where gross_tonnage >= ${broad}
      group by 1 order by 2 desc`.execute(t.db.kysely);
    const total = actual.rows.reduce((sum, r) => sum + r.n, 0);
    const decl = vessels.record!.fields.find((f) => f.key === 'vessel_type')!;
    let checked = 0;
    for (const { id, n } of actual.rows) {
      const label = decl.values!.find((v) => v.id === id)!.label.en;
      const text = shown.get(label);
      expect(text, label).toMatch(/^about [\d,]+$/);
      // Values of a tenth of the matches or more: a 2,001-row sample holds 200 of each.
      if (n < total / 10) continue;
      expect(near(Number(text!.replace(/\D/g, '')), n), label).toBeLessThan(0.25);
      checked++;
    }
    expect(checked).toBeGreaterThan(1);
  });

  it('are exact when the sample covers every match', async () => {
    const page = await get(`/vessels/search/?gross_tonnage:from=${narrow}`);
    const facet = /<h3 id="facet-vessel_type">.*?<\/ul>/s.exec(page.body)?.[0] ?? '';
    const counts = [...facet.matchAll(/<span class="facet-count">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(counts.length).toBeGreaterThan(0);
    for (const count of counts) expect(count).toMatch(/^[\d,]+$/);
  });
});

describe('search history', () => {
  it('keeps an estimated count as an estimate and shows it as the search page did, in each language', async () => {
    const { get: getAs } = pageClient(() => t.app);
    const user = await createSignedInUser(t.db, 'estimate-history');
    const search = await getAs(`/vessels/search/?gross_tonnage:from=${broad}`, user);
    const shown = resultCount(search.body);
    expect(shown).toMatch(/^About [\d,]+ records$/);
    await getAs(`/vessels/search/?gross_tonnage:from=${narrow}`, user);
    const kept = await t.db.kysely
      .selectFrom('search_history')
      .select(['results', 'results_is_estimate'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    const exact = await truth(sql`gross_tonnage >= ${narrow}`);
    expect(kept).toEqual([
      { results: Number(shown.replace(/\D/g, '')), results_is_estimate: true },
      { results: exact, results_is_estimate: false },
    ]);
    const n = kept[0].results;
    const exactText = `${exact.toLocaleString('en-GB')} record${exact === 1 ? '' : 's'}`;
    for (const [lang, about] of [
      ['', `About ${n.toLocaleString('en-GB')} records`],
      ['/de', `Etwa ${n.toLocaleString('de-DE')} Einträge`],
      ['/fr', `Environ ${n.toLocaleString('fr-FR')} enregistrements`.replace(/\s/g, ' ')],
    ]) {
      for (const path of ['/companies/history/search/', '/dashboard/history/search/companies/', '/dashboard/']) {
        const page = textOf((await getAs(`${lang}${path}`, user)).body);
        expect(page, `${lang}${path}`).toContain(about);
        if (lang === '') expect(page, path).toContain(exactText);
      }
    }
  });
});

describe('records data API', () => {
  it('labels facet counts scaled from a sample as estimates, near the truth, and POST …/search counts them alike', async () => {
    const facets = 'vessel_type,company_status';
    const meta = (await get(`/api/site/data/v1/vessels?count=1&gross_tonnage:from=${broad}&facets=${facets}`)).json()
      .meta;
    const actual = await sql<{ id: number; n: number }>`
      select vessel_type_id as id, count(*)::int as n from vessels where gross_tonnage >= ${broad}
      group by 1`.execute(t.db.kysely);
    const total = actual.rows.reduce((sum, r) => sum + r.n, 0);
    const shown = new Map<number, { count: number; estimate: boolean }>(
      meta.facets.vessel_type.map((v: { id: number; count: number; estimate: boolean }) => [v.id, v]),
    );
    let checked = 0;
    for (const { id, n } of actual.rows) {
      const value = shown.get(id);
      expect(value?.estimate, String(id)).toBe(true);
      if (n < total / 10) continue;
      expect(near(value!.count, n), String(id)).toBeLessThan(0.25);
      checked++;
    }
    expect(checked).toBeGreaterThan(1);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/site/data/v1/vessels/search',
      payload: { count: 1, filter: { 'gross_tonnage:from': String(broad) }, facets },
    });
    expect(posted.json().meta.facets).toEqual(meta.facets);

    // A search the sample holds whole: exact counts, not labelled.
    const narrowMeta = (
      await get(`/api/site/data/v1/vessels?count=1&gross_tonnage:from=${narrow}&facets=vessel_type`)
    ).json().meta;
    const exact = await sql<{ id: number; count: number }>`
      select vessel_type_id as id, count(*)::int as count from vessels where gross_tonnage >= ${narrow}
      group by 1 order by 2 desc, 1`.execute(t.db.kysely);
    expect(narrowMeta.facets.vessel_type).toEqual(exact.rows.map((r) => ({ ...r, estimate: false })));
  });

  it('says when the total is an estimate, and how many were counted exactly', async () => {
    const broadMeta = (await get(`/api/site/data/v1/vessels?gross_tonnage:from=${broad}`)).json().meta;
    expect(broadMeta).toMatchObject({
      total_is_estimate: true,
      total_at_least: COUNT_CAP + 1,
      total_is_lower_bound: true,
    });
    expect(broadMeta.total).toBeGreaterThan(COUNT_CAP);
    const actual = await truth(sql`gross_tonnage >= ${narrow}`);
    const narrowMeta = (await get(`/api/site/data/v1/vessels?gross_tonnage:from=${narrow}`)).json().meta;
    expect(narrowMeta).toMatchObject({
      total: actual,
      total_is_estimate: false,
      total_at_least: actual,
      total_is_lower_bound: false,
    });
  });
});
