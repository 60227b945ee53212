// Search as people expect it (ADR 0022): suggestions while typing (app/islands/suggest.js) with
// the keyboard, and the search box as the first stop after the skip link.
import type { Browser } from 'playwright-core';
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

describe('suggestions while typing', () => {
  it('lists companies as the visitor types, and opens one with the arrow keys and Enter', async () => {
    const company = await server.db.kysely
      .selectFrom('legal_entities')
      .select(['name', 'uri'])
      .orderBy('search_name')
      .limit(1)
      .executeTakeFirstOrThrow();
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/`);
      const box = page.getByRole('combobox', { name: 'Company name' });
      await box.pressSequentially(company.name.slice(0, 5), { delay: 20 });
      const listbox = page.getByRole('listbox', { name: 'Suggestions' });
      await listbox.waitFor();
      const first = listbox.getByRole('option').first();
      expect((await first.innerText()).toLowerCase()).toContain(company.name.slice(0, 5).toLowerCase());
      await box.press('ArrowDown');
      expect(await first.getAttribute('aria-selected')).toBe('true');
      expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
      await box.press('Enter');
      await page.waitForURL(/\/companies\/details\/[^/]+\/$/);
      expect(new URL(page.url()).pathname).toBe(`/companies/details/${company.uri}/`);
    } finally {
      await page.close();
    }
  });

  it('Escape closes the list; without a choice Enter searches as before', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      const box = page.getByRole('combobox', { name: 'Company name' });
      await box.pressSequentially('ger', { delay: 20 });
      const listbox = page.getByRole('listbox', { name: 'Suggestions' });
      await listbox.waitFor();
      expect(await listbox.getByRole('option', { name: 'Germany', exact: true }).count()).toBe(1);
      await box.press('Escape');
      expect(await box.getAttribute('aria-expanded')).toBe('false');
      await box.press('Enter');
      await page.waitForURL(/[?&]q=ger(&|$)/);
    } finally {
      await page.close();
    }
  });
});

describe('keyboard', () => {
  it('the search box is the first stop after the skip link, on the search page', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(`${server.url}/companies/search/`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    } finally {
      await page.close();
    }
  });
});

describe('the results', () => {
  it('send no empty fields, tick all rows at once, and say and jump to page N of M', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      await page.locator('.filter-panel').getByLabel('Status', { exact: true }).selectOption({ label: 'Active' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/[?&]status=1/);
      // Only the chosen filter: no `jurisdiction=`, `industry=`, blank bounds.
      expect(new URL(page.url()).search).toBe('?status=1');

      const all = page.getByRole('checkbox', { name: 'Select all on this page' });
      await all.check();
      const rows = page.locator('tbody input[name="ids"]');
      expect(await rows.count()).toBeGreaterThan(1);
      for (const box of await rows.all()) expect(await box.isChecked()).toBe(true);
      await rows.first().uncheck();
      expect(await all.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);

      const pagination = page.getByRole('navigation', { name: 'Pagination' });
      const text = await pagination.innerText();
      const [, pages] = /Page 1 of (\d+)/.exec(text) ?? [];
      expect(Number(pages)).toBeGreaterThan(1);
      await page.getByLabel('Go to page').fill('2');
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await page.waitForURL(/[?&]page=2/);
      expect(await page.getByRole('navigation', { name: 'Pagination' }).innerText()).toContain(`Page 2 of ${pages}`);
      expect(new URL(page.url()).searchParams.get('status')).toBe('1');
    } finally {
      await page.close();
    }
  });
});
