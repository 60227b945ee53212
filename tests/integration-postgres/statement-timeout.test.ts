// A request's statements are bounded (STATEMENT_TIMEOUT_SECONDS): while another session holds a
// lock that every read of companies waits for, pages and the API answer 503 with Retry-After
// within the bound instead of waiting for the lock, and answer again once it is released.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, openPostgres } from '../../db/client.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const TIMEOUT_MS = 300;

let t: TestDatabase;
let bounded: Db;
let app: Awaited<ReturnType<typeof buildApp>>;
let url: string;

beforeAll(async () => {
  t = await openTestDatabase();
  const pool = t.db.pool;
  if (!pool) throw new Error('tests/integration-postgres/ run only in the integration-postgres project');
  const options = pool.options as { connectionString: string };
  url = options.connectionString;
  bounded = await openPostgres(url, 4, { statementTimeoutMs: TIMEOUT_MS });
  app = await buildApp({ db: bounded, reference: t.reference, siteUrl: 'http://localhost:3000', pages: 'build' });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await bounded?.close();
  await t?.db.close();
});

it('answers 503 within the bound while a lock holds the rows, and 200 once it is released', async () => {
  const urls = [
    '/api/site/data/v1/legal_entities?count=20',
    '/companies/search/?jurisdiction=276',
    '/de/companies/search/',
  ];
  for (const path of urls) expect((await app.inject({ method: 'GET', url: path })).statusCode, path).toBe(200);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('begin');
    await admin.query('lock table legal_entities in access exclusive mode');
    // Without the bound each request would wait for the lock, which is never released meanwhile.
    // Searches not asked before: a search page kept by data version (ADR 0043) is answered without
    // reading companies, as it should be, so it would not meet the lock.
    for (const path of [urls[0], '/companies/search/?jurisdiction=250', '/de/companies/search/?jurisdiction=826']) {
      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(503);
      expect(res.headers['retry-after'], path).toBeDefined();
    }
    expect((await app.inject({ method: 'GET', url: urls[0] })).json().error.code).toBe('unavailable');
    // A search page kept before the lock is still answered: no statement of it reads companies.
    expect((await app.inject({ method: 'GET', url: urls[1] })).statusCode, urls[1]).toBe(200);
  } finally {
    await admin.query('rollback');
    await admin.end();
  }
  for (const path of urls) expect((await app.inject({ method: 'GET', url: path })).statusCode, path).toBe(200);
});
