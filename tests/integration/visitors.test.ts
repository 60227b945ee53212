import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledApiLimits } from '../../core/api-keys/api-limits.ts';
import { DEFAULT_PARTNER_ID } from '../../core/visitors/visitors.ts';
import { buildApp } from '../../server/app.ts';
import { type Injected, postJson, setCookies } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser } from '../support/users.ts';

// Visitors and partner stats (spec §4, §7 "Partner stats", §9): the `uid` cookie on a first page
// visit (one year), the UTM cookie (14 days), one visitor record per new visitor, never a broken
// page; and POST /api/visitors. The app runs with the page cache on, as in production, so that
// cached pages are covered too.

let t: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildApp({
    ...t,
    siteUrl: 'http://localhost:3000',
    pages: 'build',
    logLevel: 'silent',
    // Behind a proxy on this machine: app.inject's requests come from 127.0.0.1.
    trustProxy: ['loopback'],
    pageCache: { ttlSeconds: 60, maxBytes: 8 * 1024 * 1024 },
    // The visitors route's own limit per address is tested here, not the API's per plan (ADR 0020).
    apiLimits: scaledApiLimits(10_000),
  });
});
afterAll(async () => {
  await app?.close();
  await t?.db.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const PAGE = '/companies/directories/jurisdictions/';

/** A page visit of a browser whose visitor accepted the statistics cookies (opt-in, ADR 0021). */
const visit = (url: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url,
    headers: {
      'user-agent': BROWSER,
      ...headers,
      cookie: headers.cookie ? `cookie_consent=accepted; ${headers.cookie}` : 'cookie_consent=accepted',
    },
  });

function cookieNamed(response: Injected, name: string): string | undefined {
  return setCookies(response).find((c) => c.startsWith(`${name}=`));
}

function uidOf(response: Injected): string {
  const cookie = cookieNamed(response, 'uid');
  if (!cookie) throw new Error(`no uid cookie in ${response.statusCode} response`);
  return cookie.split(';')[0].slice('uid='.length);
}

const visitorRow = (uid: string) =>
  t.db.kysely.selectFrom('visitors').selectAll().where('uid', '=', uid).executeTakeFirst();

/** The visitor's record, once the page's fire-and-forget insert has landed. */
async function recordedVisitor(uid: string) {
  for (let i = 0; i < 100; i++) {
    const row = await visitorRow(uid);
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`visitor ${uid} was never recorded`);
}

async function visitorCount(): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('visitors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Lets fire-and-forget inserts finish (PGlite runs statements one after another). */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await t.db.kysely.selectFrom('visitors').select('uid').limit(1).execute();
}

describe('the visitor cookie and record on page visits', () => {
  it('gives a first-time visitor a one-year uid cookie and records them once, with the landing URL’s UTM and partner', async () => {
    const first = await visit(
      `${PAGE}?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=kyc&utm_content=top&partner=4242&product_id=7&tool_id=3&tool_type=widget`,
    );
    expect(first.statusCode).toBe(200);
    const uidCookie = cookieNamed(first, 'uid')!;
    expect(uidCookie).toMatch(/^uid=[0-9a-f-]{36}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    const utmCookie = cookieNamed(first, 'utm')!;
    expect(utmCookie).toMatch(/; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
    const uid = uidOf(first);

    const row = await recordedVisitor(uid);
    expect(row).toMatchObject({
      uid,
      user_agent: BROWSER,
      user_id: 4242,
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'kyc',
      utm_content: 'top',
      product_id: 7,
      tool_id: 3,
      tool_type: 'widget',
    });
    expect(row?.site_id).toMatch(/^localhost/);

    // The second visit carries the cookie: no new cookie, no new record.
    const before = await visitorCount();
    const jar = [uidCookie, utmCookie].map((c) => c.split(';')[0]).join('; ');
    const second = await visit('/companies/directories/industries/', { cookie: jar });
    expect(second.statusCode).toBe(200);
    expect(cookieNamed(second, 'uid')).toBeUndefined();
    expect(cookieNamed(second, 'utm')).toBeUndefined();
    await settle();
    expect(await visitorCount()).toBe(before);
    const rows = await t.db.kysely.selectFrom('visitors').select('uid').where('uid', '=', uid).execute();
    expect(rows).toHaveLength(1);
  });

  it('defaults the partner to 1000 and leaves out values that are not well-formed', async () => {
    const response = await visit(`${PAGE}?partner=abc&product_id=-1&tool_id=x&tool_type=${encodeURIComponent('<b>')}`);
    const row = await recordedVisitor(uidOf(response));
    expect(row).toMatchObject({
      user_id: DEFAULT_PARTNER_ID,
      product_id: null,
      tool_id: null,
      tool_type: null,
      utm_source: null,
    });
    const byRef = await recordedVisitor(uidOf(await visit(`${PAGE}?ref=77`)));
    expect(byRef.user_id).toBe(77);
    // Over-long values are cut, not refused: a visit is never turned away.
    const long = await recordedVisitor(uidOf(await visit(`${PAGE}?utm_campaign=${'c'.repeat(500)}`)));
    expect(long.utm_campaign).toBe('c'.repeat(200));
  });

  it('takes the UTM parameters from the utm cookie when a new visitor’s landing URL has none', async () => {
    const landing = await visit(`${PAGE}?utm_source=ads&utm_campaign=autumn`);
    const utm = cookieNamed(landing, 'utm')!.split(';')[0];
    // The visitor cookie was lost, the UTM cookie kept: a new visitor, with the campaign.
    const again = await visit('/companies/directories/industries/', { cookie: utm });
    const row = await recordedVisitor(uidOf(again));
    expect(row).toMatchObject({ utm_source: 'ads', utm_campaign: 'autumn', utm_medium: null });
  });

  it('marks the cookies Secure over HTTPS', async () => {
    const response = await visit(`${PAGE}?utm_source=x`, { 'x-forwarded-proto': 'https' });
    expect(cookieNamed(response, 'uid')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookieNamed(response, 'utm')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('sets no cookie and records nobody for the API, static files, redirects, error pages and bots', async () => {
    await settle();
    const before = await visitorCount();
    const responses = [
      await visit('/api/health'),
      await visit('/favicon.ico'),
      await visit('/companies/directories/jurisdictions'),
      await visit('/companies/details/no-such-company-999999999/'),
      await visit(PAGE, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
      await app.inject({ method: 'GET', url: PAGE, headers: { 'user-agent': '' } }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, expect.any(Number), 301, 404, 200, 200]);
    for (const response of responses) expect(cookieNamed(response, 'uid')).toBeUndefined();
    await settle();
    expect(await visitorCount()).toBe(before);
  });

  it('serves a returning guest (only the visitor’s cookies) from the page cache, and sets the cookie on cached pages', async () => {
    const url = '/companies/directories/industries/?cache=visitors';
    const first = await visit(url);
    const jar = cookieNamed(first, 'uid')!.split(';')[0];
    const returning = await visit(url, { cookie: jar });
    expect(returning.headers['x-cache']).toBe('hit');
    expect(cookieNamed(returning, 'uid')).toBeUndefined();
    // A brand-new visitor served from the cache still gets a uid of their own.
    const newcomer = await visit(url);
    expect(newcomer.headers['x-cache']).toBe('hit');
    expect(uidOf(newcomer)).not.toBe(uidOf(first));
    await recordedVisitor(uidOf(newcomer));
    // Any other cookie (a table view, a session) is still never served from the cache.
    const other = await visit(url, { cookie: `${jar}; table_view=%7B%7D` });
    expect(other.headers['x-cache']).toBeUndefined();
  });
});

describe('POST /api/visitors (partner stats)', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    postJson(app, 'POST', '/api/visitors', body, { headers: { 'user-agent': BROWSER, ...headers } });

  it('records a visitor once per uid', async () => {
    const body = {
      uid: 'partner-visitor-0001',
      site_id: 'partner.example',
      user_id: 555,
      utm_source: 'blog',
      utm_medium: 'referral',
      product_id: 2,
      tool_id: 9,
      tool_type: 'search-widget',
    };
    const first = await post(body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ uid: 'partner-visitor-0001', recorded: true });
    const second = await post({ ...body, utm_source: 'changed' });
    expect(second.json()).toEqual({ uid: 'partner-visitor-0001', recorded: false });
    const rows = await t.db.kysely.selectFrom('visitors').selectAll().where('uid', '=', body.uid).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...body, user_agent: BROWSER, utm_term: null });
  });

  it('uses the uid cookie, or makes a uid and sets the cookie; the partner defaults to 1000', async () => {
    const made = await post({});
    expect(made.statusCode).toBe(200);
    const uid = uidOf(made);
    expect(made.json()).toEqual({ uid, recorded: true });
    expect(await visitorRow(uid)).toMatchObject({
      user_id: DEFAULT_PARTNER_ID,
      site_id: expect.stringMatching(/^localhost/),
    });
    const again = await post({ utm_source: 'x' }, { cookie: `uid=${uid}` });
    expect(again.json()).toEqual({ uid, recorded: false });
    expect(cookieNamed(again, 'uid')).toBeUndefined();
  });

  it('answers a bad or over-long value with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ uid: 'short' }, 'uid'],
      [{ uid: 'has spaces in it' }, 'uid'],
      [{ uid: 'valid-uid-0002', utm_source: 'x'.repeat(201) }, 'utm_source'],
      [{ uid: 'valid-uid-0002', utm_campaign: 'a\u0000b' }, 'utm_campaign'],
      [{ uid: 'valid-uid-0002', user_agent: 'u'.repeat(513) }, 'user_agent'],
      [{ uid: 'valid-uid-0002', site_id: 'not a host' }, 'site_id'],
      [{ uid: 'valid-uid-0002', tool_type: 'Bad Type' }, 'tool_type'],
      [{ uid: 'valid-uid-0002', user_id: 0 }, 'user_id'],
      [{ uid: 'valid-uid-0002', product_id: 'seven' }, 'product_id'],
      [{ uid: 'valid-uid-0002', color: 'red' }, 'color'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details.parameter, JSON.stringify(body)).toBe(field);
    }
    expect(await visitorRow('valid-uid-0002')).toBeUndefined();
  });

  it('refuses posts from other sites and needs the CSRF token when signed in', async () => {
    const cross = await post({ uid: 'cross-site-0001' }, { origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
    const user = await createSignedInUser(t.db, 'visitor-post');
    expect((await post({ uid: 'signed-in-0001' }, { cookie: user.cookie })).statusCode).toBe(403);
    expect((await post({ uid: 'signed-in-0001' }, { cookie: user.cookie, 'x-csrf-token': user.csrf })).statusCode).toBe(
      200,
    );
  });

  it('limits posts per client address', async () => {
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      statuses.push(
        (await post({ uid: `rate-limit-${String(i).padStart(4, '0')}` }, { 'x-forwarded-for': ip })).statusCode,
      );
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  });
});

describe('a visitor record that cannot be written', () => {
  it('still serves the page and the cookie; the failure is only logged, never awaited', async () => {
    await settle();
    // This file's own database loses the table.
    await t.db.kysely.schema.alterTable('visitors').renameTo('visitors_gone').execute();
    const response = await visit(`${PAGE}?utm_source=broken`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('</html>');
    expect(cookieNamed(response, 'uid')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rows = await t.db.kysely
      .selectFrom('visitors_gone' as 'visitors')
      .select('uid')
      .where('uid', '=', uidOf(response))
      .execute();
    expect(rows).toEqual([]);
    // The app keeps serving.
    expect((await visit('/companies/directories/industries/?after=failure')).statusCode).toBe(200);
  });
});
