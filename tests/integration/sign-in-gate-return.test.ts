// The sign-in gate's pending action through every way of signing in, as the server carries it
// (docs/decisions/0030-sign-in-finishes-and-private-caching.md): the `signed_in` mark only on a
// landing that carries `#pending=`, the return address through password recovery and reset, hostile
// return addresses dropped; and the balance's resource and header.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../core/accounts/password-hash.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import {
  freshIp,
  GOOD_PASSWORD,
  linkPath,
  postForm,
  sessionCookieOf,
  setCookies,
  uniqueEmail,
  waitForEmail,
} from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

async function makeUser(name: string): Promise<{ email: string; id: number }> {
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '.'));
  const row = await t.db.kysely
    .insertInto('users')
    .values({ email, name, password_hash: await hashPassword(GOOD_PASSWORD), activated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { email, id: Number(row.id) };
}

const PENDING = '/companies/directories/jurisdictions/#pending=track';

describe('the landing of a sign-in', () => {
  it('marks a landing that carries a pending action, for the gate island only, and no other', async () => {
    const { email } = await makeUser('Mark Landing');
    const withPending = await postForm(
      t.app,
      '/account/login/',
      { email, password: GOOD_PASSWORD, returnTo: PENDING },
      { ip: freshIp() },
    );
    expect(withPending.statusCode).toBe(302);
    expect(withPending.headers.location).toBe(PENDING);
    const mark = setCookies(withPending).find((c) => c.startsWith('signed_in='));
    expect(mark).toMatch(/^signed_in=1; Max-Age=120; Path=\/; SameSite=Lax$/);
    expect(withPending.headers['cache-control']).toBe('private, no-store');

    const plain = await postForm(
      t.app,
      '/account/login/',
      { email, password: GOOD_PASSWORD, returnTo: '/companies/directories/jurisdictions/' },
      { ip: freshIp() },
    );
    expect(plain.statusCode).toBe(302);
    expect(setCookies(plain).some((c) => c.startsWith('signed_in='))).toBe(false);
  });

  it('drops a return address to another site: lands home, with no mark', async () => {
    const { email } = await makeUser('Eve Elsewhere');
    for (const returnTo of ['//evil.example/#pending=buy-profile', 'https://evil.example/#pending=track']) {
      const response = await postForm(
        t.app,
        '/account/login/',
        { email, password: GOOD_PASSWORD, returnTo },
        { ip: freshIp() },
      );
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/');
      expect(setCookies(response).some((c) => c.startsWith('signed_in='))).toBe(false);
    }
  });
});

describe('password recovery with a pending action', () => {
  it('carries the return address through the recovery email and the reset to the sign-in, which lands there', async () => {
    const { email } = await makeUser('Rita Reset');
    const encoded = encodeURIComponent(PENDING);
    const login = await get(`/account/login/?returnTo=${encoded}`);
    expect(login.body).toContain(`href="/account/password/recovery/?returnTo=${encoded}"`);

    const recovery = await get(`/account/password/recovery/?returnTo=${encoded}`);
    expect(recovery.body).toContain(`name="returnTo" value="${PENDING}"`);
    const asked = await postForm(t.app, '/account/password/recovery/', { email, returnTo: PENDING }, { ip: freshIp() });
    expect(asked.statusCode).toBe(200);
    const mail = await waitForEmail(t.db, email, 'password_recovery');
    const link = linkPath(mail.text_body, /\/account\/password\/recovery\//);
    expect(link).toMatch(
      new RegExp(`^/account/password/recovery/[^/]+/\\?returnTo=${encoded.replace(/[%.]/g, '\\$&')}$`),
    );

    const form = await get(link);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`action="${link.replace(/&/g, '&amp;')}"`);
    const reset = await postForm(t.app, link, { password: 'a brand new passphrase 77' }, { ip: freshIp() });
    expect(reset.statusCode).toBe(302);
    expect(reset.headers.location).toBe(`/account/login/?returnTo=${encoded}&done=password`);

    const after = await get(reset.headers.location as string);
    expect(after.body).toContain(`name="returnTo" value="${PENDING}"`);
    const signIn = await postForm(
      t.app,
      '/account/login/',
      { email, password: 'a brand new passphrase 77', returnTo: PENDING },
      { ip: freshIp() },
    );
    expect(signIn.headers.location).toBe(PENDING);
    expect(setCookies(signIn).some((c) => c.startsWith('signed_in=1'))).toBe(true);
  });

  it('drops a hostile return address from the recovery link', async () => {
    const { email } = await makeUser('Hal Hostile');
    await postForm(
      t.app,
      '/account/password/recovery/',
      { email, returnTo: '//evil.example/#pending=buy-profile' },
      { ip: freshIp() },
    );
    const mail = await waitForEmail(t.db, email, 'password_recovery');
    expect(linkPath(mail.text_body, /\/account\/password\/recovery\//)).toMatch(
      /^\/account\/password\/recovery\/[^/?]+\/$/,
    );
  });
});

describe('the balance', () => {
  it('answers the signed-in user’s balance in the page’s language, never stored; a guest gets 401', async () => {
    const { email, id } = await makeUser('Bert Balance');
    await grantCredits(t.db, id, 3);
    const cookie = sessionCookieOf(
      await postForm(t.app, '/account/login/', { email, password: GOOD_PASSWORD }, { ip: freshIp() }),
    );
    const en = await get('/dashboard/balance/', cookie);
    expect(en.statusCode).toBe(200);
    expect(en.headers['cache-control']).toBe('private, no-store');
    expect(en.json()).toEqual({ balance: 3, texts: { header: '3 credits', dashboard: 'Your balance: 3 credits.' } });
    const de = await get('/de/dashboard/balance/', cookie);
    expect(de.json().texts.header).toBe('3 Credits');
    const fr = await get('/fr/dashboard/balance/', cookie);
    expect(fr.json().balance).toBe(3);
    const guest = await get('/dashboard/balance/');
    expect(guest.statusCode).toBe(401);
    expect(guest.headers['cache-control']).toBe('private, no-store');
    // A session that is not one is a guest.
    expect((await get('/dashboard/balance/', 'token=forged')).statusCode).toBe(401);

    // The header of every page marks the balance for the live island.
    const page = await get('/companies/directories/jurisdictions/', cookie);
    expect(page.body).toContain('data-balance="header"');
    expect(page.body).toContain('data-balance-url="/dashboard/balance/"');

    // The dashboard's balance is marked too.
    expect((await get('/dashboard/', cookie)).body).toMatch(/class="credit-balance" data-balance="dashboard"/);

    // A spend through the API says the balance after it: matching (1 credit) …
    const { csrf_token } = (await get('/api/profiles', cookie)).json() as { csrf_token: string };
    const match = await t.app.inject({
      method: 'POST',
      url: '/api/match',
      headers: { cookie, 'x-csrf-token': csrf_token },
      payload: { queries: [{ name: 'bank' }] },
    });
    expect(match.statusCode).toBe(200);
    expect(match.headers['registra-balance']).toBe(String(match.json().meta.balance));
    const afterMatch = match.json().meta.balance as number;
    expect(afterMatch).toBeLessThan(3);
    // … and an export's download.
    const download = await get('/api/export/companies?q=bank', cookie);
    if (download.statusCode === 200 && Number(download.headers['x-export-rows'] ?? 0) > 0) {
      expect(Number(download.headers['registra-balance'])).toBeLessThan(afterMatch);
    } else {
      throw new Error(`the export answered ${download.statusCode}: ${download.body.slice(0, 200)}`);
    }
  });
});

describe('a purchase through the API', () => {
  it('says the balance after it in Registra-Balance', async () => {
    const { email, id } = await makeUser('Paula Purchase');
    await grantCredits(t.db, id, 5);
    const cookie = sessionCookieOf(
      await postForm(t.app, '/account/login/', { email, password: GOOD_PASSWORD }, { ip: freshIp() }),
    );
    const { csrf_token } = (await get('/api/profiles', cookie)).json() as { csrf_token: string };
    const company = await t.db.kysely.selectFrom('legal_entities').select('id').limit(1).executeTakeFirstOrThrow();
    const bought = await t.app.inject({
      method: 'POST',
      url: `/api/purchases/users/${id}`,
      headers: { cookie, 'x-csrf-token': csrf_token },
      payload: { object_id: Number(company.id) },
    });
    expect(bought.statusCode).toBeLessThan(300);
    expect(bought.headers['registra-balance']).toBe(String(bought.json().balance));
    expect(bought.json().balance).toBeLessThan(5);
    // A record that spends nothing (a list) carries no balance.
    const list = await t.app.inject({
      method: 'POST',
      url: `/api/watchlists/users/${id}`,
      headers: { cookie, 'x-csrf-token': csrf_token },
      payload: { name: 'No spend' },
    });
    expect(list.statusCode).toBeLessThan(300);
    expect(list.headers['registra-balance']).toBeUndefined();
  });
});
