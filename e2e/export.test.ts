import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictCsv, parseStrictXml } from '../tests/support/export-readers.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Export in a real browser: a guest's download opens the sign-in popup; a signed-in
// user ticks rows in search results, opens the export from the results bar and downloads the
// selected rows in each format, then all rows of the search; the choices come back next time.

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

/** Clicks Download and returns the saved file's name and bytes. */
async function download(page: Page): Promise<{ name: string; data: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
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
    await expect.poll(() => page.getByRole('status').innerText()).toContain('is downloaded');

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
});
