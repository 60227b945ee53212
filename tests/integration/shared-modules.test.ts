// The production build imports the server's own modules (core/, db/, core/i18n/, app/services.ts)
// from the project instead of bundling copies (vite.config.ts), so pages and API share one
// instance of each module and its caches: what server/main.ts warms is what the pages read.

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cached, countCompaniesByJurisdiction } from '../../core/companies/count-companies.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

const BUNDLE = new URL('../../build/server/index.js', import.meta.url);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

describe('one instance of each server module', () => {
  it('the server bundle imports core/, db/ and the shared app modules from the project', async () => {
    const bundle = await readFile(BUNDLE, 'utf8');
    // Rolldown heads each module it bundles with a comment naming its file.
    const bundled = [...bundle.matchAll(/^\/\/ ((?:core|db|server)\/\S+|app\/i18n\/\S+|app\/services\.ts)$/gm)];
    expect(bundled.map((m) => m[1])).toEqual([]);
    expect(bundle).toContain('from "../../core/companies/count-companies.ts"');
    expect(bundle).toContain('from "../../app/services.ts"');
  });

  it('a page reads the count the server computed, and the server the count a page computed', async () => {
    const warmed = await countCompaniesByJurisdiction(t.db);
    const germany = warmed.get(276) ?? 0;
    // A copy in the bundle would count for itself and show the database's number.
    warmed.set(276, 987_654_321);
    try {
      const page = await t.app.inject({ method: 'GET', url: '/companies/directories/jurisdictions/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('987,654,321');
    } finally {
      warmed.set(276, germany);
    }

    // The other way round, on a count nobody has asked for yet: the industries page computes it.
    const page = await t.app.inject({ method: 'GET', url: '/companies/directories/industries/' });
    expect(page.statusCode).toBe(200);
    const recount = () => Promise.reject(new Error('the page counted into a cache of its own'));
    await expect(cached(t.db, 'industry', recount)).resolves.toBeInstanceOf(Map);
  });
});
