import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

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

/** The newest activation link the development outbox holds for an address. */
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

describe('a visitor creates an account', () => {
  it('signs up, is signed in by the emailed link back where they were, signs out and in again', async () => {
    const email = `journey.${Date.now().toString(36)}@example.com`;
    const password = 'a sturdy passphrase 2026';
    const context = await browser.newContext();
    const page = await context.newPage();

    // From a reading page: the header's "Sign in" link, then "Create one".
    await page.goto(`${server.url}/companies/directories/jurisdictions/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/login\/\?returnTo=/);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL(/\/account\/sign-up\/\?returnTo=/);

    // A too-short password first: the form says why and keeps what was typed.
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Please correct the fields marked below.');
    expect(await page.getByText('Use at least 10 characters.').count()).toBe(1);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your email');

    // The development outbox holds the activation email.
    const link = await activationLink(email);
    expect(link.startsWith(`${server.url}/account/activation/`)).toBe(true);
    // The link signs in and lands back on the page the visitor started from.
    await page.goto(link);
    await page.waitForURL(`${server.url}/companies/directories/jurisdictions/`);
    const header = page.getByRole('banner');
    await expect.poll(() => header.innerText()).toContain('Grace Hopper');
    await header.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/`);

    await page.goto(`${server.url}/account/login/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => header.innerText()).toContain('Grace Hopper');
    const cookies = await context.cookies();
    const token = cookies.find((c) => c.name === 'token');
    expect(token).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    await header.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => header.innerText()).toContain('Sign in');
    expect(await header.getByText('Grace Hopper').count()).toBe(0);
    expect((await context.cookies()).find((c) => c.name === 'token')).toBeUndefined();
    await context.close();
  });
});
