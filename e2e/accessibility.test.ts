// axe-core in Chromium (ADR 0022): no violations on the pages a visitor reads, at a laptop's width
// and a phone's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let browser: Browser;
let pages: string[];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const company = await server.db.kysely
    .selectFrom('legal_entities as le')
    .innerJoin('legal_entity_members as lem', 'lem.legal_entity_id', 'le.id')
    .select(['le.uri', 'lem.member_id'])
    .orderBy('le.id')
    .limit(1)
    .executeTakeFirstOrThrow();
  pages = [
    '/',
    '/companies/search/',
    '/companies/search/?q=a',
    '/connections/search/',
    `/companies/details/${company.uri}/`,
    `/members/details/x/${company.member_id}/`,
    '/members/search/?q=an',
    '/companies/directories/jurisdictions/',
    '/companies/directories/industries/',
    '/companies/search/advanced/',
  ];
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Violation = { id: string; help: string; nodes: { target: string[] }[] };

describe('axe finds no violations', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px`, async () => {
      // The CSP allows only the app's own scripts: axe is injected around it.
      const page = await browser.newPage({ viewport: { width, height: 800 }, bypassCSP: true });
      try {
        const found: string[] = [];
        for (const path of pages) {
          await page.goto(`${server.url}${path}`);
          await page.evaluate(AXE);
          const violations = (await page.evaluate(async () => {
            // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
            const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
            return result.violations;
          })) as Violation[];
          for (const v of violations)
            found.push(
              `${path}: ${v.id} (${v.help}) at ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
            );
        }
        expect(found).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
