import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LegalEntityStatistics, LegalEntityStatisticsSchema } from '../../core/api/legal-entity-statistics.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The statistics charts of the home page and the directories: server-rendered SVG with a data
// table behind "Show as table", showing the same counts as legal_entities/statistics.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

async function page(url: string): Promise<string> {
  const res = await get(url);
  expect(res.statusCode).toBe(200);
  return res.body;
}

async function statistics(lang = 'en'): Promise<LegalEntityStatistics> {
  const res = await get(`/api/site/data/v1/legal_entities/statistics?lang=${lang}`);
  expect(res.statusCode).toBe(200);
  return LegalEntityStatisticsSchema.parse(res.json().data);
}

async function countCompanies(): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(t.db.kysely);
  return result.rows[0].n;
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

/** The figure of one chart (`data-chart`), or undefined when the page has none. */
function chart(html: string, name: string): string | undefined {
  return new RegExp(`<figure class="chart" data-chart="${name}">(.*?)</figure>`, 's').exec(html)?.[1];
}

type TableRow = { key: string; label: string; count: string; href: string | null };

/** The rows of a chart's data table: tbody (listed values) and tfoot (other, unknown, total). */
function tableRows(figure: string, part: 'tbody' | 'tfoot'): TableRow[] {
  const body = new RegExp(`<${part}>(.*?)</${part}>`, 's').exec(figure)?.[1] ?? '';
  return [...body.matchAll(/<tr data-key="([^"]*)"><th scope="row">(.*?)<\/th><td>(.*?)<\/td>/gs)].map((m) => ({
    key: m[1],
    label: text(m[2]),
    count: text(m[3]),
    href: /href="([^"]*)"/.exec(m[2])?.[1].replace(/&amp;/g, '&') ?? null,
  }));
}

function expectAccessibleSvg(figure: string) {
  const captionId = /<figcaption id="([^"]+)">/.exec(figure)?.[1];
  expect(captionId).toBeTruthy();
  // A group (it holds the pointer links), named by the caption (ADR 0022: no links inside an image).
  expect(figure).toMatch(new RegExp(`<svg[^>]* role="group"[^>]* aria-labelledby="${captionId}"`));
  expect(figure).toMatch(/<svg[^>]* viewBox="0 0 \d+ [\d.]+"[^>]* width="100%"/);
  expect(figure).toMatch(
    /<details class="chart-table"[^>]*><summary>[^<]+<\/summary><table class="chart-data"><caption>/,
  );
  expect(figure).toContain('<th scope="col">');
}

const en = (n: number) => n.toLocaleString('en-GB');
const de = (n: number) => n.toLocaleString('de-DE');

describe('home: companies at a glance', () => {
  it('shows the total, the top 10 jurisdictions, statuses and registrations per year as SVG charts', async () => {
    const html = await page('/');
    const stats = await statistics();
    const total = await countCompanies();
    expect(stats.total).toBe(total);
    expect(html).toContain('Companies at a glance');
    const headline = /<p class="statistics-total">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
    expect(text(headline)).toBe(`${en(total)} companies in the register`);

    const jurisdictions = chart(html, 'jurisdictions')!;
    expectAccessibleSvg(jurisdictions);
    expect(jurisdictions).toContain('<figcaption');
    expect(text(/<figcaption[^>]*>(.*?)<\/figcaption>/s.exec(jurisdictions)![1])).toBe(
      'Companies by jurisdiction (top 10)',
    );
    const top = stats.by_jurisdiction.buckets.slice(0, 10);
    expect(top.length).toBeGreaterThan(1);
    expect(tableRows(jurisdictions, 'tbody')).toEqual(
      top.map((b) => ({
        key: String(b.id),
        label: b.name,
        count: en(b.count),
        href: `/companies/search/f/jurisdiction-${b.uri}-${b.id}/`,
      })),
    );
    const listed = top.reduce((sum, b) => sum + b.count, 0);
    expect(tableRows(jurisdictions, 'tfoot')).toEqual([
      ...(total > listed
        ? [{ key: 'other', label: 'Other jurisdictions', count: en(total - listed), href: null }]
        : []),
      { key: 'total', label: 'Total', count: en(total), href: null },
    ]);
    // One bar per jurisdiction, each linking to its search, its count printed beside it.
    expect(jurisdictions.match(/class="chart-bar"/g)).toHaveLength(top.length);
    for (const b of top) {
      expect(jurisdictions).toContain(`href="/companies/search/f/jurisdiction-${b.uri}-${b.id}/"`);
    }
    expect(jurisdictions).toContain(`class="chart-value">${en(top[0].count)}</text>`);

    const statuses = chart(html, 'statuses')!;
    expectAccessibleSvg(statuses);
    expect(tableRows(statuses, 'tbody')).toEqual(
      stats.by_status.buckets.map((b) => ({
        key: String(b.id),
        label: b.name,
        count: en(b.count),
        href: `/companies/search/?status=${b.id}`,
      })),
    );
    expect(statuses.match(/class="chart-slice"/g)).toHaveLength(stats.by_status.buckets.length);
    expect(tableRows(statuses, 'tfoot').at(-1)).toMatchObject({ key: 'total', count: en(total) });

    const years = chart(html, 'years')!;
    expectAccessibleSvg(years);
    const yearRows = tableRows(years, 'tbody');
    expect(yearRows).toHaveLength(25);
    const last = Math.max(...stats.by_registration_year.buckets.map((b) => b.year));
    expect(yearRows.map((r) => r.label)).toEqual(Array.from({ length: 25 }, (_, i) => String(last - 24 + i)));
    for (const row of yearRows) {
      const count = stats.by_registration_year.buckets.find((b) => String(b.year) === row.label)?.count ?? 0;
      expect(row.count).toBe(en(count));
    }
    const earlier = stats.by_registration_year.buckets
      .filter((b) => b.year < last - 24)
      .reduce((sum, b) => sum + b.count, 0);
    const footer = tableRows(years, 'tfoot');
    expect(footer.find((r) => r.key === 'earlier')?.count ?? '0').toBe(en(earlier));
    expect(footer.at(-1)).toMatchObject({ key: 'total', count: en(total) });
    expect(text(/<figcaption[^>]*>(.*?)<\/figcaption>/s.exec(years)![1])).toBe(
      `Companies registered per year, ${last - 24}–${last}`,
    );
  });

  it('links bars, slices and columns to the search for them', async () => {
    const html = await page('/');
    const stats = await statistics();
    const resultCount = async (href: string) => {
      const body = await page(href);
      return /(\d[\d,]*) compan(?:y|ies)/.exec(text(/<p id="results-count"[^>]*>(.*?)<\/p>/s.exec(body)![1]))?.[1];
    };
    const [jurisdiction] = tableRows(chart(html, 'jurisdictions')!, 'tbody');
    expect(await resultCount(jurisdiction.href!)).toBe(jurisdiction.count);
    const [status] = tableRows(chart(html, 'statuses')!, 'tbody');
    expect(await resultCount(status.href!)).toBe(status.count);
    const year = tableRows(chart(html, 'years')!, 'tbody').findLast((r) => r.href !== null)!;
    expect(await resultCount(year.href!)).toBe(year.count);
    expect(year.count).toBe(en(stats.by_registration_year.buckets.find((b) => String(b.year) === year.label)!.count));
  });

  it('is in German on the German home page', async () => {
    const html = await page('/de/');
    const stats = await statistics('de');
    expect(html).toContain('Unternehmen auf einen Blick');
    const jurisdictions = chart(html, 'jurisdictions')!;
    expect(jurisdictions).toContain('Unternehmen nach Rechtsraum (Top 10)');
    expect(jurisdictions).toContain('<summary>Als Tabelle anzeigen</summary>');
    expect(jurisdictions).toContain('<th scope="col">Rechtsraum</th>');
    expect(tableRows(jurisdictions, 'tbody').map((r) => [r.label, r.count, r.href])).toEqual(
      stats.by_jurisdiction.buckets
        .slice(0, 10)
        .map((b) => [b.name, de(b.count), `/de/companies/search/f/jurisdiction-${b.uri}-${b.id}/`]),
    );
    expect(tableRows(jurisdictions, 'tfoot').at(-1)).toMatchObject({ label: 'Gesamt', count: de(stats.total) });
    expect(chart(html, 'statuses')).toContain('Unternehmen nach Status');
    expect(chart(html, 'years')).toContain('Eingetragene Unternehmen pro Jahr');
  });
});

