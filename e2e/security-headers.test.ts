import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../core/accounts/password-hash.ts';
import { grantCredits } from '../core/billing/ledger.ts';
import { someCompanies } from '../tests/support/users.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

// The Content-Security-Policy in real Chromium (docs/decisions/0012-security-headers.md): the
// main pages, their islands in use, a hydrating page and the Swagger UI all run under it without
// a single violation. A violation is what the browser reports (the securitypolicyviolation event
// and its console message); every page also proves its script ran.

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const violations: string[] = [];
const PASSWORD = 'a sturdy passphrase 2026';

beforeAll(async () => {
  // The app's job worker runs the export (docs/decisions/0031-export-jobs.md).
  server = await startServer({ jobs: { pollMs: 500 } });
  browser = await launchBrowser();
  context = await browser.newContext({ acceptDownloads: true });
  // Runs before any page script, outside the page's policy.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => violations.push(`${page.url()}: ${error.message}`));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

async function visit(path: string) {
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status(), path).toBeLessThan(400);
  expect(response?.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
}

describe('the Content-Security-Policy in Chromium', () => {
  it('is met by the pages and their islands, for a guest and signed in', async () => {
    const [company] = await someCompanies(server.db, 1);

    // (The preferences island runs on every page: a blocked one would be a violation.)
    await visit('/');

    await visit(`/companies/details/${company.uri}/`);
    // The sign-in gate island: a guest's "Add to list" opens the dialog instead of leaving the page.
    await page.getByRole('link', { name: 'Add to list' }).first().click();
    await page.getByRole('dialog', { name: 'Sign in to proceed' }).waitFor();

    await visit('/companies/search/?q=bank');
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().check();
    // The export-link island carries the ticked rows into the export link.
    await page.getByRole('link', { name: 'Export', exact: true }).click();
    await page.waitForURL(/\/companies\/export\/\?.*ids=\d+/);

    // The filters island sends the form when a box is ticked (app/islands/auto-submit.js).
    await visit('/vessels/search/');
    await page
      .locator('.filter-panel')
      .getByRole('group', { name: 'Company status', exact: true })
      .getByRole('checkbox', { name: 'Active', exact: true })
      .check();
    await page.waitForURL(/[?&]company_status=1/);
    await visit('/vessels/search/advanced/');

    await visit('/companies/comparison/');

    // Swagger UI renders the API (its start-up script is a file).
    await visit('/api/docs');
    await page.locator('.swagger-ui .info .title').waitFor();

    // Signed in: the sign-in form, then an export's page, refreshing itself, and its file.
    const email = `csp.${Date.now().toString(36)}@example.com`;
    const user = await server.db.kysely
      .insertInto('users')
      .values({ email, name: 'Cee Ess Pee', password_hash: await hashPassword(PASSWORD), activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    // An export spends credits (docs/decisions/0019-billing.md).
    await grantCredits(server.db, Number(user.id), 100);
    await visit('/account/login/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
    await visit('/companies/export/?q=bank');
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByRole('button', { name: 'Download' }).click();
    // The export runs as a job: its page refreshes itself until the file is ready.
    await page.waitForURL(/\/dashboard\/exports\/\d+\/$/);
    const link = page.getByRole('link', { name: /^Download registra_/ });
    await link.waitFor({ timeout: 30_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(await file.failure()).toBeNull();
    await visit('/dashboard/settings/security/');

    expect(violations).toEqual([]);
  });
});
