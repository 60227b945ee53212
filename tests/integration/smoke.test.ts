import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { TEMPLATE_SEED } from '../support/test-database.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('the API', () => {
  it('answers the health check', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API route with a JSON not_found error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});

describe('the test template', () => {
  it(`holds the ${TEMPLATE_SEED.companies} seeded companies`, async () => {
    const row = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(TEMPLATE_SEED.companies);
  });

  it('holds the reference data', async () => {
    const countries = await t.db.kysely
      .selectFrom('locations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('location_type_id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(countries.n)).toBeGreaterThanOrEqual(249);
    const english = await t.db.kysely
      .selectFrom('languages')
      .select(['id', 'code'])
      .where('id', '=', 41)
      .executeTakeFirst();
    expect(english).toEqual({ id: 41, code: 'en' });
    expect(t.reference.languageIds.en).toBe(41);
  });
});
