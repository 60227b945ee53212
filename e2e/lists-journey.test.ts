import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../core/imports/run-import.ts';
import { gleifLei } from '../core/imports/sources/gleif-lei.ts';
import { dayRecords, writeDayFile } from '../db/seed/demo-advance.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, PASSWORD, signIn } from './support/users.ts';

// Company lists and histories in a real browser: a new user signs up, activates from the
// outbox link, signs in, creates a list, adds three companies from search results, renames the
// list, finds the profile and the search in their histories, switches the interface language and
// signs out; a guest's "add to list" opens the sign-in popup and, once signed in, lands back on
// the profile with the company added. A guest's "Track updates" does the same for monitoring: the
// company appears on the tracked companies, and an import's change on the update reports.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  // With the job worker: monitoring reports are built in the app, as in production.
  server = await startServer({ jobs: { pollMs: 200 } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** An activated account, made directly in the database (the account journey covers sign-up). */

describe('company lists and histories', () => {
  it('signs up, activates from the outbox, creates a list, adds three companies from search results, renames it, sees both histories, switches the language and signs out', async () => {
    const email = `lena.lister.${Date.now().toString(36)}@example.com`;
    // A word in the names of several companies.
    const pick = await sql<{ word: string }>`
      select w.word from name_words w where length(w.word) >= 4 and w.documents between 4 and 40
      order by w.documents desc, w.word limit 1`.execute(server.db.kysely);
    const word = pick.rows[0].word;

    const context = await browser.newContext();
    const page = await context.newPage();
    // A new user signs up and activates the account from the link in the development outbox.
    await page.goto(`${server.url}/account/sign-up/`);
    await page.getByLabel('Name').fill('Lena Lister');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your email');
    const mail = await server.db.kysely
      .selectFrom('email_outbox')
      .select('text_body')
      .where('to_address', '=', email)
      .where('kind', '=', 'activation')
      .executeTakeFirstOrThrow();
    const link = mail.text_body.split(/\s+/).find((w) => w.includes('/account/activation/'));
    expect(link).toBeDefined();
    // The link signs in; with no page to return to, it lands on the dashboard.
    await page.goto(link as string);
    await page.waitForURL(`${server.url}/dashboard/`);

    await page.goto(`${server.url}/companies/lists/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Company lists');
    await page.getByLabel('Name').fill('Prospects');
    await page.getByRole('button', { name: 'Create the list' }).click();
    await page.waitForURL(/\/companies\/lists\/1\/\?done=created$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Prospects');

    await page.goto(`${server.url}/companies/search/?q=${encodeURIComponent(word)}`);
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().waitFor();
    expect(await boxes.count()).toBeGreaterThanOrEqual(3);
    const chosen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const box = boxes.nth(i);
      chosen.push(((await box.getAttribute('aria-label')) ?? '').replace(/^Select: /, ''));
      await box.check();
    }
    await page.getByLabel('Add to list').selectOption({ label: 'Prospects' });
    await page.getByRole('button', { name: 'Add selected to list' }).click();
    await page.waitForURL(/\/companies\/lists\/1\/\?done=added&count=3$/);
    await expect.poll(() => page.getByRole('status').innerText()).toContain('3 companies added.');
    const names = await page.locator('td[data-column="legal_name"]').allInnerTexts();
    expect(names.map((n) => n.trim()).sort()).toEqual([...chosen].sort());

    const edit = page.getByRole('region', { name: 'Rename or describe this list' });
    await edit.getByLabel('Name').fill('Hot prospects');
    await edit.getByLabel('Description (optional)').fill('Met at the fair');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/companies\/lists\/1\/\?done=updated$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Hot prospects');
    expect(await page.getByText('Met at the fair').first().isVisible()).toBe(true);

    // Open one of them: it goes into the browsing history.
    const first = page.locator('td[data-column="legal_name"] a').first();
    const opened = (await first.innerText()).trim();
    await first.click();
    await page.waitForURL(/\/companies\/details\//);
    await expect.poll(() => page.getByText('In your lists:').innerText()).toContain('Hot prospects');

    await page.goto(`${server.url}/companies/history/browsing/`);
    await expect.poll(() => page.locator('main table').innerText()).toContain(opened);
    await page.getByRole('link', { name: 'Search history' }).click();
    await page.waitForURL(/\/companies\/history\/search\/$/);
    const searches = page.locator('main table');
    await expect.poll(() => searches.innerText()).toContain(`Companies: “${word}”`);
    await page
      .getByRole('link', { name: `Companies: “${word}”` })
      .first()
      .click();
    await page.waitForURL(/\/companies\/search\/\?q=/);

    // The dashboard sums it up; the interface settings switch the language; then sign out.
    await page.getByRole('link', { name: 'Lena Lister' }).click();
    await page.waitForURL(`${server.url}/dashboard/`);
    await expect.poll(() => page.getByRole('region', { name: 'Your lists' }).innerText()).toContain('Hot prospects');
    await expect.poll(() => page.getByRole('region', { name: 'Recently viewed' }).innerText()).toContain(opened);
    await page.getByRole('region', { name: 'Settings' }).getByRole('link', { name: 'Interface' }).click();
    await page.waitForURL(/\/dashboard\/settings\/interface\/$/);
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}/de/dashboard/settings/interface/?done=saved`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Einstellungen: Oberfläche');
    expect(await page.getByRole('status').innerText()).toBe('Ihre Oberflächeneinstellungen wurden gespeichert.');
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Anmelden' }).count()).toBe(1);
    await context.close();
  });

  it('a guest’s "Add to list" opens the sign-in popup and, after signing in, lands back with the company added', async () => {
    const { email } = await createUser(server.db, 'Gus Guest');
    const company = await server.db.kysely
      .selectFrom('legal_entities')
      .select(['id', 'uri', 'name'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/details/${company.uri}/`);
    await page.getByRole('link', { name: 'Add to list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to add companies to your lists');
    // One popup at a time; still on the profile.
    expect(await page.locator('dialog[open]').count()).toBe(1);
    expect(page.url()).toBe(`${server.url}/companies/details/${company.uri}/`);

    // "Not now" closes it; the link opens it again.
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    await page.getByRole('link', { name: 'Add to list' }).click();
    await dialog.waitFor();

    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    await signIn(page, email);
    // Back on the profile, the pending action finishes itself: the company is in a new list.
    await expect.poll(() => page.getByText('In your lists:').count(), { timeout: 15_000 }).toBe(1);
    expect(page.url()).toBe(`${server.url}/companies/details/${company.uri}/`);
    expect(await page.getByText('In your lists:').innerText()).toContain('My companies');
    const rows = await server.db.kysely
      .selectFrom('watchlist_objects as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .select(['o.legal_entity_id'])
      .where('u.email', '=', email)
      .execute();
    expect(rows.map((r) => Number(r.legal_entity_id))).toEqual([Number(company.id)]);
    await context.close();
  });

  it('a guest’s "Track updates" on a profile signs in, tracks the company, and its changes reach the update reports', async () => {
    const { email } = await createUser(server.db, 'Tess Tracker');
    // A company that `demo advance` renames on this day (db/seed/demo-advance.ts).
    const day = '2026-11-20';
    const renamedRecord = (await dayRecords(server.db, day)).find((r) => r.name.includes(' Holding '));
    const company = await server.db.kysely
      .selectFrom('legal_entity_identifiers as i')
      .innerJoin('legal_entities as l', 'l.id', 'i.legal_entity_id')
      .select(['l.id', 'l.uri', 'l.name'])
      .where('i.identifier', '=', renamedRecord?.lei ?? '')
      .executeTakeFirstOrThrow();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/details/${company.uri}/`);
    await page.getByRole('link', { name: 'Track updates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to track companies');
    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    await signIn(page, email);
    // Back on the profile, the pending action finishes itself: the company is tracked.
    await expect.poll(() => page.getByText('You track this company’s updates.').count(), { timeout: 15_000 }).toBe(1);

    await page.goto(`${server.url}/companies/monitoring/updates/`);
    const row = page.locator('tr', { hasText: company.name });
    await row.waitFor();
    expect(await row.innerText()).toContain('Active');

    // `demo advance` over that day: its GLEIF delta renames the company; the import enqueues the
    // reports and the worker in the app builds them.
    const dir = await mkdtemp(join(tmpdir(), 'registra-e2e-advance-'));
    try {
      const summary = await runImport(server.db, gleifLei, [await writeDayFile(server.db, day, dir)]);
      expect(summary.changed).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await expect
      .poll(
        async () => {
          await page.goto(`${server.url}/companies/monitoring/updates/reports/`);
          return page.locator('main').innerText();
        },
        { timeout: 15_000 },
      )
      .toContain(`Legal name: ${company.name} → ${renamedRecord?.name}`);
    await page.goto(`${server.url}/dashboard/notifications/`);
    expect(await page.locator('main').innerText()).toContain('1 company you track changed');
    await context.close();
  });

  it('a guest’s ticked search results travel through the sign-in popup into a new list', async () => {
    const { email } = await createUser(server.db, 'Tia Ticker');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/search/?status=1`);
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().waitFor();
    const chosen: string[] = [];
    for (let i = 1; i <= 2; i++) {
      chosen.push(((await boxes.nth(i).getAttribute('aria-label')) ?? '').replace(/^Select: /, ''));
      await boxes.nth(i).check();
    }
    await page.getByRole('link', { name: 'Add selected to list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    await signIn(page, email);
    await page.waitForURL(/\/companies\/lists\/1\/\?done=added&count=2$/, { timeout: 15_000 });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('My companies');
    const names = await page.locator('td[data-column="legal_name"]').allInnerTexts();
    expect(names.map((n) => n.trim()).sort()).toEqual([...chosen].sort());
    await context.close();
  });
  it('a guest’s "Track selected companies" on search results signs in and tracks the ticked companies at once', async () => {
    const { email } = await createUser(server.db, 'Tom Ticker');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/companies/search/?status=1`);
    const boxes = page.getByRole('checkbox', { name: /^Select: / });
    await boxes.first().waitFor();
    const chosen: string[] = [];
    for (let i = 3; i <= 4; i++) {
      chosen.push(((await boxes.nth(i).getAttribute('aria-label')) ?? '').replace(/^Select: /, ''));
      await boxes.nth(i).check();
    }
    await page.getByRole('link', { name: 'Track selected companies' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Sign in to track companies');
    await dialog.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    await signIn(page, email);
    // No second click: back on the results, the pending action sends the ticked rows to the tracking.
    const tracked = () =>
      server.db.kysely
        .selectFrom('existing_objects_tracking as x')
        .innerJoin('users as u', 'u.id', 'x.user_id')
        .innerJoin('legal_entities as l', 'l.id', 'x.legal_entity_id')
        .select('l.name')
        .where('u.email', '=', email)
        .execute();
    await expect
      .poll(async () => (await tracked()).map((r) => r.name).sort(), { timeout: 15_000 })
      .toEqual([...chosen].sort());
    // …and lands on the tracked companies' updates with the confirmation. (Waiting for it also keeps
    // the context from closing mid-navigation, which can hang Chromium's close for a minute.)
    await page.waitForURL(/\/companies\/monitoring\/updates\/\?done=trackedMany&count=2$/);
    await expect.poll(() => page.locator('main').innerText()).toContain('2 companies are now tracked.');
    await context.close();
  });
});
