import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../core/accounts/password-hash.ts';
import { grantCredits } from '../core/billing/ledger.ts';
import { parseStrictCsv } from '../tests/support/export-readers.ts';
import { someCompanies } from '../tests/support/users.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Enrichment in a real browser (ADR 0020 "Enrichment"): a guest gets the sign-in popup; a user
// uploads a small CSV, sees the columns guessed and the cost, runs it (the server's worker runs the
// job; the page refreshes itself until it is done), accepts an uncertain match, and downloads the
// enriched file. On a phone the review's candidates are cards, and decisions are made without a
// page load (ADR 0032).

let server: TestServer;
let browser: Browser;
const PASSWORD = 'a sturdy passphrase 2026';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

beforeAll(async () => {
  server = await startServer({ jobs: { pollMs: 200 } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('enrichment', () => {
  it('gates a guest with the sign-in popup', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/companies/enrichment/`);
    await page.getByRole('link', { name: 'Upload and check the columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to enrich your file');
    await page.close();
  });

  it('uploads a CSV, shows the cost, runs, reviews one row and downloads the file', async () => {
    const email = `enrich.${Date.now().toString(36)}@example.com`;
    const user = await server.db.kysely
      .insertInto('users')
      .values({ email, name: 'Erin Enricher', password_hash: await hashPassword(PASSWORD), activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await grantCredits(server.db, Number(user.id), 50);
    const [a, c] = await someCompanies(server.db, 2, 70);
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/account/login/?returnTo=/companies/enrichment/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/companies/enrichment/`);

    // Row 1: name and number (matched); row 2: a name in the wrong country (for review).
    const csv = `Company;Company number;Country\n${a.name};${a.companyNumber};\n${c.name};;Japan\n`;
    await page
      .getByLabel(/File \(CSV or XLSX/)
      .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and check the columns' }).click();
    await page.waitForURL(/\/companies\/enrichment\/\d+\/$/);
    expect(await page.getByLabel('Company name').inputValue()).toBe('0');
    expect(await page.getByLabel('Registration number').inputValue()).toBe('1');
    expect(await page.getByLabel('Country or jurisdiction').inputValue()).toBe('2');
    expect(await page.locator('.enrichment-cost').innerText()).toBe('Enriching 2 rows costs 1 credit.');
    await page.getByRole('button', { name: 'Run the enrichment' }).click();

    // The page refreshes itself until the worker is done.
    await page.locator('.enrichment-status', { hasText: 'Done' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.enrichment-summary').innerText()).toMatch(/Matched automatically: 1/);
    const row = page.getByRole('form', { name: 'Row 2' });
    await row.getByRole('radio', { name: new RegExp(c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).check();
    // Under the site's CSP, the island (allowed by its hash) decides in place: no page load.
    let loads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) loads += 1;
    });
    await row.getByRole('button', { name: 'Save the decision' }).click();
    // Decided in place (app/islands/enrichment-review.js): the row says what was decided, the counts follow.
    await page.locator('p.enrichment-decided', { hasText: `Row 2: ${c.name} accepted.` }).waitFor();
    expect(loads).toBe(0);
    expect(await page.locator('.enrichment-summary').innerText()).toMatch(/Accepted by you: 1/);

    await page.getByRole('radio', { name: 'CSV' }).check();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/enriched_clients.*\.csv$/);
    const records = parseStrictCsv(await readFile(await file.path(), 'utf8'), ',');
    expect(records[0].slice(0, 6)).toEqual([
      'Company',
      'Company number',
      'Country',
      'Match',
      'Match score',
      'Registra URI',
    ]);
    expect(records[1][3]).toBe('matched');
    expect(records[1][5]).toBe(a.uri);
    expect(records[2][3]).toBe('accepted');
    expect(records[2][5]).toBe(c.uri);
    await context.close();
  }, 90_000);

  it('reviews on a phone: candidates as cards, decisions without a page load', async () => {
    const user = await createUser(server.db, 'Petra Phone', { credits: 50 });
    const [c, d] = await someCompanies(server.db, 2, 90);
    // The CSP is bypassed only to inject axe (the journey above decides under it).
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/account/login/?returnTo=/companies/enrichment/`);
    await signIn(page, user.email);
    await page.waitForURL(`${server.url}/companies/enrichment/`);
    // Two names in the wrong country: both for review.
    const csv = `Company;Country\n${c.name};Japan\n${d.name};Japan\n`;
    await page
      .getByLabel(/File \(CSV or XLSX/)
      .setInputFiles({ name: 'phone.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and check the columns' }).click();
    await page.waitForURL(/\/companies\/enrichment\/\d+\/$/);
    await page.getByRole('button', { name: 'Run the enrichment' }).click();
    await page.locator('.enrichment-status', { hasText: 'Done' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.enrichment-summary').innerText()).toMatch(/To review: 2/);

    // Cards: nothing wider than the screen, each candidate a block with its labelled lines.
    const row = page.getByRole('form', { name: 'Row 1' });
    const table = row.getByRole('table', { name: /Candidates for row 1/ });
    await table.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const card = table.locator('tbody tr').first();
    expect(await card.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    const box = await card.boundingBox();
    expect(box?.width ?? 999).toBeLessThanOrEqual(390);
    // Each line labelled by its column (the cell's ::before), the explanation among them.
    const why = card.locator('td.lines');
    expect(await why.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Why"');
    expect(await card.innerText()).toMatch(/Registered in \w+, not JP/);

    await page.evaluate(AXE);
    const violations = (await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
      const result = await (window as any).axe.run('[aria-labelledby="enrichment-review"]', {
        resultTypes: ['violations'],
      });
      return result.violations.map(
        (v: { id: string; nodes: { target: string[] }[] }) => `${v.id} at ${v.nodes[0]?.target}`,
      );
    })) as string[];
    expect(violations).toEqual([]);

    // A decision: no navigation, the row replaced by what was decided, the counts updated.
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const url = page.url();
    await row.getByText('None of these').click();
    await row.getByRole('button', { name: 'Save the decision' }).click();
    await page.locator('p.enrichment-decided', { hasText: 'Row 1: none of the candidates.' }).waitFor();
    // "Accept all at or above 50 %" in place too: row 2's best candidate accepted, said and focused.
    await page.getByLabel('Lowest score to accept (%)').fill('50');
    await page.getByRole('button', { name: 'Accept the best candidates' }).click();
    await page.locator('p.enrichment-decided', { hasText: /^Row 2: .+ accepted\.$/ }).waitFor();
    expect(await page.getByRole('form', { name: 'Row 2' }).count()).toBe(0);
    const notice = page.locator('[data-accept-all-notice]');
    expect(await notice.innerText()).toBe('1 row was accepted.');
    expect(await notice.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('.enrichment-summary').innerText()).toMatch(/Accepted by you: 1/);
    expect(await page.locator('.enrichment-summary').innerText()).toMatch(/Rejected by you: 1/);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(navigations).toBe(0);
    expect(page.url()).toBe(url);
    await context.close();
  }, 90_000);
});
