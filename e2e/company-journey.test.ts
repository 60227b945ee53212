import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayName } from '../core/reference/reference-data.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function metaOf(page: Page) {
  return page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    alternates: [...document.querySelectorAll('link[rel="alternate"]')].map((l) => l.getAttribute('hreflang')),
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
    twitter: document.querySelector('meta[name="twitter:card"]')?.getAttribute('content') ?? null,
    lang: document.documentElement.lang,
  }));
}

describe('a visitor researches a company', () => {
  it('searches by name, filters by jurisdiction in the panel, opens a profile and reads it in German', async () => {
    // A word that occurs in company names of more than one jurisdiction.
    const pick = await sql<{ word: string; jurisdiction_id: number }>`
      select w.word, le.jurisdiction_id from name_words w
      join legal_entities le on le.name_tsv @@ to_tsquery('simple', w.word)
      where length(w.word) >= 4 and w.documents between 3 and 60
      group by w.word, le.jurisdiction_id
      order by count(*) desc, w.word limit 1`.execute(server.db.kysely);
    const { word, jurisdiction_id } = pick.rows[0];
    const jurisdiction = displayName(server.reference.locations.byId.get(jurisdiction_id));

    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // The search box suggests as one types (app/islands/suggest.js): an ARIA combobox.
    await page.getByRole('combobox', { name: 'Company name' }).fill(word);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/companies\/search\/\?q=/);
    await page.locator('td[data-column="legal_name"]').first().waitFor();

    await page
      .locator('.filter-panel')
      .getByRole('group', { name: 'Jurisdiction', exact: true })
      .getByRole('checkbox', { name: jurisdiction, exact: true })
      .check();
    await page.waitForURL(new RegExp(`jurisdiction=${jurisdiction_id}`));
    const jurisdictions = await page.locator('td[data-column="jurisdiction"]').allInnerTexts();
    expect(jurisdictions.length).toBeGreaterThan(0);
    for (const text of jurisdictions) expect(text).toContain(jurisdiction);
    await expect.poll(() => page.getByRole('list', { name: 'Active filters' }).innerText()).toContain(jurisdiction);

    const first = page.locator('td[data-column="legal_name"] a').first();
    const name = (await first.innerText()).trim();
    await first.click();
    await page.waitForURL(/\/companies\/details\//);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    for (const section of ['Names', 'Addresses', 'Identifiers', 'Officers and shareholders']) {
      expect(await page.getByRole('heading', { level: 2, name: new RegExp(`^${section}`) }).count()).toBe(1);
    }
    const english = await metaOf(page);
    expect(english.canonical).toMatch(/\/companies\/details\/.+\/$/);

    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL(/\/de\/companies\/details\//);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    const german = await metaOf(page);
    expect(german.lang).toBe('de');
    expect(german.canonical).toBe(english.canonical?.replace(server.url, `${server.url}/de`));
    expect(await page.getByRole('heading', { level: 2, name: /^Identifiers/ }).count()).toBe(0);
    await page.close();
  });
});

describe('metadata on each route type', () => {
  it('has title, description, canonical, alternates and social tags', async () => {
    const company = await server.db.kysely
      .selectFrom('legal_entities')
      .select('uri')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const industry = server.reference.industries.items.find((i) => i.level === 1)!;
    const paths = [
      '/',
      '/companies/search/',
      '/companies/search/?q=bank',
      `/companies/details/${company.uri}/`,
      '/companies/directories/jurisdictions/',
      '/companies/directories/industries/',
      `/companies/directories/industries/f/${industry.uri}-${industry.id}/`,
      '/fr/companies/search/',
      '/companies/comparison/',
    ];
    const page = await browser.newPage();
    for (const path of paths) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(200);
      const meta = await metaOf(page);
      expect(meta.title.length, path).toBeGreaterThan(5);
      expect(meta.description?.length ?? 0, path).toBeGreaterThan(20);
      expect(meta.canonical, path).toMatch(new RegExp(`^${server.url}/`));
      expect(meta.alternates.sort(), path).toEqual(['de', 'en', 'fr', 'x-default']);
      expect(meta.ogTitle, path).toBe(meta.title);
      expect(meta.twitter, path).toBe('summary');
    }
    const missing = await page.goto(`${server.url}/companies/details/not-a-company-999999999/`);
    expect(missing?.status()).toBe(404);
    await page.close();
  });
});
