// A visitor reads where a company's facts came from and opens its History tab (the changes imports
// recorded, docs/decisions/0014-importers.md): rows written here as an import would.
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

describe('a company’s history', () => {
  it('shows the source of a fact on the profile, then the History tab, filtered by field', async () => {
    const row = await sql<{ id: number; uri: string; name: string }>`
      select id::int, uri, name from legal_entities order by id desc limit 1`.execute(server.db.kysely);
    const company = row.rows[0];
    const change = (field: string, before: string, after: string, day: string) => ({
      legal_entity_id: company.id,
      field,
      old_value: JSON.stringify(before),
      new_value: JSON.stringify(after),
      source: 'gleif-lei',
      source_date: new Date(`${day}T00:00:00Z`),
      observed_at: new Date(`${day}T06:00:00Z`),
    });
    await server.db.kysely
      .insertInto('company_changes')
      .values([
        change('name', 'Earlier Name Ltd', company.name, '2024-05-05'),
        change('status', 'INACTIVE', 'ACTIVE', '2024-06-01'),
      ] as never)
      .execute();
    await server.db.kysely
      .insertInto('company_provenance')
      .values({
        legal_entity_id: company.id,
        field: 'name',
        source: 'gleif-lei',
        source_date: new Date('2024-05-05T00:00:00Z'),
        observed_at: new Date('2024-05-05T06:00:00Z'),
      })
      .execute();

    const page = await browser.newPage();
    await page.goto(`${server.url}/companies/details/${company.uri}/`);
    // The overview's one line of sources, below its facts, with the day as the reader writes it.
    await expect(page.locator('section[aria-labelledby="overview"] .provenance').innerText()).resolves.toBe(
      'Source: GLEIF, 5 May 2024',
    );

    await page.getByRole('navigation', { name: 'Profile tabs' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL(/\/history\/$/);
    const fields = () => page.locator('.history-table tbody tr td:nth-child(2)').allInnerTexts();
    expect(await fields()).toEqual(['Status', 'Legal name']);

    await page.getByLabel('Field').selectOption({ label: 'Legal name' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/\?field=name$/);
    expect(await fields()).toEqual(['Legal name']);
    const cells = await page.locator('.history-table tbody tr td').allInnerTexts();
    // Each change says when the source dated it, who the source is, and when Registra saw it.
    expect(cells.slice(2)).toEqual([
      'Earlier Name Ltd',
      company.name,
      'Dated 5 May 2024 by GLEIF; seen by Registra 5 May 2024',
    ]);
    await page.close();
  });
});
