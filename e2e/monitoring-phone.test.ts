// The dashboard and the monitoring pages on a phone (390 × 844), ADR 0015 and ADR 0022: the
// dashboard's content comes before the account's navigation, its notifications are links that open
// the report they announce, and the monitoring tables are cards with the updates in the first
// screen, nothing scrolling sideways. On a laptop the navigation is above and the tables stay tables;
// axe finds no violations at either width.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../core/email/mailer.ts';
import { i18nFor } from '../core/i18n/i18n.ts';
import { buildMonitoringReports } from '../core/monitoring/build-reports.ts';
import { trackCompany } from '../core/monitoring/existing-trackings.ts';
import { tellUsers } from '../core/monitoring/tell-users.ts';
import type { Lang } from '../core/reference/reference-data.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

let server: TestServer;
let browser: Browser;
let mailer: Mailer;
let email: string;
let company: { id: number; name: string };
const PHONE = { width: 390, height: 844 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const translate = (lang: Lang) => {
  const { t } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? t(key, values) : t(key));
};

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  mailer = createMailer({
    db: server.db,
    settings: { from: 'Registra <no-reply@localhost>' },
    log: { info: () => {}, error: () => {} },
    translate,
  });
  const user = await createUser(server.db, 'Tom Tracker');
  email = user.email;
  const row = await server.db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'name'])
    .orderBy('id')
    .offset(40)
    .limit(1)
    .executeTakeFirstOrThrow();
  company = { id: Number(row.id), name: row.name };
  await trackCompany(server.db, user.id, company.id);
  // Two changes with long values: the report's lines must still fit the card.
  for (const [field, before, after] of [
    ['name', 'Northern Lighthouse Holdings Limited', 'Northern Lighthouse Holdings International Limited'],
    ['addresses.legal', { street: '1 High Street', locality: 'Leeds' }, { street: '200 Long Road', locality: 'York' }],
  ] as const) {
    await server.db.kysely
      .insertInto('company_changes')
      .values({
        legal_entity_id: company.id,
        field,
        old_value: sql`${JSON.stringify(before)}::jsonb`,
        new_value: sql`${JSON.stringify(after)}::jsonb`,
        source: 'ch-companies',
      })
      .execute();
  }
  const built = await buildMonitoringReports(server.db, server.reference);
  await tellUsers(server.db, built, { mailer, siteUrl: server.url, translate, reference: server.reference });
});

afterAll(async () => {
  await mailer?.close();
  await browser?.close();
  await server?.close();
});

async function phonePage(viewport = PHONE): Promise<Page> {
  // The CSP allows only the app's own scripts: axe is injected around it.
  const page = await browser.newPage({ viewport, bypassCSP: true });
  await signIn(page, email, `${server.url}/account/login/`);
  return page;
}

