import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance } from '../core/billing/ledger.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// A gated action finishes whichever way the user signs in, and the balance is never stale
// (docs/decisions/0030-sign-in-finishes-and-private-caching.md). The server keeps guests' pages as
// production does (page cache on: public for a minute, Vary: Cookie), so the browser holds a guest
// copy of the page the activation lands on.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ pageCache: { ttlSeconds: 60, maxBytes: 8 * 1024 * 1024 } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The newest activation link of the development outbox for an address. */
async function activationLink(email: string): Promise<string> {
  const mail = await server.db.kysely
    .selectFrom('email_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('kind', '=', 'activation')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = mail.text_body.split(/\s+/).find((word) => word.includes('/account/activation/'));
  if (!link) throw new Error(`no activation link in: ${mail.text_body}`);
  return link;
}

async function someCompany() {
  return server.db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'uri', 'name'])
    .orderBy('id')
    .limit(1)
    .offset(7)
    .executeTakeFirstOrThrow();
}

async function trackedBy(email: string): Promise<number[]> {
  const rows = await server.db.kysely
    .selectFrom('existing_objects_tracking as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select('c.legal_entity_id')
    .where('u.email', '=', email)
    .execute();
  return rows.map((r) => Number(r.legal_entity_id));
}

describe('a gated action after signing up', () => {
  it('signs up from the popup, activates in another tab and lands signed in with the company tracked, once', async () => {
    const company = await someCompany();
    const email = `sally.signup.${Date.now().toString(36)}@example.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const profile = `${server.url}/companies/details/${company.uri}/`;
    // The guest's copy of the profile is in the browser's cache (public, max-age=60).
    await page.goto(profile);
    await page.goto(profile);
    await page.getByRole('link', { name: 'Track updates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to proceed' });
    await dialog.waitFor();
    await dialog.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/account\/sign-up\/\?returnTo=/);
    await page.getByLabel('Name').fill('Sally Signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a sturdy passphrase 2026');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your email');

    // The emailed link, opened in another tab (as from a mail client: no referrer).
    const link = await activationLink(email);
    const tab = await context.newPage();
    await tab.goto(link);
    await tab.waitForURL(profile);
    const header = tab.getByRole('banner');
    await expect.poll(() => header.innerText()).toContain('Sally Signup');
    expect(await header.innerText()).not.toContain('Sign in');
    // The pending action finished by itself: the company is tracked, once.
    await expect.poll(() => tab.getByText('You track this company’s updates.').count(), { timeout: 15_000 }).toBe(1);
    expect(await trackedBy(email)).toEqual([Number(company.id)]);
    // Its mark is used up: a reload sends nothing again.
    expect((await context.cookies()).some((c) => c.name === 'signed_in')).toBe(false);
    await tab.reload();
    await expect.poll(() => tab.getByText('You track this company’s updates.').count()).toBe(1);
    expect(await trackedBy(email)).toEqual([Number(company.id)]);

    // The first tab, back on the profile, is no guest copy either.
    await page.goto(profile);
    await expect.poll(() => page.getByRole('banner').innerText()).toContain('Sally Signup');
    await context.close();
  });

  it('does not send a pending action from a link that no sign-in landed on', async () => {
    const company = await someCompany();
    const { email } = await createUser(server.db, 'Lina Linked');
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email, `${server.url}/account/login/`);
    await page.goto(`${server.url}/companies/details/${company.uri}/#pending=track`);
    // The form is shown, not sent.
    await page.getByRole('button', { name: 'Track updates' }).waitFor();
    await page.waitForTimeout(500);
    expect(await trackedBy(email)).toEqual([]);
    await context.close();
  });
});

describe('a pending spend', () => {
  it('waits for the user’s click when the sign-in came from a link this browser’s gate did not make', async () => {
    const { email, id } = await createUser(server.db, 'Carl Crafted');
    const context = await browser.newContext();
    const page = await context.newPage();
    // Someone sends a sign-in link that would land on buying a pack.
    const crafted = `/info/pricing/#pending=buy-credits-10`;
    await page.goto(`${server.url}/account/login/?returnTo=${encodeURIComponent(crafted)}`);
    await signIn(page, email);
    await page.waitForURL(`${server.url}/info/pricing/`);
    await expect.poll(() => page.getByRole('banner').innerText()).toContain('Carl Crafted');
    await page.waitForTimeout(1000);
    // Landed signed in, the form shown, nothing bought.
    expect(page.url()).toBe(`${server.url}/info/pricing/`);
    const orders = await server.db.kysely.selectFrom('orders').select('id').where('user_id', '=', id).execute();
    expect(orders).toEqual([]);
    await context.close();
  });
});

describe('the live balance', () => {
  it('updates the header after an export without a reload, in this tab and another', async () => {
    const { email } = await createUser(server.db, 'Bruno Balance', { credits: 10 });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, email, `${server.url}/account/login/`);
    const other = await context.newPage();
    await other.goto(`${server.url}/companies/directories/jurisdictions/`);
    const balanceIn = (p: typeof page) => p.getByRole('banner').locator('.credit-balance').innerText();
    expect(await balanceIn(other)).toBe('10 credits');

    await page.goto(`${server.url}/companies/export/`);
    expect(await balanceIn(page)).toBe('10 credits');
    // The export starts a job (ADR 0031) and shows its page, charged.
    await page.getByRole('button', { name: 'Download' }).click();
    await page.waitForURL(/\/dashboard\/exports\/\d+\/$/);
    // The header says what is left, as the ledger has it; the other tab is told without a reload.
    const user = await server.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await expect.poll(() => creditBalance(server.db, Number(user.id))).toBeLessThan(10);
    const left = await creditBalance(server.db, Number(user.id));
    const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;
    await expect.poll(() => balanceIn(page), { timeout: 10_000 }).toBe(credits(left));
    // The other tab shows it when it comes back into view.
    await other.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => balanceIn(other), { timeout: 10_000 }).toBe(credits(left));

    // A spend this page did not see (another client of the API) shows when the page comes back into view.
    await server.db.kysely
      .insertInto('credit_ledger')
      .values({ user_id: user.id, delta: -2, reason: 'api', note: 'a spend elsewhere' })
      .execute();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => balanceIn(page), { timeout: 10_000 }).toBe(credits(left - 2));
    // And anything on a page can ask (an export job's page when its job has charged).
    await server.db.kysely
      .insertInto('credit_ledger')
      .values({ user_id: user.id, delta: -1, reason: 'api', note: 'another spend' })
      .execute();
    await other.evaluate(() => document.dispatchEvent(new Event('registra:balance')));
    await expect.poll(() => balanceIn(other), { timeout: 10_000 }).toBe(credits(left - 3));
    await expect.poll(() => balanceIn(page), { timeout: 10_000 }).toBe(credits(left - 3));
    await context.close();
  });
});
