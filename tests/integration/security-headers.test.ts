import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Security headers on every response (docs/decisions/0012-security-headers.md): pages, the API,
// static files, redirects, 404s and errors; a policy every inline script of the pages meets; HSTS
// only over HTTPS. The browser side (no violation in Chromium) is e2e/security-headers.test.ts.

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  // Behind a proxy on this machine, so that X-Forwarded-Proto can say HTTPS.
  t = await buildTestApp({ pages: 'build', trustProxy: ['loopback'] });
  user = await createSignedInUser(t.db, 'headers');
});
afterAll(() => t?.close());

type Headers = Record<string, string | string[] | number | undefined>;

function expectSecurityHeaders(headers: Headers, what: string) {
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  // Signed-in pages choose a stricter one of their own.
  expect(['strict-origin-when-cross-origin', 'same-origin'], what).toContain(headers['referrer-policy']);
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toContain("unsafe-inline'; script"); // sanity: script-src below
  expect(scriptSources(csp), what).not.toContain("'unsafe-inline'");
  expect(scriptSources(csp), what).not.toContain("'unsafe-eval'");
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

function scriptSources(csp: string): string[] {
  const directive = csp.split(';').find((d) => d.trim().startsWith('script-src '));
  return directive ? directive.trim().split(/\s+/).slice(1) : [];
}

describe('security headers', () => {
  it('are on pages, API answers, static files, redirects, 404s and errors', async () => {
    const [company] = await someCompanies(t.db, 1);
    const responses: [string, Awaited<ReturnType<typeof t.app.inject>>, number][] = [
      ['home page', await t.app.inject({ url: '/' }), 200],
      ['search page', await t.app.inject({ url: '/companies/search/?q=bank' }), 200],
      ['profile', await t.app.inject({ url: `/companies/details/${company.uri}/` }), 200],
      [
        'signed-in settings',
        await t.app.inject({ url: '/dashboard/settings/security/', headers: { cookie: user.cookie } }),
        200,
      ],
      ['API', await t.app.inject({ url: '/api/site/data/v1/legal_entities' }), 200],
      ['API docs', await t.app.inject({ url: '/api/docs' }), 200],
      ['static file', await t.app.inject({ url: '/robots.txt' }), 200],
      ['built asset', await t.app.inject({ url: `/assets/${await anAsset()}` }), 200],
      ['trailing-slash redirect', await t.app.inject({ url: '/companies/search' }), 301],
      ['page 404', await t.app.inject({ url: '/companies/details/no-such-company-999999999/' }), 404],
      ['API 404', await t.app.inject({ url: '/api/no-such-thing' }), 404],
      ['API 400', await t.app.inject({ url: '/api/site/data/v1/legal_entities?bogus=1' }), 400],
      ['page 400', await t.app.inject({ url: '/companies/search/?bogus=1' }), 400],
      ['API 401', await t.app.inject({ url: '/api/profiles' }), 401],
    ];
    for (const [what, response, status] of responses) {
      expect(response.statusCode, what).toBe(status);
      expectSecurityHeaders(response.headers, what);
    }
  });

  it('carry a policy that every inline script of the pages meets (islands by hash, hydration by nonce)', async () => {
    const [company] = await someCompanies(t.db, 1);
    const pages = [
      '/',
      '/companies/search/?q=bank',
      `/companies/details/${company.uri}/`,
      '/companies/lists/',
      '/companies/comparison/',
      '/companies/search/advanced/',
      '/vessels/export/',
    ];
    const visits = [
      ...pages.flatMap((p) => [[p, undefined] as const, [p, user.cookie] as const]),
      ['/account/login/', undefined] as const,
    ];
    const seen = new Set<string>();
    for (const [url, cookie] of visits) {
      const response = await t.app.inject({ url, headers: cookie ? { cookie } : {} });
      expect(response.statusCode, url).toBe(200);
      const sources = scriptSources(String(response.headers['content-security-policy']));
      const nonce = sources.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      // Each response its own nonce of 16 random bytes, as a nonce source (the policy is written once: ADR 0044).
      expect(nonce, url).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(seen.has(nonce!), url).toBe(false);
      seen.add(nonce!);
      for (const [tag, text] of inlineScripts(response.body)) {
        if (nonce && tag.includes(`nonce="${nonce}"`)) continue;
        const hash = `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
        expect(sources, `${url}${cookie ? ' (signed in)' : ''}: ${text.slice(0, 60)}`).toContain(hash);
      }
      // No inline event handlers (script-src-attr 'none').
      expect(response.body, url).not.toMatch(/<[^>]+\son[a-z]+=/i);
    }
  });

  it('add HSTS only over HTTPS', async () => {
    const https = await t.app.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
    const api = await t.app.inject({
      url: '/api/site/data/v1/legal_entities',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await t.app.inject({ url: '/' })).headers['strict-transport-security']).toBeUndefined();
    // From an address the app does not trust, the header is the client's word: no HSTS.
    const spoofed = await t.app.inject({
      url: '/',
      remoteAddress: '192.0.2.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });
});

/**
 * The inline <script> elements of a page that a browser runs: their opening tag and text. Data
 * blocks (the profile's schema.org `application/ld+json`, ADR 0021) are never run, so CSP has no
 * say over them.
 */
function inlineScripts(html: string): [string, string][] {
  return [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)]
    .filter(([, tag]) => !/\ssrc=/.test(tag) && !/\stype="application\/ld\+json"/.test(tag))
    .map(([, tag, text]) => [tag, text]);
}

async function anAsset(): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const files = await readdir(new URL('../../build/client/assets/', import.meta.url));
  const file = files.find((f) => f.endsWith('.js'));
  if (!file) throw new Error('no built asset: run `npx react-router build`');
  return file;
}