/** Nothing makes the page itself scroll sideways. */
async function fitsTheScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('on a phone', () => {
  it('the dashboard shows its content before the navigation; a notification is a link that opens its report', async () => {
    const page = await phonePage();
    try {
      await page.goto(`${server.url}/dashboard/`);
      await fitsTheScreen(page);
      const tracked = page.getByRole('heading', { name: 'Tracked companies' });
      const nav = page.getByRole('navigation', { name: 'Your lists and history' });
      const trackedBox = await tracked.boundingBox();
      const navBox = await nav.boundingBox();
      expect(trackedBox).not.toBeNull();
      expect(navBox).not.toBeNull();
      // First in the screen and first in the document (what a keyboard and a screen reader meet).
      expect(trackedBox!.y).toBeLessThan(PHONE.height);
      expect(trackedBox!.y).toBeLessThan(navBox!.y);
      expect(
        await page.evaluate(() => {
          const section = document.getElementById('dash-tracked');
          const navigation = document.querySelector('.user-data-nav');
          return Boolean(
            section && navigation && section.compareDocumentPosition(navigation) & Node.DOCUMENT_POSITION_FOLLOWING,
          );
        }),
      ).toBe(true);
      // The tracked company with its last change, and "changed this week".
      const section = page.locator('section', { has: tracked });
      expect(await section.getByRole('link', { name: company.name }).isVisible()).toBe(true);
      expect(await section.getByText(/last change/).isVisible()).toBe(true);
      expect(await section.getByRole('link', { name: '1 changed this week' }).isVisible()).toBe(true);

      // The notification: a link the keyboard reaches, which opens the run's report.
      const notification = page.getByRole('link', { name: /1 company you track changed/ });
      expect(await notification.isVisible()).toBe(true);
      await notification.focus();
      expect(await notification.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/companies\/monitoring\/updates\/reports\/\?reports=\d+$/);
      expect(await page.getByRole('heading', { name: 'Update reports', level: 1 }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: company.name }).first().isVisible()).toBe(true);
      // Opened, it is read.
      await page.goto(`${server.url}/dashboard/`);
      expect(await page.getByText('No unread notifications.').isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('the update reports show the Updates column in the first screen, as a card', async () => {
    const page = await phonePage();
    try {
      await page.goto(`${server.url}/companies/monitoring/updates/reports/`);
      await fitsTheScreen(page);
      const card = page.locator('.results-table tbody tr').first();
      expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('block');
      const updates = card.locator('td[data-label="Updates"]');
      const box = await updates.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      // The column starts in the first screen and its first change is read there whole (each line
      // carries its dates and source, so a report of several changes runs on below).
      expect(box!.y).toBeLessThan(PHONE.height);
      const change = updates.getByText(/Northern Lighthouse Holdings International Limited/);
      expect(await change.isVisible()).toBe(true);
      const line = await change.boundingBox();
      expect(line!.y + line!.height).toBeLessThanOrEqual(PHONE.height);
      expect(line!.x + line!.width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await page.close();
    }
  });

  it('the tracked companies show each company’s reports in the first screen, as a card', async () => {
    const page = await phonePage();
    try {
      await page.goto(`${server.url}/companies/monitoring/updates/`);
      await fitsTheScreen(page);
      const card = page.locator('.results-table tbody tr').first();
      expect(await card.evaluate((row) => getComputedStyle(row).display)).toBe('block');
      const reports = card.locator('td[data-label="Reports"]');
      const box = await reports.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
      expect(await reports.getByRole('link', { name: '1 report' }).isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('the dashboard and the monitoring pages have no axe violations, on a phone and on a laptop', async () => {
    for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
      const page = await phonePage(viewport);
      try {
        const found: string[] = [];
        for (const path of [
          '/dashboard/',
          '/companies/monitoring/updates/',
          '/companies/monitoring/updates/reports/',
        ]) {
          await page.goto(`${server.url}${path}`);
          await page.evaluate(AXE);
          const violations = (await page.evaluate(async () => {
            // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
            const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
            return result.violations;
          })) as { id: string; nodes: { target: string[] }[] }[];
          for (const v of violations)
            found.push(`${viewport.width} ${path}: ${v.id} at ${v.nodes[0]?.target.join(' ')}`);
        }
        expect(found).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});

describe('on a laptop', () => {
  it('the dashboard draws the navigation above its content, and the reports stay a table', async () => {
    const page = await phonePage({ width: 1280, height: 800 });
    try {
      await page.goto(`${server.url}/dashboard/`);
      const nav = await page.getByRole('navigation', { name: 'Your lists and history' }).boundingBox();
      const heading = await page.getByRole('heading', { name: 'Dashboard', level: 1 }).boundingBox();
      expect(nav!.y).toBeLessThan(heading!.y);
      await page.goto(`${server.url}/companies/monitoring/updates/reports/`);
      const row = page.locator('.results-table tbody tr').first();
      expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe('table-row');
      expect(await page.getByRole('columnheader', { name: 'Updates' }).isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });
});
