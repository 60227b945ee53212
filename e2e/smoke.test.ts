import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

it('serves the home page to a real browser', async () => {
  const page = await browser.newPage();
  const response = await page.goto(`${server.url}/`);
  expect(response?.status()).toBe(200);
  expect((await page.title()).trim()).not.toBe('');
  await page.close();
});
