import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

// Statistics cookies are opt-in (ADR 0021, ePrivacy: consent first): a first visit sets no
// visitor (`uid`) or campaign (`utm`) cookie; accepting in the cookie notice lets them be set;
// refusing sets none, and the choice is remembered (the notice does not come back).

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

/** A visitor's browser: headless Chromium's own User-Agent says "HeadlessChrome", which isbot takes for a robot (no cookies, by design). */
const VISITOR = {
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
};
const names = async (context: BrowserContext) => (await context.cookies()).map((c) => c.name);
const STATISTICS = ['uid', 'utm'];

describe('the cookie notice in a browser', () => {
  it('sets no statistics cookie on a first visit, and sets them once the visitor accepts', async () => {
    const context = await browser.newContext(VISITOR);
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/directories/jurisdictions/?utm_source=newsletter&utm_campaign=autumn`);
    const notice = page.locator('section.cookie-notice');
    expect(await notice.isVisible()).toBe(true);
    // Browsing on without a choice sets none either.
    await page.goto(`${server.url}/companies/search/?utm_source=newsletter`);
    for (const name of STATISTICS) expect(await names(context)).not.toContain(name);

    await page.locator('section.cookie-notice button[value="accepted"]').click();
    await page.waitForLoadState('load');
    // Back on the same page (its campaign parameters too): the cookies are set from here on.
    expect(new URL(page.url()).pathname).toBe('/companies/search/');
    expect(await page.locator('section.cookie-notice').count()).toBe(0);
    await expect.poll(() => names(context)).toEqual(expect.arrayContaining(['cookie_consent', 'uid', 'utm']));
    const consent = (await context.cookies()).find((c) => c.name === 'cookie_consent');
    expect(consent?.value).toBe('accepted');
    await context.close();
  });

  it('refusing sets none, and the choice is remembered on later pages', async () => {
    const context = await browser.newContext(VISITOR);
    const page = await context.newPage();
    await page.goto(`${server.url}/?utm_source=partner`);
    await page.locator('section.cookie-notice button[value="refused"]').click();
    await page.waitForLoadState('load');
    expect((await context.cookies()).find((c) => c.name === 'cookie_consent')?.value).toBe('refused');
    for (const url of ['/companies/search/?utm_source=partner', '/de/companies/directories/industries/']) {
      await page.goto(`${server.url}${url}`);
      expect(await page.locator('section.cookie-notice').count()).toBe(0);
    }
    for (const name of STATISTICS) expect(await names(context)).not.toContain(name);
    await context.close();
  });
});
