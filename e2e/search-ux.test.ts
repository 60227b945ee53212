// Search as people expect it (ADR 0022): suggestions while typing (app/islands/suggest.js) with
// the keyboard, and the search box as the first stop after the skip link.
import type { Browser } from 'playwright-core';
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
  it('the search box is the first stop after the skip link, on the home and search pages, phone and desktop', async () => {
    for (const width of [390, 1280]) {
      for (const path of ['/', '/companies/search/', '/de/companies/search/?status=1']) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        try {
          await page.goto(`${server.url}${path}`);
          await page.keyboard.press('Tab');
          const skip = await page.evaluate(() => document.activeElement?.getAttribute('href'));
          expect(skip, `${path} at ${width}px`).toBe('#main');
          await page.keyboard.press('Enter');
          await page.keyboard.press('Tab');
          const focused = await page.evaluate(() => ({
            name: document.activeElement?.getAttribute('name'),
            type: document.activeElement?.getAttribute('type'),
          }));
          expect(focused, `${path} at ${width}px`).toEqual({ name: 'q', type: 'search' });
        } finally {
          await page.close();
        }
      }
    }
  });
});

describe('filters', () => {
  it('take several values of one filter (OR) at once, each applied on change, keeping the focus', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      const panel = page.locator('.filter-panel');
      const status = () => panel.getByRole('group', { name: 'Status', exact: true });
      const names = (await status()
        .getByRole('checkbox')
        .evaluateAll((boxes) => boxes.map((b) => (b.parentElement?.textContent ?? '').trim()))) as string[];
      expect(names.length).toBeGreaterThan(1);
      await status().getByRole('checkbox', { name: names[0], exact: true }).check();
      await page.waitForURL((u) => u.searchParams.getAll('status').length === 1);
      await status().getByRole('checkbox', { name: names[1], exact: true }).check();
      await page.waitForURL((u) => u.searchParams.getAll('status').length === 2);
      // The box just ticked has the focus again on the new page.
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('status');
      expect(await status().getByRole('checkbox', { name: names[0], exact: true }).isChecked()).toBe(true);
      expect(await status().getByRole('checkbox', { name: names[1], exact: true }).isChecked()).toBe(true);
      const shown = new Set((await page.locator('td[data-column="status"]').allInnerTexts()).map((t) => t.trim()));
      expect(shown.size).toBeGreaterThan(0);
      for (const name of shown) expect(names.slice(0, 2)).toContain(name);
      // A chip per filter, naming both values.
      expect(await page.getByRole('list', { name: 'Active filters' }).innerText()).toContain(
        `${names[0]} | ${names[1]}`,
      );
      // Unticking one value narrows the search again.
      await status().getByRole('checkbox', { name: names[0], exact: true }).uncheck();
      await page.waitForURL((u) => u.searchParams.getAll('status').length === 1);

      // On a phone the panel, rendered closed, stays open after a box is ticked.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${server.url}/companies/search/`);
      await page.locator('summary', { hasText: 'Filters' }).click();
      await status().getByRole('checkbox', { name: names[1], exact: true }).check();
      await page.waitForURL(/[?&]status=/);
      expect(await status().getByRole('checkbox', { name: names[1], exact: true }).isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('work without JavaScript: ticked boxes and "Apply filters" give the same search', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      // Without script the filters are a panel one click away.
      await page.locator('summary', { hasText: 'Filters' }).click();
      const apply = page.getByRole('button', { name: 'Apply filters' });
      expect(await apply.isVisible()).toBe(true);
      const status = page.locator('.filter-panel').getByRole('group', { name: 'Status', exact: true });
      const boxes = status.getByRole('checkbox');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await apply.click();
      await page.waitForURL((u) => u.searchParams.getAll('status').length === 2);
      await page.locator('summary', { hasText: 'Filters' }).click();
      expect(await status.getByRole('checkbox').nth(0).isChecked()).toBe(true);
      expect(await status.getByRole('checkbox').nth(1).isChecked()).toBe(true);
      expect(await page.getByRole('list', { name: 'Active filters' }).innerText()).toContain(' | ');
    } finally {
      await context.close();
    }
  });
});

