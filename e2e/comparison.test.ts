import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../tests/support/read-pdf.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Company comparison in a real browser: a guest ticks two companies in the search
// results and adds them, sees the differences highlighted and marked, removes one with the
// keyboard, reloads (the cookie keeps it), then exports the PDF: the sign-in popup, signing in,
// and back on the comparison the download starts by itself.

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

/** The company names heading the comparison's columns. */
async function comparedNames(page: Page): Promise<string[]> {
  return (await page.locator('.comparison-table thead th[scope="col"] a').allInnerTexts()).map((n) => n.trim());
}

describe('company comparison', () => {
  it('adds two companies from search results, highlights the differences, removes one, keeps it over a reload, exports the PDF', async () => {
    const { email } = await createUser(server.db, 'Cora Comparer');
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/search/`);
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().waitFor();
    const chosen: string[] = [];
    for (const i of [0, 3]) {
      chosen.push(((await boxes.nth(i).getAttribute('aria-label')) ?? '').replace(/^Select: /, ''));
      await boxes.nth(i).check();
    }
    await page.getByRole('button', { name: 'Add selected to comparison' }).click();
    await page.waitForURL(/\/companies\/comparison\/\?done=added&count=2$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Company comparison');
    expect(await page.getByRole('status').first().innerText()).toContain('2 companies added to the comparison.');
    expect(await comparedNames(page)).toEqual(chosen);

    // Highlighted exactly where the two values differ, and said in words, not by colour alone.
    const rows = page.locator('.comparison-table tbody tr[data-row]');
    const count = await rows.count();
    expect(count).toBeGreaterThan(6);
    let differing = 0;
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      const cells = (await row.locator('td').allInnerTexts()).map((c) => c.trim());
      const marked = (await row.getAttribute('class')) === 'differs';
      // Identifiers always differ between two companies: they are not marked (ADR 0009).
      const key = (await row.getAttribute('data-row')) ?? '';
      expect(marked, key).toBe(!key.startsWith('identifier-') && cells[0] !== cells[1]);
      if (marked) {
        differing++;
        expect(await row.locator('th').innerText()).toContain('Differs');
        const background = await row.evaluate((el) => getComputedStyle(el).backgroundColor);
        expect(background).not.toBe('rgba(0, 0, 0, 0)');
      }
    }
    expect(differing).toBeGreaterThan(0);
    expect(await page.getByText(/are where the companies differ/).innerText()).toMatch(
      new RegExp(`: ${differing} rows?\\.`),
    );

    // Remove the first with the keyboard.
    const remove = page.getByRole('button', { name: `Remove ${chosen[0]} from the comparison` });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/companies\/comparison\/\?done=removed$/);
    expect(await comparedNames(page)).toEqual([chosen[1]]);
    await page.goto(`${server.url}/companies/comparison/`);
    await page.reload();
    expect(await comparedNames(page)).toEqual([chosen[1]]);
    expect(await page.getByText('1 of 5 companies').count()).toBe(1);

    // Export is gated: the popup, sign in, and back here the download starts by itself.
    await page.getByRole('link', { name: 'Export as PDF' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to export the comparison as PDF');
    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    const download = page.waitForEvent('download', { timeout: 20_000 });
    await signIn(page, email);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^registra_comparison_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.pdf$/);
    // The guest's comparison became the user's.
    await expect.poll(() => comparedNames(page)).toEqual([chosen[1]]);
    const pdf = await readPdf(new Uint8Array(await readFile(await file.path())));
    const text = pdf.pages.map((p) => p.text).join('\n');
    for (const header of ['Registra', 'Jurisdiction', 'Size', 'Status', 'Registration date']) {
      expect(text).toContain(header);
    }
    expect(text.replace(/\s+/g, '')).toContain(chosen[1].replace(/\s+/g, ''));
    await context.close();
  });
});
