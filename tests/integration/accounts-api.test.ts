import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePassword } from '../../core/accounts/change-password.ts';
import { digest } from '../../core/accounts/secret-tokens.ts';
import { createSession } from '../../core/accounts/sessions.ts';
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import {
  freshIp,
  GOOD_PASSWORD,
  linkPath,
  outbox,
  postJson,
  sessionCookieOf,
  setCookies,
  uniqueEmail,
  waitForEmail,
} from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The users API (spec §7 "Users") through app.inject: JSON, the token cookie, CSRF header, 401/403.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: false });
});
afterAll(() => t?.close());

const silent = { info: () => {}, error: () => {} };
const translate = (lang: 'en' | 'de' | 'fr') => {
  const { t: tr } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
};

type Signed = { cookie: string; csrf: string; id: number; email: string };

/** Signs up through the API, activates from the outbox link, signs in: a user with cookie and CSRF token. */
async function newUser(label: string, name = 'API User'): Promise<Signed> {
  const email = uniqueEmail(label);
  const created = await postJson(
    t.app,
    'POST',
    '/api/users',
    { email, password: GOOD_PASSWORD, name },
    { ip: freshIp() },
  );
  expect(created.statusCode).toBe(202);
  const [mail] = await outbox(t.db, email);
  const code = linkPath(mail.text_body, /\/account\/activation\//).split('/')[3];
  // The API has no activation route: the emailed link is a page. Redeem it as the page does.
  const { activateAccount } = await import('../../core/accounts/activate-account.ts');
  expect(await activateAccount(t.db, code)).toBe('activated');
  const signIn = await postJson(
    t.app,
    'POST',
    '/api/authentication',
    { email, password: GOOD_PASSWORD },
    { ip: freshIp() },
  );
  expect(signIn.statusCode).toBe(200);
  const body = signIn.json();
  return { cookie: sessionCookieOf(signIn), csrf: body.csrf_token, id: body.user.id, email };
}

describe('POST /api/users and POST /api/authentication', () => {
  it('signs up, refuses sign-in until activated, then signs in with a cookie and a CSRF token', async () => {
    const email = uniqueEmail('api');
    const created = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: email.toUpperCase(), password: GOOD_PASSWORD, name: 'Api Person', language: 'fr' },
      { ip: freshIp() },
    );
    expect(created.statusCode).toBe(202);
    expect(created.json()).toEqual({ message: 'Check your email: we have sent a link to activate your account.' });
    const [mail] = await outbox(t.db, email);
    expect(mail.subject).toBe('Activez votre compte Registra');

    const early = await postJson(
      t.app,
      'POST',
      '/api/authentication',
      { email, password: GOOD_PASSWORD },
      { ip: freshIp() },
    );
    expect(early.statusCode).toBe(403);
    expect(early.json().error.details.reason).toBe('not_activated');

    const user = await newUser('api2', 'Second');
    const profile = await t.app.inject({ url: '/api/profiles', headers: { cookie: user.cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      user: expect.objectContaining({ id: user.id, email: user.email, name: 'Second', language: 'en' }),
      csrf_token: user.csrf,
    });
  });

  it('answers an existing email exactly like a new one, and the wrong password like an unknown email', async () => {
    const user = await newUser('dupe');
    const again = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: user.email, password: 'another good passphrase', name: 'Someone' },
      { ip: freshIp() },
    );
    const fresh = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: uniqueEmail('fresh'), password: 'another good passphrase', name: 'Someone' },
      { ip: freshIp() },
    );
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(again.body).toBe(fresh.body);
    expect((await outbox(t.db, user.email)).map((m) => m.kind)).toEqual(['activation', 'sign_up_attempt']);

    const wrong = await postJson(
      t.app,
      'POST',
      '/api/authentication',
      { email: user.email, password: 'wrong wrong wrong' },
      { ip: freshIp() },
    );
    const unknown = await postJson(
      t.app,
      'POST',
      '/api/authentication',
      { email: uniqueEmail('ghost'), password: 'wrong wrong wrong' },
      { ip: freshIp() },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(setCookies(wrong)).toEqual([]);
  });

  it('names the bad field of a sign-up', async () => {
    const response = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: 'not-an-email', password: 'qwertyuiop', name: '' },
      { ip: freshIp() },
    );
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('bad_request');
    expect(error.details.fields).toEqual({ name: 'required', email: 'invalid', password: 'common' });
    const unknownField = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: 'a@example.com', password: GOOD_PASSWORD, name: 'A', admin: true },
      { ip: freshIp() },
    );
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error.message).toContain('admin');
  });
});

