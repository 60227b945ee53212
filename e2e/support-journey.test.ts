import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../core/accounts/user-roles.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// Support in a real browser (ADR 0021): a guest writes through the contact form and support sees
// the ticket; a user opens a ticket, support answers at the desk, the answer's email lands in the
// outbox, and its link shows the user the answer.

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

describe('support', () => {
  it('a guest’s message through the contact form becomes a ticket support sees', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('navigation', { name: 'About Registra' }).getByRole('link', { name: 'Contact us' }).click();
    await page.getByLabel('Your name').fill('Gina Guest');
    await page.getByLabel('Your email address').fill('gina.guest@example.com');
    await page.getByLabel('Subject').fill('Is Acme GmbH in your data?');
    await page.getByLabel('Message').fill('I cannot find it by its number.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain('We will answer you at gina.guest@example.com');
    const { email: staff } = await createUser(server.db, 'Stella Staff');
    await grantRole(server.db, staff, 'support');
    const desk = await browser.newPage();
    await signIn(desk, staff, `${server.url}/account/login/`);
    await desk.goto(`${server.url}/support-desk/`);
    await expect.poll(() => desk.getByRole('link', { name: 'Is Acme GmbH in your data?' }).count()).toBe(1);
    await page.close();
    await desk.close();
  });

  it('a user’s ticket is answered at the desk, emailed, and the email’s link shows the answer', async () => {
    const { email: user } = await createUser(server.db, 'Uma User');
    const { email: staff } = await createUser(server.db, 'Sid Staff');
    await grantRole(server.db, staff, 'support');
    const page = await browser.newPage();
    await signIn(page, user, `${server.url}/account/login/`);
    await page.goto(`${server.url}/dashboard/support/`);
    await page.getByLabel('Subject').fill('Export limits');
    await page.getByLabel('Message').fill('How many rows can one export hold?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/dashboard\/support\/topics\/1\//);

    const desk = await browser.newPage();
    await signIn(desk, staff, `${server.url}/account/login/`);
    await desk.goto(`${server.url}/support-desk/`);
    await desk.getByRole('link', { name: 'Export limits' }).click();
    await desk.getByLabel('Answer').fill('Up to 10,000 rows per file.');
    await desk.getByRole('button', { name: 'Send the answer' }).click();
    await expect.poll(() => desk.getByRole('status').textContent()).toContain('Your answer is sent');

    const mail = await server.db.kysely
      .selectFrom('email_outbox')
      .select('text_body')
      .where('to_address', '=', user)
      .where('kind', '=', 'support_reply')
      .executeTakeFirstOrThrow();
    const link = mail.text_body.split(/\s+/).find((w) => w.includes('/dashboard/support/topics/')) as string;
    const { pathname } = new URL(link);
    await page.goto(`${server.url}${pathname}`);
    await expect.poll(() => page.getByText('Up to 10,000 rows per file.').count()).toBe(1);
    await expect.poll(() => page.getByText('Answered').count()).toBeGreaterThan(0);
    await page.close();
    await desk.close();
  });
});
