// The advanced search in a real browser (ADR 0022): labelled fields grouped by topic, values ticked
// from lists (several values of one filter = OR, several filters = AND), one "Show results" that
// opens the search with no empty parameters; the search comes back into the form to be changed.
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

/** A topic of the form, by its legend. */
const topic = (page: Page, name: string) =>
  page.locator('form.advanced-form').getByRole('group', { name, exact: true }).first();

/** Every visible control of the form has a name a person reads, and none is a raw parameter name. */
async function expectLabelledControls(page: Page) {
  const unnamed = await page
    .locator('form.advanced-form')
    .locator('input:not([type="hidden"]), select')
    .evaluateAll((controls) =>
      controls
        .filter((c) => {
          const label = (c as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? '';
          return label === '' || /[[\]:]|_/.test(label);
        })
        .map((c) => c.getAttribute('name')),
    );
  expect(unnamed).toEqual([]);
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/is_known|is_unknown|\w\[\w+\]|:from|:to\b/);
}

describe('advanced search', () => {
  it('builds a search from lists and fields grouped by topic: AND between filters, OR between values', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/vessels/search/advanced/`);
      await expectLabelledControls(page);
      for (const name of ['Vessels', 'Location', 'Industry', 'Status', 'Size', 'Dates'])
        expect(await topic(page, name).count(), name).toBe(1);

      const vessels = topic(page, 'Vessels');
      await vessels.getByRole('checkbox', { name: 'Tanker', exact: true }).check();
      await vessels.getByRole('checkbox', { name: 'Tug', exact: true }).check();
      await topic(page, 'Status')
        .getByRole('group', { name: 'Company status', exact: true })
        .getByRole('checkbox', { name: 'Active', exact: true })
        .check();
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/vessels\/search\/\?/);
      const url = new URL(page.url());
      expect(url.searchParams.getAll('vessel_type').sort()).toEqual(['tanker', 'tug']);
      expect(url.searchParams.get('company_status')).toBe('1');
      // No empty parameters: the fields left empty are left out.
      expect([...url.searchParams.values()].filter((v) => v === '')).toEqual([]);
      const types = await page.locator('td[data-column="vessel_type"]').allInnerTexts();
      expect(types.length).toBeGreaterThan(0);
      for (const type of types) expect(['Tanker', 'Tug']).toContain(type.trim());
      expect(await page.getByRole('list', { name: 'Active filters' }).innerText()).toContain(
        'Vessel type: Tanker | Tug',
      );

      // The advanced search of these results shows them ticked, and a chip removes one filter.
      await page.getByRole('link', { name: 'Advanced search' }).click();
      await page.waitForURL(/\/vessels\/search\/advanced\/\?/);
      expect(await topic(page, 'Vessels').getByRole('checkbox', { name: 'Tanker', exact: true }).isChecked()).toBe(
        true,
      );
      expect(await page.locator('.advanced-current .chips').innerText()).toContain('Vessel type: Tanker | Tug');
      await page.getByRole('link', { name: /Remove filter Vessel type/ }).click();
      await page.waitForURL((u) => !u.searchParams.has('vessel_type'));
      expect(new URL(page.url()).searchParams.get('company_status')).toBe('1');
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/vessels\/search\/\?company_status=1$/);
    } finally {
      await page.close();
    }
  });

  it('chooses typed filters by their names: a date range, an identifier, a contact on record', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/advanced/`);
      await expectLabelledControls(page);
      const dates = topic(page, 'Dates').getByRole('group', { name: 'Registration', exact: true });
      await dates.getByLabel('From').fill('2000');
      await topic(page, 'Contact details')
        .getByRole('group', { name: 'Website', exact: true })
        .getByRole('checkbox', { name: 'On record', exact: true })
        .check();
      await topic(page, 'Name and identifiers').getByLabel('Company name', { exact: true }).fill('a');
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/companies\/search\/\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('q')).toBe('a');
      expect(url.searchParams.get('dates[registration]:from')).toBe('2000');
      expect(url.searchParams.has('contacts[website]:is_known')).toBe(true);
      expect([...url.searchParams].filter(([k, v]) => v === '' && !k.endsWith(':is_known'))).toEqual([]);
      const chips = await page.getByRole('list', { name: 'Active filters' }).innerText();
      expect(chips).toContain('Contacts (Website): known');
    } finally {
      await page.close();
    }
  });

  it('works without JavaScript: the same form opens the same search', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/companies/search/advanced/`);
      await topic(page, 'Status')
        .getByRole('group', { name: 'Status', exact: true })
        .getByRole('checkbox', { name: 'Active', exact: true })
        .check();
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/companies\/search\/\?/);
      expect(new URL(page.url()).searchParams.getAll('status')).toEqual(['1']);
      const withScript = await browser.newPage();
      await withScript.goto(`${server.url}/companies/search/?status=1`);
      expect(await page.locator('#results-count').innerText()).toBe(
        await withScript.locator('#results-count').innerText(),
      );
      await withScript.close();
    } finally {
      await context.close();
    }
  });
});