describe('directories', () => {
  it('charts the top jurisdictions on the jurisdictions directory', async () => {
    const html = await page('/companies/directories/jurisdictions/');
    const stats = await statistics();
    const figure = chart(html, 'jurisdictions')!;
    expectAccessibleSvg(figure);
    expect(tableRows(figure, 'tbody').map((r) => [r.key, r.count])).toEqual(
      stats.by_jurisdiction.buckets.slice(0, 10).map((b) => [String(b.id), en(b.count)]),
    );
    expect(tableRows(figure, 'tfoot').at(-1)).toMatchObject({ key: 'total', count: en(await countCompanies()) });
  });

  it('charts companies by sector on the industries directory, linking to the industry search', async () => {
    const html = await page('/companies/directories/industries/');
    const stats = await statistics();
    const figure = chart(html, 'sectors')!;
    expectAccessibleSvg(figure);
    expect(stats.by_sector.buckets.length).toBeGreaterThan(1);
    expect(tableRows(figure, 'tbody')).toEqual(
      stats.by_sector.buckets.map((b) => ({
        key: String(b.id),
        label: b.name,
        count: en(b.count),
        href: `/companies/search/f/industry-${b.uri}-${b.id}/`,
      })),
    );
    expect(figure.match(/class="chart-bar"/g)).toHaveLength(stats.by_sector.buckets.length);
    const total = await countCompanies();
    const footer = tableRows(figure, 'tfoot');
    expect(footer.at(-1)).toMatchObject({ key: 'total', count: en(total) });
    const listed = stats.by_sector.buckets.reduce((sum, b) => sum + b.count, 0);
    expect(footer.find((r) => r.key === 'unknown')?.count ?? '0').toBe(en(total - listed));
  });

  it('has German captions on the German industries directory, and no chart below the top level', async () => {
    const html = await page('/de/companies/directories/industries/');
    const stats = await statistics('de');
    const figure = chart(html, 'sectors')!;
    expect(figure).toContain('Unternehmen nach Wirtschaftssektor');
    expect(figure).toContain('<th scope="col">Sektor</th>');
    expect(tableRows(figure, 'tbody').map((r) => r.label)).toEqual(stats.by_sector.buckets.map((b) => b.name));

    const sector = stats.by_sector.buckets[0];
    const sub = await page(`/companies/directories/industries/f/${sector.uri}-${sector.id}/`);
    expect(chart(sub, 'sectors')).toBeUndefined();
  });

  it('has German captions on the German jurisdictions directory', async () => {
    const html = await page('/de/companies/directories/jurisdictions/');
    expect(chart(html, 'jurisdictions')).toContain('Unternehmen nach Rechtsraum (Top 10)');
  });
});
