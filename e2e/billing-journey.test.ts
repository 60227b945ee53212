import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance } from '../core/billing/ledger.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Credits in a real browser (docs/decisions/0019-billing.md), through the sandbox checkout that
// `npm start` uses without payment keys: a guest's "Buy" opens the sign-in popup and, once signed
// in, the order is placed and its checkout opens; paying it shows the order paid and the credits in
// the header; an advanced profile shows its price (2 credits) and the balance after, and buying it
// takes 2; an export of two rows takes 1; a plan is subscribed and cancelled at its period's end.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  // The app's job worker runs the export (docs/decisions/0031-export-jobs.md).
  server = await startServer({ jobs: { pollMs: 500 } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const headerCredits = (page: Page) => page.locator('.site-header .credit-balance').innerText();

describe('buying and spending credits', () => {
  it('buys a pack as a guest who signs in, opens an advanced profile for 2, exports for 1, subscribes and cancels', async () => {
    const { email, id } = await createUser(server.db, 'Bea Buyer');
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();

    // A guest's Buy opens the popup; signing in comes back and places the order.
    await page.goto(`${server.url}/info/pricing/`);
    await page.getByRole('link', { name: 'Buy' }).nth(1).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to buy credits');
    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, email);
    await page.waitForURL(/\/dashboard\/orders\/1\/checkout\/$/);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Pay order #1');

    // The sandbox checkout: pay, and come back to the orders page.
    await page.getByRole('button', { name: 'Pay €39.00' }).click();
    await page.waitForURL(/\/dashboard\/orders\/\?order=1$/);
    expect(await page.getByRole('status').first().innerText()).toContain('order #1 is paid');
    expect(await page.locator('tr[data-status="paid"]').count()).toBe(1);
    expect(await headerCredits(page)).toBe('50 credits');

    // An advanced profile: its price and the balance after, then bought for 2.
    const advanced = await sql<{ uri: string }>`
      select le.uri from legal_entities le
      where (select count(*) from legal_entity_members m where m.legal_entity_id = le.id) >= 10
         or (select count(*) from legal_entity_identifiers m where m.legal_entity_id = le.id) >= 10
      order by le.id limit 1`.execute(server.db.kysely);
    await page.goto(`${server.url}/companies/details/${advanced.rows[0].uri}/`);
    expect(await page.locator('.profile-purchase').innerText()).toContain('Your balance after: 48 credits.');
    await page.getByRole('button', { name: 'Open the full profile (2 credits)' }).click();
    await page.waitForURL(/#contacts$/);
    expect(await page.locator('.profile-bought').innerText()).toContain('You bought the full profile');
    expect(await headerCredits(page)).toBe('48 credits');

    // An export of two ticked rows: 1 credit.
    const two = await server.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(2).execute();
    await page.goto(`${server.url}/companies/export/?ids=${two.map((r) => r.id).join(',')}`);
    await page.getByRole('button', { name: 'Download' }).click();
    // Charged when the export started: its page shows the balance after the charge.
    await page.waitForURL(/\/dashboard\/exports\/\d+\/$/);
    expect(await creditBalance(server.db, id)).toBe(47);
    expect(await page.locator('.export-job-page').innerText()).toContain('Your balance: 47 credits');
    expect(await headerCredits(page)).toBe('47 credits');
    const link = page.getByRole('link', { name: /^Download registra_/ });
    await link.waitFor({ timeout: 30_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect((await readFile(await file.path())).length).toBeGreaterThan(0);
    expect(await creditBalance(server.db, id)).toBe(47);

    // A plan: subscribed through the checkout, then cancelled at its period's end.
    await page.goto(`${server.url}/info/pricing/`);
    await page.getByRole('button', { name: 'Subscribe' }).first().click();
    await page.getByRole('button', { name: /^Pay €25\.00$/ }).click();
    await page.waitForURL(/\/dashboard\/orders\/\?order=2$/);
    expect(await headerCredits(page)).toBe('77 credits');
    await page.goto(`${server.url}/dashboard/subscriptions/`);
    const table = await page.locator('table').innerText();
    expect(table).toContain('Basic');
    expect(table).toContain('77 credits');
    await page.getByRole('link', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel at the period’s end' }).click();
    await page.waitForURL(/done=cancelled$/);
    expect(await page.getByRole('status').innerText()).toContain('Your subscription is cancelled: it ends on');
    expect(await page.getByRole('link', { name: 'Cancel subscription' }).count()).toBe(0);
    await context.close();
  });
});