describe('who may call what', () => {
  it('gives a guest 401 on the profile and on profile changes', async () => {
    expect((await t.app.inject({ url: '/api/profiles' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/profiles', headers: { cookie: 'token=made-up-token-value-0123456789abcdef' } }))
        .statusCode,
    ).toBe(401);
    const patch = await postJson(t.app, 'PATCH', '/api/users/1', { name: 'X' });
    expect(patch.statusCode).toBe(401);
    expect(patch.json().error.code).toBe('unauthorized');
  });

  it('lets a user change only their own profile: another user id is a 403', async () => {
    const alice = await newUser('alice', 'Alice');
    const bob = await newUser('bob', 'Bob');
    const own = await postJson(
      t.app,
      'PATCH',
      `/api/users/${alice.id}`,
      { name: '  Alice  Liddell ', language: 'de' },
      alice,
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().user).toMatchObject({ id: alice.id, name: 'Alice Liddell', language: 'de' });
    const other = await postJson(t.app, 'PATCH', `/api/users/${bob.id}`, { name: 'Hacked' }, alice);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('forbidden');
    const bobNow = await t.app.inject({ url: '/api/profiles', headers: { cookie: bob.cookie } });
    expect(bobNow.json().user.name).toBe('Bob');
    const bad = await postJson(t.app, 'PATCH', `/api/users/${alice.id}`, { language: 'es' }, alice);
    expect(bad.statusCode).toBe(400);
  });
});

describe('CSRF on JSON calls', () => {
  it('refuses a cookie-signed mutation without the x-csrf-token header, or with a wrong one', async () => {
    const user = await newUser('csrf');
    const missing = await postJson(t.app, 'PATCH', `/api/users/${user.id}`, { name: 'X' }, { cookie: user.cookie });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.message).toContain('x-csrf-token');
    const wrong = await postJson(
      t.app,
      'PATCH',
      `/api/users/${user.id}`,
      { name: 'X' },
      { cookie: user.cookie, csrf: 'nope' },
    );
    expect(wrong.statusCode).toBe(403);
    const signOutMissing = await postJson(t.app, 'DELETE', '/api/authentication', undefined, { cookie: user.cookie });
    expect(signOutMissing.statusCode).toBe(403);
    const ok = await postJson(t.app, 'PATCH', `/api/users/${user.id}`, { name: 'Y' }, user);
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a JSON post from another site', async () => {
    const response = await postJson(
      t.app,
      'POST',
      '/api/authentication',
      { email: 'a@example.com', password: GOOD_PASSWORD },
      { ip: freshIp(), headers: { origin: 'https://evil.example' } },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.details.reason).toBe('cross_site');
    const fetchSite = await postJson(
      t.app,
      'POST',
      '/api/users',
      { email: 'a@example.com', password: GOOD_PASSWORD, name: 'A' },
      { ip: freshIp(), headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(fetchSite.statusCode).toBe(403);
  });

  it('signs out with DELETE /api/authentication, which revokes the session', async () => {
    const user = await newUser('out');
    const response = await postJson(t.app, 'DELETE', '/api/authentication', undefined, user);
    expect(response.statusCode).toBe(200);
    expect(setCookies(response)[0]).toContain('token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    expect((await t.app.inject({ url: '/api/profiles', headers: { cookie: user.cookie } })).statusCode).toBe(401);
  });
});

describe('rate limits on the API', () => {
  it('answers 429 with Retry-After and a translated message once an address tries too often', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    let last = await postJson(t.app, 'POST', '/api/password_recovery/recovery', { email: uniqueEmail('r0') }, { ip });
    statuses.push(last.statusCode);
    for (let i = 1; i < 11; i++) {
      last = await postJson(
        t.app,
        'POST',
        '/api/password_recovery/recovery',
        { email: uniqueEmail(`r${i}`) },
        { ip, headers: { 'accept-language': 'de-DE,de;q=0.9' } },
      );
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(last.statusCode).toBe(429);
    const { error } = last.json();
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/^Zu viele Versuche\. Versuchen Sie es in \d+ Minuten? erneut\.$/);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // At most the hour, plus the share one attempt over the limit adds: the sliding estimate spreads
    // this hour's 11 attempts over it, so early in an hour they fade a little past its length.
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(3600 + 3600 / 10);
  });

  it('limits recovery emails per account whatever the address, with the English message by default', async () => {
    const user = await newUser('many');
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 4; i++) {
      const response = await postJson(
        t.app,
        'POST',
        '/api/password_recovery/recovery',
        { email: user.email },
        { ip: freshIp() },
      );
      statuses.push(response.statusCode);
      last = response.json().error?.message ?? '';
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(last).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    await waitForEmail(t.db, user.email, 'password_recovery', 3);
    expect((await outbox(t.db, user.email)).filter((m) => m.kind === 'password_recovery')).toHaveLength(3);
  });

  it('answers recovery for unknown and known addresses alike', async () => {
    const user = await newUser('same');
    const known = await postJson(
      t.app,
      'POST',
      '/api/password_recovery/recovery',
      { email: user.email },
      { ip: freshIp() },
    );
    const unknown = await postJson(
      t.app,
      'POST',
      '/api/password_recovery/recovery',
      { email: uniqueEmail('nobody') },
      { ip: freshIp() },
    );
    expect(known.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
  });
});

describe('change password (core)', () => {
  it('needs the current password, signs the other sessions out and keeps this one', async () => {
    const user = await newUser('change');
    const other = await newUser('change-other');
    const mailer = createMailer({ db: t.db, settings: { from: 'test@example.com' }, log: silent, translate });
    const deps = { db: t.db, mailer, siteUrl: 'http://localhost:3000' };
    const second = await createSession(t.db, user.id, { ip: '', userAgent: 'second device' });
    const current = { id: digest(user.cookie.slice('token='.length)) };
    await expect(
      changePassword(deps, {
        userId: user.id,
        sessionId: current.id,
        currentPassword: 'not it at all',
        newPassword: 'a new and fine passphrase',
      }),
    ).rejects.toMatchObject({ details: { fields: { currentPassword: 'wrong' } } });
    const { revokedSessions } = await changePassword(deps, {
      userId: user.id,
      sessionId: current.id,
      currentPassword: GOOD_PASSWORD,
      newPassword: 'a new and fine passphrase',
    });
    expect(revokedSessions).toBe(1);
    expect((await t.app.inject({ url: '/api/profiles', headers: { cookie: user.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/profiles', headers: { cookie: `token=${second}` } })).statusCode).toBe(401);
    // Another user's sessions are untouched.
    expect((await t.app.inject({ url: '/api/profiles', headers: { cookie: other.cookie } })).statusCode).toBe(200);
    expect((await outbox(t.db, user.email)).at(-1)!.kind).toBe('password_changed');
    await mailer.close();
  });
});

describe('email over SMTP', () => {
  it('delivers from the outbox with nodemailer, then blanks the bodies that held the link', async () => {
    const sent: unknown[] = [];
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sendMail = transport.sendMail.bind(transport);
    transport.sendMail = ((message: Parameters<typeof sendMail>[0]) => {
      sent.push(message);
      return sendMail(message);
    }) as typeof transport.sendMail;
    const mailer = createMailer({
      db: t.db,
      settings: { from: 'Registra <no-reply@example.com>' },
      log: silent,
      translate,
      transport,
      drainIntervalMs: 0,
    });
    expect(mailer.mode).toBe('smtp');
    const to = uniqueEmail('smtp');
    await mailer.sendAccountEmail('password_recovery', {
      to,
      name: 'Mail Reader',
      lang: 'fr',
      link: 'http://localhost:3000/fr/account/password/recovery/abc/',
    });
    await mailer.drain();
    const [row] = await outbox(t.db, to);
    expect(row.sent_at).not.toBeNull();
    expect(row.subject).toBe('Choisissez un nouveau mot de passe Registra');
    expect(row.text_body).toBe('');
    expect(row.html_body).toBe('');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to, from: 'Registra <no-reply@example.com>' });
    expect((sent[0] as { text: string }).text).toContain('Bonjour Mail Reader,');
    // Nothing is sent twice.
    expect(await mailer.drain()).toBe(0);
    await mailer.close();
  });
});
