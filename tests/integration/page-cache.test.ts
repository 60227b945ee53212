import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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
    pageCache: { ttlSeconds: 60, maxBytes: 8 * 1024 * 1024 },
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
    // Other caches keep one copy per Cookie header: a browser that signs in never gets its guest copy (ADR 0030).
    expect(String(first.headers.vary)).toMatch(/\bcookie\b/i);
    const second = await app.inject({ method: 'GET', url: '/companies/search/?q=bank' });
    expect(second.headers['x-cache']).toBe('hit');
    expect(String(second.headers.vary)).toMatch(/\bcookie\b/i);
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

  it('keeps the advanced search like any reading page: plain HTML, no framework script, no CSP nonce', async () => {
    // No page hydrates since the advanced search became one GET form (ADR 0022); a page that did
    // would carry its request's nonce, and server/plugins/ssr.ts would not keep it.
    const first = await app.inject({ method: 'GET', url: '/companies/search/advanced/' });
    expect(first.statusCode).toBe(200);
    expect(first.body).not.toContain('nonce=');
    expect(first.body).not.toMatch(/<script[^>]+src=/);
    const second = await app.inject({ method: 'GET', url: '/companies/search/advanced/' });
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
  });

  it('keeps only successful pages', async () => {
    await app.inject({ method: 'GET', url: '/companies/details/no-such-company-999999999/' });
    const again = await app.inject({ method: 'GET', url: '/companies/details/no-such-company-999999999/' });
    expect(again.statusCode).toBe(404);
    expect(again.headers['x-cache']).toBeUndefined();
  });
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

/** The visitor's record, once the page's fire-and-forget insert has landed. */
async function recordedVisitor(uid: string) {
  for (let i = 0; i < 100; i++) {
    const row = await t.db.kysely.selectFrom('visitors').selectAll().where('uid', '=', uid).executeTakeFirst();
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`visitor ${uid} was never recorded`);
}

function uidCookies(response: { headers: Record<string, unknown> }): string[] {
  const header = response.headers['set-cookie'];
  const cookies = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return cookies.filter((c) => c.startsWith('uid='));
}

describe('compression (server/plugins/compression.ts)', () => {
  const url = '/companies/search/?q=group';
  it('sends pages brotli- or gzip-compressed as the client accepts, rendered or from the cache, the same page', async () => {
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<html');
    for (const round of ['rendered', 'cached']) {
      const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], round).toBe('br');
      expect(String(br.headers.vary), round).toMatch(/accept-encoding/i);
      expect(br.rawPayload.length, round).toBeLessThan(plain.rawPayload.length / 3);
      expect(brotliDecompressSync(br.rawPayload).toString(), round).toBe(plain.body);
      const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding'], round).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString(), round).toBe(plain.body);
    }
    const cached = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(cached.headers['x-cache']).toBe('hit');
  });

  it('compresses JSON from the API, and leaves small bodies and refused encodings alone', async () => {
    const json = await app.inject({
      method: 'GET',
      url: '/api/site/data/v1/legal_entities?count=20',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(json.rawPayload).toString()).data.length).toBeGreaterThan(0);
    const small = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
    const identity = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toContain('<html');
  });
});

describe('visitors served from the cache', () => {
  const PAGE = '/companies/directories/jurisdictions/?partner=4242&utm_source=newsletter&tool_type=widget';

  it('gives a first-time visitor their own uid cookie and the same record as a rendered page', async () => {
    // The visitors accepted the statistics cookies (opt-in, ADR 0021).
    const headers = { 'user-agent': BROWSER, cookie: 'cookie_consent=accepted' };
    const rendered = await app.inject({ method: 'GET', url: PAGE, headers });
    expect(rendered.statusCode).toBe(200);
    expect(rendered.headers['x-cache']).toBeUndefined();
    const cached = await app.inject({ method: 'GET', url: PAGE, headers });
    expect(cached.headers['x-cache']).toBe('hit');
    expect(cached.body).toBe(rendered.body);

    const [first] = uidCookies(rendered);
    const cookies = uidCookies(cached);
    // One cookie, this visitor's own — never the first visitor's — for a year, HttpOnly, SameSite.
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^uid=[\w-]{8,64}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookies[0].split(';')[0]).not.toBe(first.split(';')[0]);
    // A response carrying a visitor's cookie is never for a shared cache to keep.
    expect(cached.headers['cache-control']).toBe('private, max-age=60');

    const uid = (cookie: string) => cookie.split(';')[0].slice('uid='.length);
    const { uid: _a, created_at: _at, ...onMiss } = await recordedVisitor(uid(first));
    const { uid: _b, created_at: _bt, ...onHit } = await recordedVisitor(uid(cookies[0]));
    expect(onHit).toEqual(onMiss);
    expect(String(onHit.user_id)).toBe('4242');
    expect(onHit).toMatchObject({ utm_source: 'newsletter', tool_type: 'widget' });
  });

  it('records a returning visitor once, however often the cache serves them', async () => {
    const firstVisit = await app.inject({
      method: 'GET',
      url: '/companies/directories/industries/',
      headers: { 'user-agent': BROWSER, cookie: 'cookie_consent=accepted' },
    });
    const [cookie] = uidCookies(firstVisit);
    const uid = cookie.split(';')[0].slice('uid='.length);
    await recordedVisitor(uid);
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('visitors')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (let i = 0; i < 3; i++) {
      const again = await app.inject({
        method: 'GET',
        url: '/companies/directories/industries/',
        headers: { 'user-agent': BROWSER, cookie: `cookie_consent=accepted; uid=${uid}` },
      });
      expect(again.headers['x-cache']).toBe('hit');
      expect(uidCookies(again)).toEqual([]);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await count()).toBe(before);
  });
});

describe('the bound in bytes', () => {
  it('keeps the pages under the bound, the least recently used evicted first', async () => {
    // About two and a half search pages (each about 60 kB with its filter panel).
    const maxBytes = 150_000;
    const small = await buildApp({
      ...t,
      siteUrl: 'http://localhost:3000',
      pages: 'build',
      pageCache: { ttlSeconds: 60, maxBytes },
    });
    try {
      const urls = Array.from({ length: 12 }, (_, i) => `/companies/search/?q=page${i}`);
      const sizes = new Map<string, number>();
      for (const url of urls) {
        const response = await small.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        sizes.set(url, response.rawPayload.byteLength);
      }
      const total = [...sizes.values()].reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(2 * maxBytes);
      // Newest first: each hit only refreshes its page; the first miss ends the walk (it would store).
      let kept = 0;
      let hits = 0;
      for (const url of [...urls].reverse()) {
        const again = await small.inject({ method: 'GET', url });
        if (again.headers['x-cache'] !== 'hit') break;
        kept += sizes.get(url) ?? 0;
        hits += 1;
      }
      expect(hits).toBeGreaterThan(0);
      expect(hits).toBeLessThan(urls.length);
      expect(kept).toBeLessThanOrEqual(maxBytes);
    } finally {
      await small.close();
    }
  });
});
