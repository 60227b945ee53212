// The app (PGlite, its page cache on) behind a real shared cache: Debian's nginx with `proxy_cache`
// on loopback, set up as a careless operator would (200s kept 10 minutes unless the response says
// otherwise). What it may keep follows the app's Cache-Control and Vary
// (docs/decisions/0030-sign-in-finishes-and-private-caching.md): guests' pages are kept and served
// to guests; no signed-in page is ever served to a guest, and no guest copy to a signed-in browser
// — right after a sign-in or an activation too; the API, redirects and the balance are never kept;
// static files, flags and sitemaps are.

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../core/accounts/password-hash.ts';
import { buildApp } from '../../server/app.ts';
import { GOOD_PASSWORD, linkPath, outbox, uniqueEmail } from '../support/accounts.ts';
import { freePort } from '../support/app-processes.ts';
import { type Nginx, startNginx, stopNginx } from '../support/nginx.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let t: TestDatabase;
let app: FastifyInstance;
let nginx: Nginx;

beforeAll(async () => {
  t = await openTestDatabase();
  const port = await freePort();
  app = await buildApp({
    ...t,
    siteUrl: `http://127.0.0.1:${port}`,
    pages: 'build',
    pageCache: { ttlSeconds: 60, maxBytes: 8 * 1024 * 1024 },
    trustProxy: ['loopback'],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const appPort = typeof address === 'object' && address ? address.port : 0;
  nginx = await startNginx([appPort], { cache: true, port });
}, 60_000);

afterAll(async () => {
  if (nginx) await stopNginx(nginx);
  await app?.close();
  await t?.db.close();
});

/** A request through nginx; redirects are not followed (each hop is looked at). */
function via(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  return fetch(`${nginx.url}${path}`, { ...init, headers, redirect: 'manual' });
}

const cacheStatus = (response: Response) => response.headers.get('x-cache-status') ?? '';

/** `name=value` pairs of a response's Set-Cookie headers, for the next request's Cookie header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

/** An activated user with a known password. */
async function makeUser(name: string): Promise<{ email: string; id: number }> {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '.'));
  const row = await t.db.kysely
    .insertInto('users')
    .values({ email, name, password_hash: await hashPassword(GOOD_PASSWORD), activated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { email, id: Number(row.id) };
}

/** Signs in with the page form through nginx (a form post of this site); the redirect and its cookies. */
async function signIn(email: string, returnTo: string): Promise<{ location: string; cookie: string; raw: string[] }> {
  const response = await via('/account/login/', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: nginx.url,
      'sec-fetch-site': 'same-origin',
    },
    body: new URLSearchParams({ email, password: GOOD_PASSWORD, returnTo }).toString(),
  });
  expect(response.status).toBe(302);
  expect(cacheStatus(response)).not.toBe('HIT');
  return {
    location: response.headers.get('location') ?? '',
    cookie: cookiesOf(response),
    raw: response.headers.getSetCookie(),
  };
}

