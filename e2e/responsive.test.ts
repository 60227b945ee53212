// The main pages at a phone's width (390 px) and a laptop's (1,280 px): nothing makes the page itself
// scroll sideways (wide tables scroll inside their own frame). ADR 0022. On a phone, search results
// are cards, the first in the first screen, the bulk actions behind one button.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSavedComparison } from '../core/comparison/saved-comparison.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

let server: TestServer;
let browser: Browser;
let profilePath: string;
let personPath: string;
/** A user with a subscription and three companies in their comparison. */
let userEmail: string;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A seeded company: its profile holds every kind of related table.
  const row = await server.db.kysely
    .selectFrom('legal_entities')
    .select('uri')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  profilePath = `/companies/details/${row.uri}/`;
  // A person's page, with its positions table and connections picture.
  const member = await server.db.kysely
    .selectFrom('legal_entity_members')
    .select('member_id')
    .orderBy('member_id')
    .limit(1)
    .executeTakeFirstOrThrow();
  personPath = `/members/details/x/${member.member_id}/`;
  const user = await createUser(server.db, 'Phoebe Phone');
  userEmail = user.email;
  const day = 24 * 60 * 60 * 1000;
  await server.db.kysely
    .insertInto('subscriptions')
    .values({
      user_id: user.id,
      plan_id: 'plan-basic',
      provider: 'sandbox',
      provider_ref: `sub-responsive-${user.id}`,
      period_start: new Date(Date.now() - day),
      period_end: new Date(Date.now() + 29 * day),
    })
    .execute();
  const compared = await server.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').limit(3).execute();
  await updateSavedComparison(server.db, user.id, () => ({ ids: compared.map((c) => Number(c.id)) }));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const PAGES = () => [
  '/',
  '/companies/search/',
  '/companies/search/?q=a',
  '/contacts/search/',
  '/real-estate/search/',
  '/connections/search/',
  '/financial-statements/search/',
  '/companies/search/advanced/',
  profilePath,
  personPath,
  '/members/search/?q=a',
  '/companies/directories/jurisdictions/',
  '/companies/directories/industries/',
  '/account/login/',
  '/de/companies/search/',
];

/** Pages of a signed-in user that were wider than a phone: their forms, tables and comparison. */
const USER_PAGES = ['/companies/monitoring/new/add/', '/dashboard/subscriptions/', '/companies/comparison/'];

/** The width of the document at `path` (more than the viewport's: the page scrolls sideways). */
async function documentWidth(page: Page, path: string): Promise<number> {
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status(), path).toBe(200);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

