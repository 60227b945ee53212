// While the database is away, pages answer 503 with Retry-After and a translated page, the API a
// 503 `unavailable` error, liveness stays 200 and readiness is a 503. The app here runs over a
// PostgreSQL pool pointing at a port nobody listens on (the same on either test project: the
// outage is of a server, which PGlite has not).
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from '../../db/client.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let source: TestDatabase;
let away: Db;
let app: FastifyInstance;

/** A loopback port that was free a moment ago (nothing listens on it). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  source = await openTestDatabase();
  away = await openPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/registra`);
  app = await buildApp({ db: away, reference: source.reference, siteUrl: 'http://localhost:3000', pages: 'build' });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await away?.close();
  await source?.db.close();
});

describe('the database is unreachable', () => {
  it('a page is a 503 with Retry-After, saying so in the page’s language', async () => {
    const cases = [
      { url: '/companies/search/', text: 'Registra is briefly unavailable; try again in a moment.' },
      {
        url: '/de/companies/search/',
        text: 'Registra ist kurz nicht erreichbar; bitte versuchen Sie es gleich noch einmal.',
      },
      { url: '/fr/liabilities/search/?filed_on:from=2020', text: 'Registra est momentanément indisponible' },
      { url: '/de/companies/details/some-company-1/', text: 'Registra ist kurz nicht erreichbar' },
    ];
    for (const { url, text } of cases) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(Number(response.headers['retry-after']), url).toBeGreaterThan(0);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body, url).toContain(text);
    }
  });

  it('a signed-in page (its session is looked up before the page renders) is a translated 503 too', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/de/dashboard/',
      headers: { cookie: 'token=abcdefghijklmnopqrstuvwxyz0123456789' },
    });
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.body).toContain('Registra ist kurz nicht erreichbar');
  });

  it('the API answers a 503 unavailable error with Retry-After', async () => {
    for (const url of ['/api/site/data/v1/legal_entities', '/api/site/data/v1/liabilities?filed_on:from=2020']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.json().error.code).toBe('unavailable');
    }
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'away@example.com', password: 'a long enough password 1', name: 'Away' },
    });
    expect(signUp.statusCode).toBe(503);
    expect(signUp.json().error.code).toBe('unavailable');
  });

  it('liveness stays 200; readiness is a 503', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error.code).toBe('unavailable');
  });

  it('readiness is 200 over a database that answers', async () => {
    const live = await buildApp({
      db: source.db,
      reference: source.reference,
      siteUrl: 'http://localhost:3000',
      pages: false,
    });
    try {
      const ready = await live.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok', database: 'ok' });
    } finally {
      await live.close();
    }
  });
});

describe('the pool was ended', () => {
  it('pages and the API answer 503, not 500', async () => {
    const ended = await openPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/registra`);
    await ended.pool?.end();
    const endedApp = await buildApp({
      db: ended,
      reference: source.reference,
      siteUrl: 'http://localhost:3000',
      pages: 'build',
    });
    try {
      expect((await endedApp.inject({ method: 'GET', url: '/companies/search/' })).statusCode).toBe(503);
      expect((await endedApp.inject({ method: 'GET', url: '/api/site/data/v1/legal_entities' })).statusCode).toBe(503);
    } finally {
      await endedApp.close();
    }
  });
});
