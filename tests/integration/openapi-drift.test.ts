import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The OpenAPI document is generated from the routes' zod schemas and committed as
// docs/openapi.json, so that API changes show in review. Regenerate with `npm run openapi`.
const COMMITTED = new URL('../../docs/openapi.json', import.meta.url);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

it('matches the committed docs/openapi.json', async () => {
  const generated = `${JSON.stringify((await t.app.inject({ url: '/api/openapi.json' })).json(), null, 2)}\n`;
  if (process.env.UPDATE_OPENAPI === '1') await writeFile(COMMITTED, generated);
  const committed = await readFile(COMMITTED, 'utf8').catch(() => '');
  expect(generated, 'the API changed: run `npm run openapi` and commit docs/openapi.json').toBe(committed);
});
