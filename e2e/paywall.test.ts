import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance } from '../core/billing/ledger.ts';
import type { Db } from '../db/client.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';
import { createUser, signIn } from './support/users.ts';

// The purchase box in a real browser (docs/decisions/0029-what-a-purchase-unlocks.md): before
// paying, it counts what the purchase shows ("1 email, 1 phone number"), the values stay hidden
// until bought and show after; a company with no contact details offers no purchase at all.

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

const EMAIL = 'e2e-paywall@paywall-e2e.example';
const PHONE = '+99 555 0199 001';

/** Clears every contact detail of a company (its own, its records', its members'); returns its uri. */
async function withoutContacts(db: Db, offset: number): Promise<{ id: number; uri: string }> {
  const row = await sql<{ id: string; uri: string }>`select id, uri from legal_entities
    where (select count(*) from legal_entity_members m where m.legal_entity_id = legal_entities.id) < 10
    order by id offset ${offset} limit 1`.execute(db.kysely);
  const id = Number(row.rows[0].id);
  await sql`delete from legal_entity_contacts where legal_entity_id = ${id}`.execute(db.kysely);
  await sql`update contacts set email = null, phone = null, fax = null where legal_entity_id = ${id}`.execute(
    db.kysely,
  );
  await sql`update connections set email = null, phone = null where legal_entity_id = ${id}`.execute(db.kysely);
  await sql`delete from member_contacts where member_id in
    (select member_id from legal_entity_members where legal_entity_id = ${id})`.execute(db.kysely);
  return { id, uri: row.rows[0].uri };
}

describe('the purchase box', () => {
  it('counts what buying shows, shows it once bought, and offers nothing where there is nothing', async () => {
    const { email, id } = await createUser(server.db, 'Pia Paywall', { credits: 10 });
    const some = await withoutContacts(server.db, 3);
    await server.db.kysely
      .insertInto('legal_entity_contacts')
      .values([
        { legal_entity_id: some.id, contact_type_id: 1, position: 0, contact: EMAIL },
        { legal_entity_id: some.id, contact_type_id: 2, position: 0, contact: PHONE },
      ])
      .execute();
    const none = await withoutContacts(server.db, 4);

    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email, `${server.url}/account/login/`);

    // Before paying: what it shows, counted; the values themselves are not on the page.
    await page.goto(`${server.url}/companies/details/${some.uri}/`);
    const box = page.locator('.profile-purchase');
    expect(await box.innerText()).toContain('Buying it shows: 1 email, 1 phone number.');
    expect(await page.content()).not.toContain(EMAIL);
    await page.getByRole('button', { name: /Open the full profile \(1 credit\)/ }).click();
    await page.waitForURL(/#contacts$/);
    expect(await page.locator('.profile-bought').innerText()).toContain('You bought the full profile');
    expect(await page.locator('#contacts').innerText()).toContain(EMAIL);
    expect(await page.locator('#contacts').innerText()).toContain(PHONE);
    expect(await creditBalance(server.db, id)).toBe(9);

    // Nothing to show: no price, no button, nothing charged.
    await page.goto(`${server.url}/companies/details/${none.uri}/`);
    expect(await box.innerText()).toContain('there is nothing to buy');
    expect(await page.getByRole('button', { name: /Open the full profile/ }).count()).toBe(0);
    expect(await creditBalance(server.db, id)).toBe(9);

    await context.close();
  }, 120_000);
});
