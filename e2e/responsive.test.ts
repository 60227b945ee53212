// The main pages at a phone's width (390 px) and a laptop's (1,280 px): nothing makes the page itself
// scroll sideways (wide tables scroll inside their own frame). ADR 0022.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

let server: TestServer;
let browser: Browser;
let profilePath: string;
let personPath: string;

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

describe('no page scrolls sideways', () => {
  for (const width of [390, 1280]) {
    it(`at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        const wide: string[] = [];
        for (const path of PAGES()) {
          const response = await page.goto(`${server.url}${path}`);
          expect(response?.status(), path).toBe(200);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) wide.push(`${path}: ${scrollWidth} px`);
        }
        expect(wide).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
