import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

// Stored preferences (spec §4): what a visitor opens on one page is restored on
// the next from local storage, while the one-day preference cookie lives; without that cookie,
// stored data is reset to empty.

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

const KEY = 'registra.preferences';

describe('stored preferences', () => {
  it('restores the opened table settings on the next page, and resets storage when the cookie is gone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/search/`);
    const settings = page.locator('details[data-pref="table-view"]');
    expect(await settings.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await settings.locator('summary').click();
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), KEY)).toBe('{"table-view":true}');
    const cookie = (await context.cookies()).find((c) => c.name === 'preference_entities');
    expect(cookie?.path).toBe('/');
    // One day (86400 s), give or take the test's own seconds.
    expect(Math.round((cookie?.expires ?? 0) - Date.now() / 1000)).toBeGreaterThan(86400 - 60);

    // Another section's search page opens with the settings open.
    await page.goto(`${server.url}/vessels/search/`);
    expect(await page.locator('details[data-pref="table-view"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
      true,
    );

    // The cookie expires (here: cleared): the stored preferences are reset, and the page is back to its defaults.
    await context.clearCookies({ name: 'preference_entities' });
    await page.goto(`${server.url}/companies/search/`);
    expect(await page.locator('details[data-pref="table-view"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
      false,
    );
    expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBe('{}');
    await context.close();
  });

  it('ignores stored data it cannot read', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/companies/search/`);
    await context.addCookies([{ name: 'preference_entities', value: '1', url: server.url }]);
    await page.evaluate((key) => localStorage.setItem(key, 'not json {'), KEY);
    await page.reload();
    expect(await page.locator('details[data-pref="table-view"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
      false,
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
