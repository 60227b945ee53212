import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../core/accounts/password-hash.ts';
import { freshIp, GOOD_PASSWORD, postForm } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { OFF_SITE_TARGETS, staysOnSite } from '../support/redirect-payloads.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Every redirect built from a request stays on the site (core/accounts/return-to.ts `sitePath`):
// the returnTo of the login page and its form, of adding to a list and of saving a table view,
// and the trailing-slash redirect of raw paths — with each target that once led elsewhere.

let t: TestApp;
let user: TestUser;
let passwordHash: string;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  user = await createSignedInUser(t.db, 'redirects');
  passwordHash = await hashPassword(GOOD_PASSWORD);
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);

function expectOnSite(location: unknown, target: string) {
  expect(typeof location, target).toBe('string');
  expect(staysOnSite(location as string), `${target} → ${location}`).toBe(true);
}

describe('returnTo', () => {
  it.each(OFF_SITE_TARGETS)('the login page sends a signed-in user only to the site: %j', async (target) => {
    const response = await get(`/account/login/?returnTo=${encodeURIComponent(target)}`, user);
    expect(response.statusCode).toBe(302);
    expectOnSite(response.headers.location, target);
  });

  it('the login page, signed in, still goes back to a page of the site', async () => {
    const response = await get(`/account/login/?returnTo=${encodeURIComponent('/companies/search/?q=bank')}`, user);
    expect(response.headers.location).toBe('/companies/search/?q=bank');
  });

  it.each(OFF_SITE_TARGETS)('the login form redirects only to the site: %j', async (target) => {
    // An account of its own and a fresh address: the sign-in limits stay out of the way.
    const account = await createSignedInUser(t.db, 'redirects-login', { passwordHash });
    const response = await postForm(
      t.app,
      '/account/login/',
      { email: account.email, password: GOOD_PASSWORD, returnTo: target },
      { ip: freshIp() },
    );
    expect(response.statusCode).toBe(302);
    expectOnSite(response.headers.location, target);
  });

  it.each(OFF_SITE_TARGETS)('adding to a list redirects only to the site: %j', async (target) => {
    const [company] = await someCompanies(t.db, 1);
    const response = await post(
      '/companies/lists/add/',
      { ids: String(company.id), list: 'new', returnTo: target },
      user,
    );
    expect(response.statusCode).toBe(302);
    expectOnSite(response.headers.location, target);
  });

  it.each(OFF_SITE_TARGETS)('saving a table view redirects only to the site: %j', async (target) => {
    const response = await post(
      '/dashboard/settings/table-views/',
      { section: 'vessels', style: 'style-1', returnTo: target },
      user,
    );
    expect(response.statusCode).toBe(302);
    expectOnSite(response.headers.location, target);
  });
});

describe('the trailing-slash redirect', () => {
  it('still adds the slash to a page path, keeping the query', async () => {
    const response = await get('/companies/search?q=bank');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/companies/search/?q=bank');
  });

  it.each(OFF_SITE_TARGETS.filter((target) => target.startsWith('/') && !target.includes('\t')))(
    'never leads off the site from the raw path %j',
    async (target) => {
      // Over a real connection: app.inject would resolve the path as a URL first.
      const { status, location } = await rawGet(target);
      if (location !== undefined) expectOnSite(location, target);
      else expect(status).toBe(404);
    },
  );
});

let origin: string | undefined;
/** A GET with the path sent as it is (no client-side normalisation). */
async function rawGet(path: string): Promise<{ status: number; location: string | undefined }> {
  if (!origin) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/`, { path, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}
