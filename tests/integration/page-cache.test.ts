import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let t: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildApp({
    ...t,
    siteUrl: 'http://localhost:3000',
    pages: 'build',
    pageCache: { ttlSeconds: 60, maxEntries: 100 },
  });
});
afterAll(async () => {
  await app?.close();
  await t?.db.close();
});

describe('page cache for anonymous readers', () => {
  it('serves the second request for a page from the cache, with the same body', async () => {
    const first = await app.inject({ method: 'GET', url: '/companies/search/?q=bank' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const second = await app.inject({ method: 'GET', url: '/companies/search/?q=bank' });
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
  });

  it('never serves a reader with cookies from the cache', async () => {
    await app.inject({ method: 'GET', url: '/companies/directories/industries/' });
    const withCookie = await app.inject({
      method: 'GET',
      url: '/companies/directories/industries/',
      headers: { cookie: 'token=abc' },
    });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['x-cache']).toBeUndefined();
  });

  it('keeps only successful pages', async () => {
    await app.inject({ method: 'GET', url: '/companies/details/no-such-company-1/' });
    const again = await app.inject({ method: 'GET', url: '/companies/details/no-such-company-1/' });
    expect(again.statusCode).toBe(404);
    expect(again.headers['x-cache']).toBeUndefined();
  });
});