describe('long filter lists (ADR 0043)', () => {
  /** A jurisdiction with companies that the panel's short list leaves out, and how many lists hold. */
  const hiddenJurisdiction = async (shown: string[]) => {
    const rows = await server.db.kysely.selectFrom('legal_entities').select('jurisdiction_id').distinct().execute();
    const ids = rows.map((r) => String(r.jurisdiction_id));
    const id = ids.find((x) => !shown.includes(x));
    if (!id) throw new Error('every jurisdiction is in the short list: the test database is too small');
    return { id, name: displayName(server.reference.locations.byId.get(Number(id))), total: ids.length };
  };

  it('with script: the link puts the whole list in place, the focus on its first new box, and a box ticked by keyboard searches', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      const group = page.locator('.filter-panel').getByRole('group', { name: 'Jurisdiction', exact: true });
      const values = () =>
        group.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      const short = await values();
      expect(short.length).toBeLessThanOrEqual(8);
      const wanted = await hiddenJurisdiction(short);
      const more = group.getByRole('link', { name: `All ${wanted.total} choices` });
      await more.focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await values()).length).toBe(wanted.total);
      // Still the same page: the list came in place, the link is gone, the focus on a box not shown before.
      expect(new URL(page.url()).pathname).toBe('/companies/search/');
      expect(await more.count()).toBe(0);
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return { name: el?.name, value: el?.value };
      });
      expect(focused.name).toBe('jurisdiction');
      expect(short).not.toContain(focused.value);
      // The box of the jurisdiction the short list left out, ticked with the keyboard, searches at once.
      const box = group.getByRole('checkbox', { name: wanted.name, exact: true });
      await box.focus();
      await page.keyboard.press('Space');
      await page.waitForURL((u) => u.searchParams.get('jurisdiction') === wanted.id);
      await page.locator('#results-count').waitFor();
      expect(await group.getByRole('checkbox', { name: wanted.name, exact: true }).isChecked()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('without script: the link opens the whole list as a form that keeps the rest of the search', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      const status = server.reference.statuses.items[0];
      await page.goto(`${server.url}/companies/search/?status=${status.id}`);
      await page.locator('summary', { hasText: 'Filters' }).click();
      const group = page.locator('.filter-panel').getByRole('group', { name: 'Jurisdiction', exact: true });
      const short = await group
        .getByRole('checkbox')
        .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      const wanted = await hiddenJurisdiction(short);
      await group.getByRole('link', { name: `All ${wanted.total} choices` }).click();
      await page.waitForURL(/\/companies\/search\/choices\/jurisdiction\//);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Jurisdiction: every choice');
      const list = page.getByRole('group', { name: 'Jurisdiction', exact: true });
      expect(await list.getByRole('checkbox').count()).toBe(wanted.total);
      await list.getByRole('checkbox', { name: wanted.name, exact: true }).check();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(
        (u) => u.pathname === '/companies/search/' && u.searchParams.get('jurisdiction') === wanted.id,
      );
      // The status chosen before is kept; the new filter is one more chip.
      expect(new URL(page.url()).searchParams.get('status')).toBe(String(status.id));
      const chips = await page.getByRole('list', { name: 'Active filters' }).innerText();
      expect(chips).toContain(wanted.name);
      // The chosen value now shows in the panel's short list, ticked.
      await page.locator('summary', { hasText: 'Filters' }).click();
      expect(await group.getByRole('checkbox', { name: wanted.name, exact: true }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('sortable columns', () => {
  it('a header sorts by its column, ascending then descending, and says so; without JavaScript too', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/companies/search/`);
      const header = (name: string) => page.getByRole('columnheader', { name: new RegExp(`^${name}`) });
      // Columns without a declared sort are plain text; the current sort's column says so.
      expect(await header('Company number').getByRole('link').count()).toBe(0);
      expect(await header('Registration date').getAttribute('aria-sort')).toBe('descending');
      expect(await header('Legal name').getAttribute('aria-sort')).toBeNull();

      await header('Legal name').getByRole('link').click();
      await page.waitForURL(/[?&]sort=name_asc/);
      expect(await header('Legal name').getAttribute('aria-sort')).toBe('ascending');
      expect(await header('Registration date').getAttribute('aria-sort')).toBeNull();
      const ascending = await page.locator('td[data-column="legal_name"]').allInnerTexts();
      expect(ascending.length).toBeGreaterThan(1);

      await header('Legal name').getByRole('link').click();
      await page.waitForURL(/[?&]sort=name_desc/);
      expect(await header('Legal name').getAttribute('aria-sort')).toBe('descending');
      const descending = await page.locator('td[data-column="legal_name"]').allInnerTexts();
      expect(descending[0]).not.toBe(ascending[0]);
      const [first] = await server.db.kysely
        .selectFrom('legal_entities')
        .select('name')
        .orderBy('search_name', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      expect(descending[0].trim()).toBe(first.name);

      // Sorting keeps the filters and starts at page 1.
      await page.goto(`${server.url}/companies/search/?status=1&page=2`);
      await header('Registration date').getByRole('link').click();
      await page.waitForURL(/sort=registration_date_asc/);
      const url = new URL(page.url());
      expect(url.searchParams.get('status')).toBe('1');
      expect(url.searchParams.has('page')).toBe(false);
      expect(await header('Registration date').getAttribute('aria-sort')).toBe('ascending');
    } finally {
      await context.close();
    }
  });

  it('record sections sort by their declared date column only', async () => {
    const page = await browser.newPage();
    try {
      // Violations sort by their date, a column; vessels by a date that is no column (no header links).
      await page.goto(`${server.url}/violations/search/`);
      expect(await page.locator('thead th a').count()).toBe(1);
      const header = page.getByRole('columnheader', { name: /^Violation date/ });
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      await header.getByRole('link').click();
      await page.waitForURL(/[?&]sort=violation_date_asc/);
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      await page.goto(`${server.url}/vessels/search/`);
      expect(await page.locator('thead th a').count()).toBe(0);
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
      // A filter applies as soon as its box is ticked: the button is there only without script.
      const status = page.locator('.filter-panel').getByRole('group', { name: 'Status', exact: true });
      expect(await page.getByRole('button', { name: 'Apply filters' }).isVisible()).toBe(false);
      await status.getByRole('checkbox', { name: 'Active', exact: true }).check();
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
