// A company profile answers "who is this company" in its first screen, on a laptop and on a phone:
// the summary, a key identifier copied with one click, sections that fold without script, the
// table of contents kept in view on a wide screen (ADR 0022).
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

let server: TestServer;
let browser: Browser;
let company: { uri: string; identifier: string };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A seeded company with a company number, financial statements and officers.
  const row = await sql<{ uri: string; identifier: string }>`
    select le.uri, i.identifier from legal_entities le
    join legal_entity_identifiers i on i.legal_entity_id = le.id and i.identifier_type_id = 2
    where exists (select 1 from financial_statements f where f.legal_entity_id = le.id and f.revenue is not null)
      and exists (select 1 from legal_entity_members m where m.legal_entity_id = le.id)
    order by le.id limit 1`.execute(server.db.kysely);
  company = row.rows[0];
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a company profile', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    it(`shows its summary in the first screen at ${viewport.width} px`, async () => {
      const page = await browser.newPage({ viewport });
      try {
        await page.goto(`${server.url}/companies/details/${company.uri}/`);
        const summary = page.getByRole('region', { name: 'Overview' });
        const terms = await summary.locator('dt').allInnerTexts();
        expect(terms.slice(0, 2)).toEqual(['Status', 'Jurisdiction']);
        expect(terms).toEqual(expect.arrayContaining(['Age', 'Company number', 'People']));
        // Its first facts are on the first screen, without scrolling.
        const status = await summary.locator('[data-summary="status"]').boundingBox();
        expect(status).not.toBeNull();
        expect((status?.y ?? 0) + (status?.height ?? 0)).toBeLessThanOrEqual(viewport.height);
        // The flag is an image beside the country's name, not an emoji.
        const flag = summary.locator('[data-summary="jurisdiction"] img.flag');
        expect(await flag.getAttribute('src')).toMatch(/^\/flags\/[a-z]{2}\.svg$/);
        expect(await flag.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        // Revenue and profit by year: a named image, and its figures as a table.
        const chart = page.getByRole('img', { name: /^Revenue and profit by year/ });
        expect(await chart.count()).toBe(1);
        expect(await page.locator('[data-chart="financials"] table tbody tr').count()).toBeGreaterThan(0);
      } finally {
        await page.close();
      }
    });
  }

  it('copies a key identifier with its button, the value staying plain text', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/companies/details/${company.uri}/`);
      const item = page.locator('[data-summary="identifier-company_number"]');
      expect((await item.locator('.copy-value').innerText()).trim()).toBe(company.identifier);
      await item.getByRole('button', { name: 'Copy Company number' }).click();
      await expect.poll(() => item.getByRole('status').innerText()).toBe('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(company.identifier);
    } finally {
      await context.close();
    }
  });

  it('folds and unfolds a section, and keeps the contents in view on a wide screen', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      await page.goto(`${server.url}/companies/details/${company.uri}/`);
      const section = page.locator('section#identifiers');
      const table = section.locator('table.profile-table');
      expect(await table.isVisible()).toBe(true);
      await section.getByRole('heading', { name: /^Identifiers/ }).click();
      await expect.poll(() => table.isVisible()).toBe(false);
      await section.getByRole('heading', { name: /^Identifiers/ }).click();
      await expect.poll(() => table.isVisible()).toBe(true);

      const contents = page.getByRole('navigation', { name: 'Contents of the profile' });
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
      await expect
        .poll(async () => {
          const box = await contents.boundingBox();
          return box !== null && box.y >= 0 && box.y < 768;
        })
        .toBe(true);
      // A contents link leads to its section.
      await contents.getByRole('link', { name: /^Officers and shareholders/ }).click();
      await page.waitForURL(/#members$/);
    } finally {
      await page.close();
    }
  });
});