describe('behind a shared cache (nginx proxy_cache)', () => {
  it('keeps guests’ pages for guests, one copy per Cookie header', async () => {
    const first = await via('/companies/directories/jurisdictions/?cache=guests');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('vary') ?? '').toMatch(/\bcookie\b/i);
    await first.text();
    const second = await via('/companies/directories/jurisdictions/?cache=guests');
    expect(cacheStatus(second)).toBe('HIT');
    expect(await second.text()).toContain('Sign in');
  });

  it('never serves the guest copy to a browser that has just signed in, nor its page to a guest', async () => {
    const user = await makeUser('Nora Proxy');
    const path = '/companies/directories/jurisdictions/?cache=sign-in';
    // A guest's copy is in the shared cache.
    await (await via(path)).text();
    const guest = await via(path);
    expect(cacheStatus(guest)).toBe('HIT');

    const signedIn = await signIn(user.email, `${path}#pending=track`);
    expect(signedIn.location).toBe(`${path}#pending=track`);
    // The redirect carries the session and the mark that the landing may finish the pending action.
    expect(signedIn.raw.some((c) => c.startsWith('token=') && /HttpOnly/i.test(c))).toBe(true);
    expect(signedIn.raw.some((c) => c.startsWith('signed_in=1') && !/HttpOnly/i.test(c))).toBe(true);

    for (let round = 0; round < 2; round++) {
      const landing = await via(path, { cookie: signedIn.cookie });
      expect(landing.status).toBe(200);
      expect(cacheStatus(landing), `round ${round}`).not.toBe('HIT');
      expect(landing.headers.get('cache-control')).toBe('private, no-store');
      const html = await landing.text();
      expect(html).toContain('Nora Proxy');
      expect(html).toContain('Sign out');
    }
    // The guest still gets the guest copy, never the signed-in page.
    const after = await via(path);
    expect(cacheStatus(after)).toBe('HIT');
    const html = await after.text();
    expect(html).not.toContain('Nora Proxy');
    expect(html).toContain('Sign in');
  });

  it('never keeps a signed-in page for a guest who asks for it next', async () => {
    const user = await makeUser('Otto Private');
    const path = '/companies/directories/industries/?cache=first-signed-in';
    const { cookie } = await signIn(user.email, path);
    const mine = await via(path, { cookie });
    expect(await mine.text()).toContain('Otto Private');
    const guest = await via(path);
    expect(cacheStatus(guest)).not.toBe('HIT');
    expect(await guest.text()).not.toContain('Otto Private');
  });

  it('lands an activation on the signed-in page although a guest copy of it is cached', async () => {
    const email = uniqueEmail('proxy.activation');
    const path = '/companies/directories/jurisdictions/?cache=activation';
    await (await via(path)).text();
    expect(cacheStatus(await via(path))).toBe('HIT');
    const signUp = await via('/account/sign-up/', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: nginx.url,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({
        name: 'Ava Activated',
        email,
        password: GOOD_PASSWORD,
        returnTo: `${path}#pending=add-to-list`,
      }).toString(),
    });
    expect(signUp.status).toBe(200);
    const [mail] = await outbox(t.db, email);
    const link = linkPath(mail.text_body, /\/account\/activation\//);
    // The pending action rides in the link (ADR 0030), so it survives another tab or the next day.
    expect(decodeURIComponent(link)).toContain(`returnTo=${path}#pending=add-to-list`);
    const activation = await via(link);
    expect(activation.status).toBe(302);
    expect(activation.headers.get('location')).toBe(`${path}#pending=add-to-list`);
    expect(activation.headers.get('cache-control')).toContain('no-store');
    const cookie = cookiesOf(activation);
    expect(cookie).toContain('signed_in=1');
    const landing = await via(path, { cookie });
    expect(cacheStatus(landing)).not.toBe('HIT');
    const html = await landing.text();
    expect(html).toContain('Ava Activated');
    // A second open of the link signs nobody in and lands nowhere.
    const again = await via(link);
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('never keeps the API, the balance or redirects; keeps static files, flags and sitemaps', async () => {
    const user = await makeUser('Bea Balance');
    const { cookie } = await signIn(user.email, '/');
    for (const path of [`/api/balances/users/${user.id}`, '/dashboard/balance/', '/api/health']) {
      for (let round = 0; round < 2; round++) {
        const response = await via(path, { cookie });
        expect(response.status, path).toBe(200);
        expect(response.headers.get('cache-control'), path).toBe('private, no-store');
        expect(cacheStatus(response), path).not.toBe('HIT');
        await response.text();
      }
    }
    const balance = await (await via('/dashboard/balance/', { cookie })).json();
    expect(balance).toEqual({ balance: 0, texts: { header: '0 credits', dashboard: 'Your balance: 0 credits.' } });
    // A guest asking for the balance is refused, and that is not kept either.
    const guest = await via('/dashboard/balance/');
    expect(guest.status).toBe(401);
    expect(guest.headers.get('cache-control')).toBe('private, no-store');
    // A redirect (here the trailing slash's) is never served from the cache to someone else.
    const redirect = await via('/companies/directories/jurisdictions');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('cache-control')).toBe('private, no-store');
    expect(cacheStatus(await via('/companies/directories/jurisdictions'))).not.toBe('HIT');

    const asset = readdirSync(fileURLToPath(new URL('../../build/client/assets/', import.meta.url)))[0];
    for (const path of [`/assets/${asset}`, '/flags/de.svg', '/robots.txt', '/sitemaps/en.xml']) {
      const first = await via(path, { cookie });
      expect(first.status, path).toBe(200);
      expect(first.headers.get('cache-control'), path).toMatch(/^public/);
      expect(first.headers.getSetCookie(), path).toEqual([]);
      await first.arrayBuffer();
      const second = await via(path);
      expect(cacheStatus(second), path).toBe('HIT');
      await second.arrayBuffer();
    }
  });
});
