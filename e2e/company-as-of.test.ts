// A visitor reads a company as it stood on a past day (docs/decisions/0028-company-as-of.md): the
// date picker on its profile, the banner, the compare view, and back to today's profile. The
// changes are written here as an import would.
import { sql } from 'kysely';
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

describe('a company as of a day', () => {
  it('picks a day on the profile, reads the banner, compares with today and goes back', async () => {
    const row = await sql<{ id: number; uri: string; name: string }>`
      select id::int, uri, name from legal_entities order by id desc offset 1 limit 1`.execute(server.db.kysely);
    const company = row.rows[0];
    await server.db.kysely
      .insertInto('company_changes')
      .values([
        {
          legal_entity_id: company.id,
          field: 'company',
          old_value: null,
          new_value: JSON.stringify({ name: 'Earlier Name Ltd' }),
          source: 'gleif-lei',
          source_date: null,
          observed_at: new Date('2024-01-10T06:00:00Z'),
        },
        {
          legal_entity_id: company.id,
          field: 'name',
          old_value: JSON.stringify('Earlier Name Ltd'),
          new_value: JSON.stringify(company.name),
          source: 'gleif-lei',
          source_date: new Date('2024-05-01T00:00:00Z'),
          observed_at: new Date('2024-05-05T06:00:00Z'),
        },
      ] as never)
      .execute();

    const page = await browser.newPage();
    await page.goto(`${server.url}/companies/details/${company.uri}/`);
    await page.getByLabel('Show the profile as of').fill('2024-03-01');
    await page.locator('form.as-of-form').getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\?as_of=2024-03-01$/);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Earlier Name Ltd');
    await expect(page.getByRole('note').locator('strong').innerText()).resolves.toBe(
      'This profile shows the company as Registra knew it on 1 Mar 2024',
    );

    await page.getByRole('link', { name: 'Compare with today' }).click();
    await page.waitForURL(/\/compare\/\?from=2024-03-01&to=/);
    const cells = await page.locator('.compare-table tbody tr[data-field="name"] > *').allInnerTexts();
    expect(cells).toEqual(['Legal name', 'Earlier Name Ltd', company.name]);

    await page.goto(`${server.url}/companies/details/${company.uri}/?as_of=2024-03-01`);
    await page.getByRole('link', { name: "see today's" }).click();
    await page.waitForURL(new RegExp(`/companies/details/${company.uri}/$`));
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(company.name);
    await page.close();
  });
});