describe('no page scrolls sideways', () => {
  for (const width of [390, 1280]) {
    it(`at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      try {
        const wide: string[] = [];
        const visit = async (path: string) => {
          const scrollWidth = await documentWidth(page, path);
          if (scrollWidth > width) wide.push(`${path}: ${scrollWidth} px`);
        };
        for (const path of PAGES()) await visit(path);
        await signIn(page, userEmail, `${server.url}/account/login/`);
        for (const path of USER_PAGES) await visit(path);
        expect(wide).toEqual([]);
        // What made them wide is on them: the tracking form's industries, the subscription, the comparison.
        await page.goto(`${server.url}/companies/monitoring/new/add/`);
        expect(await page.getByLabel('Industry').locator('option').count()).toBeGreaterThan(10);
        await page.goto(`${server.url}/dashboard/subscriptions/`);
        expect(await page.locator('.data-table tbody tr').count()).toBe(1);
        await page.goto(`${server.url}/companies/comparison/`);
        expect(await page.locator('.comparison-table thead th[scope="col"] a').count()).toBe(3);
        if (width === 390) {
          // The comparison keeps its width inside its own frame, and says so.
          const frame = page.locator('.comparison-wrap');
          expect(await frame.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          expect(await page.getByText(/swipe it sideways/).isVisible()).toBe(true);
        } else {
          expect(await page.getByText(/swipe it sideways/).isVisible()).toBe(false);
        }
      } finally {
        await context.close();
      }
    });
  }
});

/** The bulk actions of a guest's company search (the gated ones are links, "Add selected to comparison" a button). */
const BULK_ACTIONS = [
  'Export',
  'Add selected to list',
  'Track selected companies',
  'Save this search',
  'Track new companies of this search',
  'Add selected to comparison',
  'Open the comparison',
];

describe('search results on a phone (390 × 844)', () => {
  it('shows the first result as a card in the first screen: name, town, number, status, jurisdiction', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${server.url}/companies/search/`);
      const card = page.locator('.results-table tbody tr').first();
      const box = await card.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
      expect(box?.width ?? 0).toBeLessThanOrEqual(390);
      // A card, not a row of a table wider than the screen: no column headers, every line inside it.
      expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('block');
      expect(await page.getByRole('columnheader', { name: /Legal name/ }).isVisible()).toBe(false);

      const name = card.locator('td[data-column="legal_name"] a');
      const uri = decodeURIComponent((await name.getAttribute('href')) ?? '').match(
        /\/companies\/details\/([^/]+)\//,
      )?.[1];
      const company = await server.db.kysely
        .selectFrom('legal_entities')
        .select(['id', 'name'])
        .where('uri', '=', uri ?? '')
        .executeTakeFirstOrThrow();
      const number = await server.db.kysely
        .selectFrom('legal_entity_identifiers')
        .select('identifier')
        .where('legal_entity_id', '=', company.id)
        .where('identifier_type_id', '=', 2)
        .orderBy('position')
        .executeTakeFirstOrThrow();
      // The town: the locality of its registered address, else of its headquarters, physical, postal one.
      const addresses = await server.db.kysely
        .selectFrom('legal_entity_addresses as a')
        .innerJoin('address_types as t', 't.id', 'a.address_type_id')
        .select(['t.uri', 'a.locality'])
        .where('a.legal_entity_id', '=', company.id)
        .where('a.locality', 'is not', null)
        .orderBy('a.position')
        .execute();
      const town = ['registered', 'headquarter', 'physical', 'postal']
        .map((type) => addresses.find((a) => a.uri === type)?.locality)
        .find((locality) => locality);
      expect(town).toBeTruthy();

      /** A line of the card: its label (drawn from the cell's data-label), its text, whether it lies inside the card. */
      const line = (selector: string) =>
        card.locator(selector).evaluate((el) => {
          const b = el.getBoundingClientRect();
          const c = (el.closest('tr') as HTMLElement).getBoundingClientRect();
          return {
            label: getComputedStyle(el, '::before').content,
            text: (el as HTMLElement).innerText.trim(),
            inside: b.width > 0 && b.left >= c.left && b.right <= c.right && b.top >= c.top && b.bottom <= c.bottom,
          };
        });
      expect(await name.innerText()).toBe(company.name);
      expect(await line('td[data-column="legal_name"] a')).toMatchObject({ inside: true });
      expect(await line('.row-town')).toEqual({ label: '"Town"', text: town, inside: true });
      expect(await line('td[data-column="company_number"]')).toEqual({
        label: '"Company number"',
        text: number.identifier,
        inside: true,
      });
      expect(await line('td[data-column="status"]')).toMatchObject({ label: '"Status"', inside: true });
      expect((await line('td[data-column="status"]')).text).toMatch(/\S/);
      expect(await line('td[data-column="jurisdiction"]')).toMatchObject({ label: '"Jurisdiction"', inside: true });
      expect((await line('td[data-column="jurisdiction"]')).text).toMatch(/\S/);
    } finally {
      await page.close();
    }
  });

  it('keeps the bulk actions behind one button, which the keyboard opens', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${server.url}/companies/search/`);
      const shown = () =>
        Promise.all(
          BULK_ACTIONS.map((name) =>
            page
              .getByRole('link', { name, exact: true })
              .or(page.getByRole('button', { name, exact: true }))
              .isVisible(),
          ),
        );
      expect(await shown()).toEqual(BULK_ACTIONS.map(() => false));
      const actions = page.locator('summary', { hasText: 'Actions' });
      expect(await actions.count()).toBe(1);
      expect(await actions.isVisible()).toBe(true);
      // The summary follows the sort button in the tab order, and Enter opens and closes it.
      await page.getByRole('button', { name: 'Sort', exact: true }).focus();
      await page.keyboard.press('Tab');
      expect(await actions.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      expect(await shown()).toEqual(BULK_ACTIONS.map(() => true));
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Export');
      await actions.focus();
      await page.keyboard.press('Enter');
      expect(await shown()).toEqual(BULK_ACTIONS.map(() => false));
    } finally {
      await page.close();
    }
  });

  it('leaves a laptop its table, with the bulk actions in view', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${server.url}/companies/search/`);
      const row = page.locator('.results-table tbody tr').first();
      expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe('table-row');
      expect(await page.getByRole('columnheader', { name: /Legal name/ }).isVisible()).toBe(true);
      expect(await row.locator('.row-town').isVisible()).toBe(false);
      expect(await page.locator('summary', { hasText: 'Actions' }).isVisible()).toBe(false);
      for (const name of BULK_ACTIONS)
        expect(
          await page
            .getByRole('link', { name, exact: true })
            .or(page.getByRole('button', { name, exact: true }))
            .isVisible(),
          name,
        ).toBe(true);
    } finally {
      await page.close();
    }
  });
});
