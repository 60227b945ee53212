import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, setCookies } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The cookie notice (ADR 0021): a real choice for the visitor-statistics and campaign cookies.
// Refusing stops them being set (and removes them); the choice is remembered; no script is needed.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const visit = (url: string, cookie?: string) =>
  t.app.inject({ url, headers: { 'user-agent': BROWSER, ...(cookie ? { cookie } : {}) } });
const named = (response: Parameters<typeof setCookies>[0], name: string) =>
  setCookies(response).find((c) => c.startsWith(`${name}=`));

describe('the cookie notice', () => {
  it('shows on every page until a choice, as a form that needs no script', async () => {
    const page = await visit('/de/companies/search/');
    expect(page.body).toContain('class="cookie-notice"');
    expect(page.body).toContain('action="/de/info/cookie-settings/"');
    expect(page.body).toContain('name="returnTo" value="/de/companies/search/"');
    expect((await visit('/de/companies/search/', 'cookie_consent=refused')).body).not.toContain(
      'class="cookie-notice"',
    );
  });

  it('refusing removes the statistics cookies, comes back to the page, and stops them being set', async () => {
    const res = await postForm(t.app, '/info/cookie-settings/', {
      choice: 'refused',
      returnTo: '/companies/search/?q=a',
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/companies/search/?q=a');
    expect(named(res, 'cookie_consent')).toMatch(/^cookie_consent=refused; Max-Age=31536000; Path=\//);
    expect(named(res, 'uid')).toMatch(/^uid=; Max-Age=0/);
    expect(named(res, 'utm')).toMatch(/^utm=; Max-Age=0/);
    const refused = await visit('/?utm_source=partner&utm_campaign=x', 'cookie_consent=refused');
    expect(refused.statusCode).toBe(200);
    expect(named(refused, 'uid')).toBeUndefined();
    expect(named(refused, 'utm')).toBeUndefined();
  });

  it('sets no statistics cookie and records nobody before a choice (consent first)', async () => {
    const before = await t.db.kysely
      .selectFrom('visitors')
      .select(t.db.kysely.fn.countAll().as('n'))
      .executeTakeFirst();
    const first = await visit('/companies/directories/jurisdictions/?utm_source=partner&partner=7');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('class="cookie-notice"');
    expect(named(first, 'uid')).toBeUndefined();
    expect(named(first, 'utm')).toBeUndefined();
    const again = await visit('/companies/search/', 'table_view=%7B%7D');
    expect(named(again, 'uid')).toBeUndefined();
    const after = await t.db.kysely.selectFrom('visitors').select(t.db.kysely.fn.countAll().as('n')).executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('accepting lets them be set, and the settings page says what was chosen', async () => {
    const res = await postForm(t.app, '/fr/info/cookie-settings/', {
      choice: 'accepted',
      returnTo: 'https://evil.example/',
    });
    expect(res.headers.location).toBe('/fr/info/cookie-settings/?done=saved');
    expect(named(res, 'uid')).toBeUndefined();
    const accepted = await visit('/?utm_source=partner', 'cookie_consent=accepted');
    expect(named(accepted, 'uid')).toMatch(/^uid=/);
    expect(named(accepted, 'utm')).toMatch(/^utm=/);
    const settings = await visit('/fr/info/cookie-settings/?done=saved', 'cookie_consent=accepted');
    expect(settings.body).toContain('Vous avez accepté les cookies de statistiques.');
    expect((await postForm(t.app, '/info/cookie-settings/', { choice: 'maybe' })).statusCode).toBe(400);
  });
});
