// Ownership on the profile and the person page (ADR 0038, "Display"), in real Chromium at 390 and
// 1280 px: the chain up with how it ended, the picture with the list beside it (stacked on a
// phone), the group below paged with the keyboard alone, and a person's controlled companies.
// Data: the real GLEIF relationship fixture and the Companies House PSC sample, imported through
// the importers; the LEI records (and 24 more subsidiaries, to need a second page) are CONSTRUCTED
// from the fixture's real records and are never presented as real.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLei } from '../core/identifiers/check-digits.ts';
import { runImport } from '../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../core/imports/sources/index.ts';
import { personPath } from '../core/people/person-path.ts';
import {
  CH,
  CHILD,
  GROUP,
  GROUP_CHILDREN,
  OWNERSHIP_RECORDS,
  PSC,
  RR_CSV,
  writeLeiFile,
} from '../tests/support/ownership-fixtures.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

/** CONSTRUCTED: 24 more subsidiaries of GROUP, so that its group has a second page (20 a page). */
const MORE = Array.from({ length: 24 }, (_, i) => ({
  lei: makeLei(`TEST00OWNERSHIP${String(i).padStart(3, '0')}`),
  name: `GROUP SUBSIDIARY Z${String(i + 1).padStart(2, '0')} LIMITED`,
}));

