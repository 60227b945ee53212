// Users of the browser journeys: made in the journey's database with a known password (hashed
// once per process: it is slow on purpose), optionally with credits, and signed in through the
// real sign-in form.

import type { Page } from 'playwright-core';
import { hashPassword } from '../../core/accounts/password-hash.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import type { Db } from '../../db/client.ts';

export const PASSWORD = 'a sturdy passphrase 2026';

let passwordHash: Promise<string> | null = null;

/** An activated user named `name` (a unique email from it), with `credits` granted when given. */
export async function createUser(
  db: Db,
  name: string,
  options: { credits?: number } = {},
): Promise<{ email: string; id: number }> {
  passwordHash ??= hashPassword(PASSWORD);
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now().toString(36)}@example.com`;
  const user = await db.kysely
    .insertInto('users')
    .values({ email, name, password_hash: await passwordHash, activated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(user.id);
  if (options.credits) await grantCredits(db, id, options.credits);
  return { email, id };
}

/**
 * Signs in with the form on the page (the sign-in page or the sign-in popup). With `loginUrl`, opens
 * that page first and waits until the form has sent the browser on.
 */
export async function signIn(page: Page, email: string, loginUrl?: string): Promise<void> {
  if (loginUrl) await page.goto(loginUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (loginUrl) await page.waitForURL(/\/dashboard\/|\/$/);
}
