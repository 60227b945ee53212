import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictCsv, parseStrictXml } from '../tests/support/export-readers.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Export in a real browser: a guest's download opens the sign-in popup; a signed-in
// user ticks rows in search results, opens the export from the results bar and downloads the
// selected rows in each format — each export a background job whose page follows it to its file
// (docs/decisions/0031-export-jobs.md) —, then all rows of the search; the choices come back next
// time. An export started and its tab closed finishes anyway and downloads from /dashboard/exports/.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  // The app's own job worker runs the exports; a second between looks, so that a tab can close first.
  server = await startServer({ jobs: { pollMs: 1000 } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Clicks Download on the export page, follows the export's page until its file is ready (it
 * refreshes itself), downloads it and comes back to the export page; returns the file's name and bytes.
 */
async function download(page: Page): Promise<{ name: string; data: Buffer }> {
  const form = page.url();
  await page.getByRole('button', { name: 'Download' }).click();
  await page.waitForURL(/\/dashboard\/exports\/\d+\/$/);
  const file = await downloadFrom(page, page.getByRole('link', { name: /^Download registra_/ }));
  await page.goto(form);
  return file;
}

/** Waits for a download link (the page refreshes itself until the export is done) and saves its file. */
async function downloadFrom(page: Page, link: Locator): Promise<{ name: string; data: Buffer }> {
  await link.waitFor({ timeout: 30_000 });
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), data: await readFile(path) };
}

describe('export', () => {
  it('gates a guest with the sign-in popup', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/companies/export/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Export: Companies');
    await page.getByRole('link', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to export');
    await page.close();
  });

  it('downloads the ticked rows of a search in every format, then all of it', async () => {
    const { email } = await createUser(server.db, 'Ella Exporter', { credits: 100_000 });
    const pick = await sql<{ word: string }>`
      select w.word from name_words w where length(w.word) >= 4 and w.documents between 4 and 40
      order by w.documents desc, w.word limit 1`.execute(server.db.kysely);
    const word = pick.rows[0].word;
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/account/login/`);
    await signIn(page, email);
    await page.waitForURL(`${server.url}/`);

    await page.goto(`${server.url}/companies/search/?q=${encodeURIComponent(word)}`);
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().waitFor();
    const chosen: string[] = [];
    for (let i = 0; i < 2; i++) {
      chosen.push(((await boxes.nth(i).getAttribute('aria-label')) ?? '').replace(/^Select: /, ''));
      await boxes.nth(i).check();
    }
    await page.getByRole('link', { name: 'Export', exact: true }).click();
    await page.waitForURL(/\/companies\/export\/\?q=.*&ids=\d+(,|%2C)\d+$/);
    expect(await page.getByRole('radio', { name: 'The selected rows (2)' }).isChecked()).toBe(true);

    // CSV, semicolon-separated.
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByLabel('CSV separator').selectOption('semicolon');
    const csv = await download(page);
    expect(csv.name).toMatch(/^[a-z0-9_]+_legal_entities_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.csv$/);
    const records = parseStrictCsv(csv.data.toString('utf8'), ';');
    expect(
      records
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual([...chosen].sort());

    const json = await (async () => {
      await page.getByRole('radio', { name: 'JSON' }).check();
      return download(page);
    })();
    expect(json.name.endsWith('.json')).toBe(true);
    expect(
      JSON.parse(json.data.toString('utf8'))
        .legal_entities.map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual([...chosen].sort());

    await page.getByRole('radio', { name: 'XML' }).check();
    const xml = await download(page);
    const root = parseStrictXml(xml.data.toString('utf8'));
    expect(root.children[0].children.map((e) => e.children.find((c) => c.name === 'name')?.text).sort()).toEqual(
      [...chosen].sort(),
    );

    await page.getByRole('radio', { name: 'Excel (XLSX)' }).check();
    const xlsx = await download(page);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.data as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(3);
    expect([sheet.getRow(2).getCell(2).value, sheet.getRow(3).getCell(2).value].sort()).toEqual([...chosen].sort());

    // All rows of the search, as CSV: the export page of the search without ticked rows.
    await page.goto(`${server.url}/companies/search/?q=${encodeURIComponent(word)}`);
    await page.getByRole('link', { name: 'Export', exact: true }).click();
    await page.waitForURL(/\/companies\/export\/\?q=/);
    // The last choices are restored (spec §3 "export view settings").
    expect(await page.getByRole('radio', { name: 'Excel (XLSX)' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /^All records/ }).check();
    await page.getByRole('radio', { name: 'CSV' }).check();
    const all = await download(page);
    const allRows = parseStrictCsv(all.data.toString('utf8'), ';').slice(1);
    expect(allRows.length).toBeGreaterThanOrEqual(4);
    for (const name of chosen) expect(allRows.map((r) => r[1])).toContain(name);
    await context.close();
  });

  it('finishes an export whose tab was closed; it downloads from the exports page', async () => {
    const { email, id } = await createUser(server.db, 'Tab Closer', { credits: 1_000 });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/account/login/`);
    await signIn(page, email);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/companies/export/`);
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByRole('radio', { name: 'The first N records' }).check();
    await page.getByLabel('How many records').fill('120');
    await page.getByRole('button', { name: 'Download' }).click();
    await page.waitForURL(/\/dashboard\/exports\/\d+\/$/);
    // Charged when it started: the page shows the balance after the charge (2 credits for 120 rows).
    expect(await page.locator('main').innerText()).toContain('Your balance: 998 credits');
    await page.close();
    const started = await server.db.kysely
      .selectFrom('export_jobs')
      .select(['id', 'status'])
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    // The job belongs to the server, not the tab: it may already have finished on a fast machine.
    expect(['queued', 'running', 'done']).toContain(started.status);

    const again = await context.newPage();
    await again.goto(`${server.url}/dashboard/exports/`);
    expect(await again.getByRole('link', { name: /^registra_legal_entities_.*\.csv$/ }).count()).toBe(1);
    // The list refreshes itself while the export runs (or shows it done); then its file downloads.
    const file = await downloadFrom(again, again.getByRole('link', { name: 'Download', exact: true }));
    expect(file.name).toMatch(/^registra_legal_entities_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.csv$/);
    expect(parseStrictCsv(file.data.toString('utf8')).length).toBe(121);
    await context.close();
  });
});
