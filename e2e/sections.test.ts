// Every search section in a real browser: open /{section}/search/, apply a filter from
// the panel, see the declared columns (spec §2 "Table columns") and open the linked company.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18nFor } from '../core/i18n/i18n.ts';
import type { LabelRef } from '../core/sections/section.ts';
import { SECTIONS } from '../core/sections/sections.ts';
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

const t = i18nFor('en').t;
const english = (label: LabelRef) => (typeof label === 'string' ? t(label) : label.en);

/** The column headers' labels, without a sortable header's hidden hint and arrow (ADR 0022). */
const columnLabels = (page: Page) =>
  page.locator('table.results-table thead th').evaluateAll((headers) =>
    headers.map((th) => {
      const copy = th.cloneNode(true) as HTMLElement;
      for (const extra of copy.querySelectorAll('.visually-hidden, .sort-arrow')) extra.remove();
      return (copy.textContent ?? '').trim();
    }),
  );

describe('every search section', () => {
  for (const section of SECTIONS) {
    it(`${section.id}: filters from the panel, shows the declared columns and links to the company`, async () => {
      const page = await browser.newPage();
      try {
        const response = await page.goto(`${server.url}/${section.id}/search/`);
        expect(response?.status()).toBe(200);
        // Companies filter their own status; record sections the status of their company.
        const statusField = section.record ? 'Company status' : 'Status';
        const parameter = section.record ? 'company_status' : 'status';
        // A ticked box applies at once (app/islands/auto-submit.js).
        await page
          .locator('.filter-panel')
          .getByRole('group', { name: statusField, exact: true })
          .getByRole('checkbox', { name: 'Active', exact: true })
          .check();
        await page.waitForURL(new RegExp(`[?&]${parameter}=1(&|$)`));
        await expect.poll(() => page.getByRole('list', { name: 'Active filters' }).innerText()).toContain('Active');

        expect(await columnLabels(page)).toEqual(section.columns.map((c) => english(c.label)));

        const linkColumn = section.record ? 'company_legal_name' : 'legal_name';
        const link = page.locator(`td[data-column="${linkColumn}"] a`).first();
        const name = (await link.innerText()).trim();
        expect(name.length).toBeGreaterThan(0);
        await link.click();
        await page.waitForURL(/\/companies\/details\/[^/]+\/$/);
        expect((await page.locator('h1').innerText()).trim()).toBe(name);
      } finally {
        await page.close();
      }
    });
  }

  it('a date the panel cannot take marks its field and keeps the other filters, until corrected', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      const panel = page.locator('.filter-panel');
      const active = panel
        .getByRole('group', { name: 'Status', exact: true })
        .getByRole('checkbox', { name: 'Active', exact: true });
      await active.check();
      await page.waitForURL(/[?&]status=1/);
      const from = panel.locator('input[name="dates[registration]:from"]');
      // It passes the input's own pattern, and is no day; Enter sends it (the button is for pages without script).
      await from.fill('2020-13-45');
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/companies/search/?')),
        from.press('Enter'),
      ]);
      expect(response.status()).toBe(400);
      await expect.poll(() => from.getAttribute('aria-invalid')).toBe('true');
      expect(await from.inputValue()).toBe('2020-13-45');
      expect(await page.getByRole('alert').innerText()).toBe(t('search.invalidFilters'));
      expect(await panel.getByText(/^Not a date/).isVisible()).toBe(true);
      expect(await active.isChecked()).toBe(true);
      await expect.poll(() => page.getByRole('list', { name: 'Active filters' }).innerText()).toContain('Active');

      await from.fill('2020');
      await from.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('dates[registration]:from') === '2020');
      expect(await page.locator('.filter-panel input[aria-invalid]').count()).toBe(0);
      await expect.poll(() => page.getByRole('list', { name: 'Active filters' }).innerText()).toContain('2020');
    } finally {
      await page.close();
    }
  });

  it('contacts filtered by type show only that contact column (spec §2)', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/contacts/search/f/type-email/`);
      const headers = (await page.locator('table.results-table thead th').allInnerTexts()).map((h) => h.trim());
      expect(headers).toContain('Email');
      expect(headers).not.toContain('Phone');
      expect(headers).not.toContain('Website');
      const emails = await page.locator('td[data-column="email"]').allInnerTexts();
      expect(emails.length).toBeGreaterThan(0);
      // A guest bought no profile: the emails wait for a purchase (ADR 0029).
      for (const email of emails) expect(email).not.toContain('@');
    } finally {
      await page.close();
    }
  });
});
