// The advanced search in a real browser: find a parameter, add filters as chips
// (AND), add a second value to one filter (OR), remove a chip; the URL carries the whole search.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const paramForm = (page: Page, name: string) =>
  page.locator('form.param-form', { has: page.locator('code.param-name', { hasText: new RegExp(`^${name}$`) }) });

describe('advanced search', () => {
  it('builds a search from chips: AND between parameters, OR between values, all in the URL', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/vessels/search/advanced/`);
      await page.locator('.advanced-search[data-live]').waitFor();
      // Typing filters the list of parameters at once (the page hydrates).
      await page.getByLabel('Find a parameter').fill('vessel type');
      await expect.poll(() => paramForm(page, 'imo_number').count()).toBe(0);
      expect(await paramForm(page, 'vessel_type').count()).toBe(1);

      await paramForm(page, 'vessel_type').locator('select').selectOption({ label: 'Tanker' });
      await paramForm(page, 'vessel_type').getByRole('button', { name: 'Add' }).click();
      await page.waitForURL(/vessel_type=tanker/);
      expect(await page.locator('.advanced-current .chips').innerText()).toContain('Vessel type: Tanker');

      // A second value of the same parameter widens it (OR).
      await paramForm(page, 'vessel_type').locator('select').selectOption({ label: 'Tug' });
      await paramForm(page, 'vessel_type').getByRole('button', { name: 'Add value (OR)' }).click();
      await page.waitForURL(/vessel_type=tug/);
      expect(await page.locator('.advanced-current .chips').innerText()).toContain('Vessel type: Tanker | Tug');

      // Another parameter narrows it (AND); its group opens when the list is searched.
      await page.locator('.advanced-search[data-live]').waitFor();
      await page.getByLabel('Find a parameter').fill('company status');
      await paramForm(page, 'company_status').locator('select').selectOption({ label: 'Active' });
      await paramForm(page, 'company_status').getByRole('button', { name: 'Add' }).click();
      await page.waitForURL(/company_status=1/);

      await page.getByRole('link', { name: 'Show results' }).click();
      await page.waitForURL(/\/vessels\/search\/\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('vessel_type')).toBe('tanker|tug');
      expect(url.searchParams.get('company_status')).toBe('1');
      const types = await page.locator('td[data-column="vessel_type"]').allInnerTexts();
      expect(types.length).toBeGreaterThan(0);
      for (const type of types) expect(['Tanker', 'Tug']).toContain(type.trim());

      // The same URL, opened afresh, is the same search (bookmarkable).
      const again = await browser.newPage();
      await again.goto(page.url());
      expect(await again.locator('#results-count').innerText()).toBe(await page.locator('#results-count').innerText());
      await again.close();

      // Removing a chip removes that filter only.
      await page.getByRole('link', { name: /Remove filter Vessel type/ }).click();
      await page.waitForURL((u) => !u.searchParams.has('vessel_type'));
      expect(new URL(page.url()).searchParams.get('company_status')).toBe('1');
    } finally {
      await page.close();
    }
  });
});
