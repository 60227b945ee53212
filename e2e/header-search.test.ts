// The header's search box on every page (ADR 0022): on an inner page it suggests companies as one
// types and opens one with the keyboard, as the home page's box does; on a phone it sits behind the
// header's "Search" button, which unfolds it with the cursor in it, without sideways scroll; and it is
// a plain GET form without script.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const BOX = 'Find a company';

let server: TestServer;
let browser: Browser;
/** The profile the tests start on, and another company to look up from it. */
let profilePath: string;
let other: { name: string; uri: string };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const [first, second] = await server.db.kysely
    .selectFrom('legal_entities')
    .select(['name', 'uri'])
    .orderBy('search_name')
    .limit(2)
    .execute();
  profilePath = `/companies/details/${second.uri}/`;
  other = first;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as { id: string; nodes: { target: string[] }[] }[];
  return violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the header search box', () => {
  it('on a profile page suggests companies as one types; ArrowDown and Enter open the one suggested', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    try {
      await page.goto(`${server.url}${profilePath}`);
      const box = page.getByRole('combobox', { name: BOX });
      expect(await box.isVisible()).toBe(true);
      await box.pressSequentially(other.name.slice(0, 5), { delay: 20 });
      const listbox = page.getByRole('listbox', { name: 'Suggestions' });
      await listbox.waitFor();
      const first = listbox.getByRole('option').first();
      expect(await first.innerText()).toContain(other.name);
      expect(await axeViolations(page)).toEqual([]);
      await box.press('ArrowDown');
      expect(await first.getAttribute('aria-selected')).toBe('true');
      expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
      await box.press('Enter');
      await page.waitForURL((url) => url.pathname === `/companies/details/${other.uri}/`);
    } finally {
      await page.close();
    }
  });

  it('on a phone sits behind the Search button, which unfolds it with the cursor in it, without sideways scroll', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      await page.goto(`${server.url}${profilePath}`);
      const box = page.getByRole('combobox', { name: BOX });
      const button = page.locator('.site-header summary', { hasText: 'Search' });
      expect(await box.isVisible()).toBe(false);
      expect(await button.isVisible()).toBe(true);
      // The button is in the header's first row, beside Menu.
      const bar = await page.locator('.brand').boundingBox();
      const at = await button.boundingBox();
      expect(Math.abs((at?.y ?? 0) + (at?.height ?? 0) / 2 - ((bar?.y ?? 0) + (bar?.height ?? 0) / 2))).toBeLessThan(8);

      // With the keyboard: the button takes the focus, Enter unfolds the box and puts the cursor in it.
      await button.focus();
      await page.keyboard.press('Enter');
      await box.waitFor({ state: 'visible' });
      // The panel's `toggle` event, which moves the focus, is queued after it opens: wait for it, not just for the box.
      await page.waitForFunction(() => document.activeElement?.id === 'site-q', undefined, { timeout: 5000 });
      const frame = await box.boundingBox();
      expect((frame?.x ?? -1) >= 0 && (frame?.x ?? 0) + (frame?.width ?? 0) <= 390).toBe(true);

      await page.keyboard.type(other.name.slice(0, 5), { delay: 20 });
      const listbox = page.getByRole('listbox', { name: 'Suggestions' });
      await listbox.waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);

      // Escape closes the list first, then folds the box away, the focus back on the button.
      await page.keyboard.press('Escape');
      expect(await box.getAttribute('aria-expanded')).toBe('false');
      expect(await box.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await box.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');

      // Unfolded again, ArrowDown and Enter open the suggestion.
      await button.click();
      await box.fill('');
      await box.pressSequentially(other.name.slice(0, 5), { delay: 20 });
      await listbox.waitFor();
      await box.press('ArrowDown');
      await box.press('Enter');
      await page.waitForURL((url) => url.pathname === `/companies/details/${other.uri}/`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    } finally {
      await page.close();
    }
  });

  it('is a plain search form without script, on a phone and on a wide screen', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      for (const width of [390, 1280]) {
        const page = await context.newPage();
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`${server.url}/de${profilePath}`);
        // Without script the panel is rendered closed: one click away at any width.
        await page.locator('.site-header summary', { hasText: 'Suche' }).click();
        const box = page.getByRole('searchbox', { name: 'Unternehmen finden' });
        await box.fill(other.name);
        await box.press('Enter');
        await page.waitForURL((url) => url.pathname === '/de/companies/search/');
        expect(new URL(page.url()).searchParams.get('q'), `at ${width} px`).toBe(other.name);
        expect(await page.locator(`a[href="/de/companies/details/${other.uri}/"]`).count()).toBeGreaterThan(0);
        expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
        await page.close();
      }
    } finally {
      await context.close();
    }
  });
});
