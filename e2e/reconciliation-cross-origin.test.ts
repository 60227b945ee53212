import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../core/api-keys/api-keys.ts';
import { createSignedInUser, someCompanies } from '../tests/support/users.ts';
import { launchBrowser } from './support/browser.ts';
import { startServer, type TestServer } from './support/server.ts';

// The reconciliation service as OpenRefine's browser side uses it (ADR 0034), in Chromium, from a
// page of ANOTHER origin: the same host on another port, so that the browser also sends the
// SameSite=Lax session cookie along (same site, other origin). The page loads the manifest by
// JSONP and by CORS, posts a batch of queries form-encoded as OpenRefine does, pages suggest by
// cursor, sends an API key (a preflight), and shows the preview in a frame. The cookie is sent but
// never honoured: the database's rate-limit buckets show which plan each call was counted on.

let server: TestServer;
let other: Server;
let otherUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!DOCTYPE html><html><head><title>Another tool</title></head><body><h1>Another tool</h1></body></html>',
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => other?.close(resolve));
  await server?.close();
});

/** Calls counted so far on a plan's buckets (core/api-keys/api-limits.ts: `api:<plan>:…` keys). */
async function callsOn(plan: string): Promise<number> {
  const { rows } = await sql<{ hits: number | null }>`
    select sum(hits)::int as hits from rate_limit_buckets where key like ${`api:${plan}:%`}`.execute(server.db.kysely);
  return Number(rows[0]?.hits ?? 0);
}

describe('the reconciliation service from another origin in Chromium', () => {
  it('works as OpenRefine drives it, and never honours the session cookie there', async () => {
    const companies = await someCompanies(server.db, 3, 20);
    const user = await createSignedInUser(server.db, 'refine-browser');
    const { key } = await createApiKey(server.db, user.id, { name: 'OpenRefine', scopes: ['read'] });
    const host = new URL(server.url).hostname;
    await context.addCookies([
      {
        name: 'token',
        value: user.cookie.replace(/^token=/, ''),
        domain: host,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);

    // The control: on the site's own origin the cookie signs the browser in (a free-plan call).
    await page.goto(`${server.url}/`);
    const freeBefore = await callsOn('free');
    const ownStatus = await page.evaluate(async () => (await fetch('/api/reconcile')).status);
    expect(ownStatus).toBe(200);
    expect(await callsOn('free')).toBe(freeBefore + 1);

    await page.goto(`${otherUrl}/`);
    expect(new URL(page.url()).origin).not.toBe(new URL(server.url).origin);
    // What Chromium sends to the service from this page (the cookie, same site).
    const cookieSent: string[] = [];
    page.on('request', async (request) => {
      if (!request.url().startsWith(`${server.url}/api/reconcile`)) return;
      if ((await request.allHeaders()).cookie?.includes(user.cookie)) cookieSent.push(request.url());
    });
    const free = await callsOn('free');
    const anonymous = await callsOn('anonymous');
    const api = `${server.url}/api/reconcile`;
    const batch = Object.fromEntries(
      companies.map((c, i) => [`q${i}`, { query: c.name, type: 'company', type_strict: 'should', limit: 3 }]),
    );

    const seen = await page.evaluate(
      async ({ api, batch, key }) => {
        // JSONP, as jQuery sends it: a script element, a generated callback and a cache buster.
        const jsonp = (url: string) =>
          new Promise<unknown>((resolve, reject) => {
            const name = `jQuery37109_${Math.random().toString().slice(2)}`;
            const script = document.createElement('script');
            (window as unknown as Record<string, unknown>)[name] = (data: unknown) => {
              resolve(data);
              script.remove();
            };
            script.onerror = () => reject(new Error(`JSONP failed: ${url}`));
            script.src = `${url}${url.includes('?') ? '&' : '?'}callback=${name}&_=${Date.now()}`;
            document.head.append(script);
          });
        const manifestByJsonp = (await jsonp(api)) as {
          name: string;
          suggest: { entity: { service_url: string; service_path: string } };
          preview: { url: string };
        };
        const manifestByCors = await (await fetch(api)).json();
        // The batch as OpenRefine posts it: a form with queries=.
        const posted = await fetch(api, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
          body: `queries=${encodeURIComponent(JSON.stringify(batch))}`,
        });
        const results = await posted.json();
        const suggest = `${manifestByJsonp.suggest.entity.service_url}${manifestByJsonp.suggest.entity.service_path}`;
        const page1 = await (await fetch(`${suggest}?prefix=a`)).json();
        const page2 = await (await fetch(`${suggest}?prefix=a&cursor=${page1.result.length}`)).json();
        const suggestedByJsonp = (await jsonp(`${suggest}?prefix=a&cursor=10`)) as { result: { id: string }[] };
        // A key in a header: the browser sends a preflight first.
        const keyed = await fetch(api, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: `queries=${encodeURIComponent(JSON.stringify({ q0: batch.q0 }))}`,
        });
        const keyedLimit = keyed.headers.get('ratelimit-limit');
        // Credentials are never allowed: a fetch that insists on sending the cookie cannot read the answer.
        let withCredentials = 'read';
        try {
          await fetch(api, { credentials: 'include' });
        } catch {
          withCredentials = 'blocked';
        }
        return {
          manifestByJsonp,
          manifestByCors,
          postedStatus: posted.status,
          anonymousLimit: posted.headers.get('ratelimit-limit'),
          results,
          page1: page1.result.map((r: { id: string }) => r.id),
          page2: page2.result.map((r: { id: string }) => r.id),
          suggestedByJsonp: suggestedByJsonp.result.map((r) => r.id),
          keyedStatus: keyed.status,
          keyedLimit,
          withCredentials,
        };
      },
      { api, batch, key },
    );

    expect(seen.manifestByJsonp.name).toBe('Registra companies');
    expect(seen.manifestByCors).toEqual(seen.manifestByJsonp);
    expect(seen.postedStatus).toBe(200);
    for (const [i, company] of companies.entries()) {
      expect(seen.results[`q${i}`].result[0].id, company.name).toBe(company.uri);
    }
    expect(seen.page1).toHaveLength(10);
    expect(seen.page2.length).toBeGreaterThan(0);
    expect(seen.page2.some((id: string) => seen.page1.includes(id))).toBe(false);
    expect(seen.suggestedByJsonp).toEqual(seen.page2);
    expect(seen.keyedStatus).toBe(200);
    expect(Number(seen.keyedLimit)).toBeGreaterThan(Number(seen.anonymousLimit));
    expect(seen.withCredentials).toBe('blocked');

    // The preview in a frame of this page, as OpenRefine shows it.
    const previewUrl = seen.manifestByJsonp.preview.url.replace('{{id}}', encodeURIComponent(companies[0].uri));
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.width = '400';
      frame.height = '140';
      document.body.append(frame);
    }, previewUrl);
    const framed = page.frameLocator('iframe');
    await expect.poll(() => framed.locator('strong').textContent({ timeout: 5000 })).toBe(companies[0].name);

    expect(
      cookieSent.some((url) => url.includes('callback=')),
      'the JSONP script carried the cookie',
    ).toBe(true);
    // Every call from the other origin came with the cookie (same site) and was counted as anonymous,
    // but the keyed one (the key's user, on the free plan); the preflight was not counted.
    expect(await callsOn('free')).toBe(free + 1);
    expect(await callsOn('anonymous')).toBeGreaterThanOrEqual(anonymous + 8);
  });
});