let server: TestServer;
let browser: Browser;
let dir: string;
const uris: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  dir = await mkdtemp(join(tmpdir(), 'registra-e2e-ownership-'));
  const leiPath = await writeLeiFile(join(dir, 'lei.xml'), [...OWNERSHIP_RECORDS, ...MORE]);
  // The fixture's real "directly consolidated by GROUP" row, under each constructed subsidiary's LEI.
  const rr = (await readFile(RR_CSV, 'utf8')).split('\n');
  const row = rr.find((line) => line.startsWith(`${GROUP_CHILDREN[0]},LEI,${GROUP},LEI,IS_DIRECTLY_CONSOLIDATED_BY`));
  if (!row) throw new Error('the RR fixture has no direct row under GROUP');
  const morePath = join(dir, 'rr-more.csv');
  await writeFile(
    morePath,
    `${[rr[0], ...MORE.map((m) => row.replace(GROUP_CHILDREN[0] as string, m.lei))].join('\n')}\n`,
  );
  await runImport(server.db, IMPORT_SOURCES['gleif-lei'], [leiPath]);
  await runImport(server.db, IMPORT_SOURCES['gleif-rr'], [RR_CSV]);
  await runImport(server.db, IMPORT_SOURCES['gleif-rr'], [morePath]);
  await runImport(server.db, IMPORT_SOURCES['ch-companies'], [CH]);
  await runImport(server.db, IMPORT_SOURCES['ch-psc'], [PSC]);
  for (const [name, scheme, key] of [
    ['child', 'lei', CHILD],
    ['group', 'lei', GROUP],
    ['psc', 'register', 'GB/RA000585/08209948'],
  ]) {
    const found = await server.db.kysely
      .selectFrom('company_keys')
      .innerJoin('legal_entities', 'legal_entities.id', 'company_keys.legal_entity_id')
      .select('legal_entities.uri')
      .where('scheme', '=', scheme as string)
      .where('key', '=', key as string)
      .executeTakeFirstOrThrow();
    uris[name as string] = found.uri;
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The page is no wider than the window (nothing scrolls sideways but inside its own frame). */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('the Ownership section of a profile', () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`shows the chain up and how it ended, the picture with the list beside it, at ${viewport.width} px`, async () => {
      const page = await browser.newPage({ viewport });
      try {
        await page.goto(`${server.url}/companies/details/${uris.child}/`);
        const section = page.getByRole('region', { name: 'Ownership' });
        const chain = section.locator('.ownership-chain > li');
        expect(await chain.count()).toBe(2);
        expect(await chain.nth(0).innerText()).toMatch(
          /MIDDLE GROUP PLC[\s\S]*Direct parent of CHILD HOLDINGS LIMITED/,
        );
        expect(await chain.nth(0).getByRole('link', { name: 'MIDDLE GROUP PLC' }).count()).toBe(1);
        expect(await chain.nth(1).innerText()).toContain('not in Registra');
        expect(await section.locator('[data-chain-end="missing_link"]').innerText()).toMatch(
          /is named as a parent by GLEIF but is not in Registra/,
        );
        // The picture is hidden from screen readers; the list says it all.
        const picture = section.locator('.ownership-picture');
        expect(await picture.locator('svg').getAttribute('aria-hidden')).toBe('true');
        const pictureBox = await picture.boundingBox();
        const listBox = await section.locator('.ownership-list').boundingBox();
        if (!pictureBox || !listBox) throw new Error('picture or list not shown');
        if (viewport.width >= 1024) {
          // Side by side on a laptop.
          expect(listBox.x).toBeGreaterThanOrEqual(pictureBox.x + pictureBox.width - 1);
          expect(Math.abs(listBox.y - pictureBox.y)).toBeLessThan(40);
        } else {
          // Stacked on a phone, each as wide as the section.
          expect(listBox.y).toBeGreaterThanOrEqual(pictureBox.y + pictureBox.height - 1);
          expect(listBox.width).toBeLessThanOrEqual(viewport.width);
        }
        expect(await fitsWidth(page)).toBe(true);
      } finally {
        await page.close();
      }
    });
  }

  for (const width of [1280, 390]) {
    it(`pages the group below with the keyboard alone at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(`${server.url}/companies/details/${uris.group}/`);
        const group = page.getByRole('region', { name: 'The group below' });
        expect(await group.innerText()).toContain('31 companies in the group below, 31 of them direct subsidiaries.');
        const level = group.locator('.ownership-level > li');
        expect(await level.count()).toBe(20);
        const firstPage = await level.allInnerTexts();
        // From the last subsidiary, Tab reaches the next page's link; Enter follows it.
        await level.last().getByRole('link').first().focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Next subsidiaries');
        await page.keyboard.press('Enter');
        await page.waitForURL(/group_cursor=/);
        expect(await level.count()).toBe(11);
        const secondPage = await level.allInnerTexts();
        expect(secondPage.some((line) => firstPage.includes(line))).toBe(false);
        expect(await group.innerText()).toContain('Showing 11 of 31 subsidiaries at this level.');
        // Back to the page before the same way: past "First subsidiaries" to "Previous subsidiaries".
        await level.last().getByRole('link').first().focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('First subsidiaries');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Previous subsidiaries');
        const secondUrl = page.url();
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.href !== secondUrl);
        expect(await level.allInnerTexts()).toEqual(firstPage);
        // The first page has no way further back, and the way forward again.
        const pages = group.getByRole('navigation', { name: 'Pages of the group' });
        expect(await pages.getByRole('link').allInnerTexts()).toEqual(['Next subsidiaries']);
        // And "First subsidiaries" from the second page is the first page too.
        await page.goto(secondUrl);
        await level.last().getByRole('link').first().focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('First subsidiaries');
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => !url.search.includes('group_cursor'));
        expect(await level.allInnerTexts()).toEqual(firstPage);
        expect(await fitsWidth(page)).toBe(true);
      } finally {
        await page.close();
      }
    });
  }
});

describe('the person page', () => {
  for (const width of [1280, 390]) {
    it(`lists the companies a person controls at ${width} px`, async () => {
      const person = await server.db.kysely
        .selectFrom('members')
        .select(['id', 'name'])
        .where('name', '=', 'Marc Anthony Feldman')
        .executeTakeFirstOrThrow();
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(`${server.url}${personPath(person.name, Number(person.id))}`);
        const section = page.getByRole('region', { name: /Companies they control/ });
        const rows = section.locator('tbody tr');
        expect(await rows.count()).toBe(1);
        const text = await rows.first().innerText();
        expect(text).toContain('Shares 75–100 %');
        expect(text).toContain('Current');
        expect(text).toContain('Companies House (register of persons with significant control)');
        expect(await rows.first().locator(`a[href="/companies/details/${uris.psc}/"]`).count()).toBe(1);
        expect(await fitsWidth(page)).toBe(true);
      } finally {
        await page.close();
      }
    });
  }
});
