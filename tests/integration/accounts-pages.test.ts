import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshIp,
  GOOD_PASSWORD,
  linkPath,
  outbox,
  postForm,
  sessionCookieOf,
  setCookies,
  textOf,
  uniqueEmail,
  waitForEmail,
} from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The account pages: plain HTML forms posting to route actions, through app.inject.

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy on this machine (TRUST_PROXY=loopback), as with TLS ended by a local nginx.
  t = await buildTestApp({ pages: 'build', trustProxy: ['loopback'] });
});
afterAll(() => t?.close());

const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

/** The session's CSRF token, as the page header's sign-out form carries it. */
function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1];
}

async function signUpAndActivate(email: string, name = 'Ada Lovelace'): Promise<void> {
  const ip = freshIp();
  const signUp = await postForm(t.app, '/account/sign-up/', { name, email, password: GOOD_PASSWORD }, { ip });
  expect(signUp.statusCode).toBe(200);
  const [mail] = await outbox(t.db, email);
  expect((await get(linkPath(mail.text_body, /\/account\/activation\//))).statusCode).toBe(302);
}

async function signInCookie(email: string, password = GOOD_PASSWORD): Promise<string> {
  const response = await postForm(t.app, '/account/login/', { email, password }, { ip: freshIp() });
  expect(response.statusCode).toBe(302);
  return sessionCookieOf(response);
}

describe('sign-up → activation → sign-in → sign-out', () => {
  it('works end to end with the outbox link, sets a safe cookie and revokes it on sign-out', async () => {
    const email = uniqueEmail('journey');
    const form = await get('/account/sign-up/');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(form.headers['cache-control']).toBe('no-store');

    const ip = freshIp();
    const signUp = await postForm(
      t.app,
      '/account/sign-up/',
      { name: ' Ada  Lovelace ', email: `  ${email.toUpperCase()} `, password: GOOD_PASSWORD },
      { ip },
    );
    expect(signUp.statusCode).toBe(200);
    expect(textOf(signUp.body)).toContain('Check your email');

    // The address is stored normalised; the password only as an scrypt hash.
    const user = await t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.name).toBe('Ada Lovelace');
    expect(user.activated_at).toBeNull();
    expect(user.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(user.password_hash).not.toContain(GOOD_PASSWORD);

    const mails = await outbox(t.db, email);
    expect(mails.map((m) => m.kind)).toEqual(['activation']);
    expect(mails[0].subject).toBe('Activate your Registra account');
    expect(mails[0].html_body).toContain('href="http://localhost:3000/account/activation/');
    const activation = linkPath(mails[0].text_body, /\/account\/activation\//);
    // Only the code's hash is stored.
    const code = activation.split('/')[3];
    const codes = await t.db.kysely.selectFrom('account_codes').selectAll().where('user_id', '=', user.id).execute();
    expect(codes).toHaveLength(1);
    expect(codes[0].code_hash).not.toBe(code);
    expect(codes[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(codes[0].expires_at.getTime() - codes[0].created_at.getTime()).toBe(24 * 3600 * 1000);

    // Not activated yet: sign-in is refused (and a new link is sent).
    const early = await postForm(t.app, '/account/login/', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    expect(early.statusCode).toBe(403);
    expect(textOf(early.body)).toContain('This account is not activated yet');

    // The link activates, signs this browser in and lands on the dashboard (no page to return to).
    const activated = await get(activation);
    expect(activated.statusCode).toBe(302);
    expect(activated.headers.location).toBe('/dashboard/');
    expect(setCookies(activated)[0]).toMatch(
      /^token=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect((await get('/api/profiles', sessionCookieOf(activated))).statusCode).toBe(200);
    // Opened again (a mail scanner first, say), it says so and signs nobody in.
    const again = await get(activation);
    expect(again.statusCode).toBe(200);
    expect(textOf(again.body)).toContain('Your account is already active');
    expect(again.body).not.toContain('rel="canonical"');
    expect(again.body).not.toContain('og:title');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(setCookies(again)).toEqual([]);

    const signIn = await postForm(
      t.app,
      '/account/login/',
      { email: email.toUpperCase(), password: GOOD_PASSWORD, returnTo: '/companies/search/?q=bank' },
      { ip: freshIp() },
    );
    expect(signIn.statusCode).toBe(302);
    expect(signIn.headers.location).toBe('/companies/search/?q=bank');
    const [cookie] = setCookies(signIn);
    expect(cookie).toMatch(/^token=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain('; Path=/');
    expect(cookie).toContain('; Max-Age=2592000');
    expect(cookie).not.toContain('Secure');
    const session = sessionCookieOf(signIn);
    // The database keeps the token's hash, never the token.
    const token = session.slice('token='.length);
    // Two sessions: the activation link's and this sign-in's (the newer).
    const stored = await t.db.kysely
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .execute();
    expect(stored).toHaveLength(2);
    expect(stored[0].id).not.toBe(token);
    expect(stored[0].id).toMatch(/^[0-9a-f]{64}$/);

    const profile = await get('/api/profiles', session);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user).toMatchObject({ id: Number(user.id), email, name: 'Ada Lovelace', language: 'en' });

    // Signed in: the header shows the name and a sign-out button; the page is private.
    const home = await get('/', session);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<a class="account-name" href="/dashboard/">Ada Lovelace</a>');
    expect(textOf(home.body)).toContain('Sign out');
    expect(home.headers['cache-control']).toBe('private, no-store');
    // Signed-in pages stay signed in on the account pages too.
    expect((await get('/account/login/', session)).statusCode).toBe(302);

    const signOut = await postForm(t.app, '/account/sign-out/', { _csrf: csrfIn(home.body) }, { cookie: session });
    expect(signOut.statusCode).toBe(302);
    expect(signOut.headers.location).toBe('/');
    expect(setCookies(signOut)[0]).toMatch(/^token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    const revoked = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('id', '=', stored[0].id)
      .execute();
    expect(revoked[0].revoked_at).not.toBeNull();
    // The old cookie no longer signs anybody in.
    expect((await get('/api/profiles', session)).statusCode).toBe(401);
    const after = await get('/', session);
    expect(after.body).not.toContain('account-name');
    expect(textOf(after.body)).toContain('Sign in');
  });

  it('sets the Secure flag behind an HTTPS proxy', async () => {
    const email = uniqueEmail('secure');
    await signUpAndActivate(email);
    const signIn = await postForm(
      t.app,
      '/account/login/',
      { email, password: GOOD_PASSWORD },
      // From the trusted proxy's own address (the default of app.inject).
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(signIn.statusCode).toBe(302);
    expect(setCookies(signIn)[0]).toContain('; Secure');
  });

  it('answers a wrong password and an unknown email alike, keeping the email and never the password', async () => {
    const email = uniqueEmail('wrong');
    await signUpAndActivate(email);
    const wrong = await postForm(
      t.app,
      '/account/login/',
      { email, password: 'not the password at all' },
      { ip: freshIp() },
    );
    const unknown = await postForm(
      t.app,
      '/account/login/',
      { email: uniqueEmail('nobody'), password: 'not the password at all' },
      { ip: freshIp() },
    );
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(textOf(wrong.body)).toContain('The email or the password is wrong.');
    expect(textOf(unknown.body)).toContain('The email or the password is wrong.');
    expect(wrong.body).toContain(`value="${email}"`);
    expect(wrong.body).not.toContain('not the password at all');
    expect(setCookies(wrong)).toEqual([]);
  });

  it('never redirects off the site after sign-in', async () => {
    const email = uniqueEmail('redirect');
    await signUpAndActivate(email);
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/account/sign-out/']) {
      const response = await postForm(
        t.app,
        '/account/login/',
        { email, password: GOOD_PASSWORD, returnTo },
        { ip: freshIp() },
      );
      expect(response.statusCode, returnTo).toBe(302);
      expect(response.headers.location, returnTo).toBe('/');
    }
    const german = await postForm(t.app, '/de/account/login/', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    expect(german.headers.location).toBe('/de/');
  });

  it('shows translated field problems and keeps what was typed (never the password)', async () => {
    const response = await postForm(
      t.app,
      '/de/account/sign-up/',
      { name: 'Grace Hopper', email: 'grace@@example', password: 'short' },
      { ip: freshIp() },
    );
    expect(response.statusCode).toBe(400);
    const text = textOf(response.body);
    expect(text).toContain('Bitte korrigieren Sie die markierten Felder.');
    expect(text).toContain('Geben Sie eine gültige E-Mail-Adresse ein');
    expect(text).toContain('Verwenden Sie mindestens 10 Zeichen.');
    expect(response.body).toContain('value="Grace Hopper"');
    expect(response.body).toContain('value="grace@@example"');
    expect(response.body).not.toContain('value="short"');
    expect(response.body).toContain('aria-invalid="true"');

    const common = await postForm(
      t.app,
      '/fr/account/sign-up/',
      { name: 'Marie', email: uniqueEmail('common'), password: 'password1234' },
      { ip: freshIp() },
    );
    expect(common.statusCode).toBe(400);
    expect(textOf(common.body)).toContain('C’est l’un des mots de passe les plus courants');
  });

  it('gives an existing email the same answer, and tells its owner', async () => {
    const email = uniqueEmail('existing');
    await signUpAndActivate(email, 'First Owner');
    const fresh = uniqueEmail('fresh');
    const [forExisting, forFresh] = [
      await postForm(
        t.app,
        '/account/sign-up/',
        { name: 'Intruder', email, password: GOOD_PASSWORD },
        { ip: freshIp() },
      ),
      await postForm(
        t.app,
        '/account/sign-up/',
        { name: 'Intruder', email: fresh, password: GOOD_PASSWORD },
        { ip: freshIp() },
      ),
    ];
    expect(forExisting.statusCode).toBe(forFresh.statusCode);
    expect(forExisting.body.replaceAll(email, 'X')).toBe(forFresh.body.replaceAll(fresh, 'X'));
    const mails = await outbox(t.db, email);
    expect(mails.map((m) => m.kind)).toEqual(['activation', 'sign_up_attempt']);
    expect(mails[1].text_body).toContain('Hello First Owner,');
    expect(mails[1].text_body).toContain('http://localhost:3000/account/password/recovery/');
    // The account is unchanged.
    const owner = await t.db.kysely
      .selectFrom('users')
      .select('name')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(owner.name).toBe('First Owner');
  });

  it('sends emails in the language of the page the user signed up on', async () => {
    const email = uniqueEmail('deutsch');
    await postForm(t.app, '/de/account/sign-up/', { name: 'Karl', email, password: GOOD_PASSWORD }, { ip: freshIp() });
    const [mail] = await outbox(t.db, email);
    expect(mail.subject).toBe('Aktivieren Sie Ihr Registra-Konto');
    expect(mail.text_body).toContain('Hallo Karl,');
    expect(mail.text_body).toContain('http://localhost:3000/de/account/activation/');
  });
});

describe('"Create an account" from the sign-in gate', () => {
  const pending = '/companies/search/?q=bank#pending=save-search';

  it('carries the pending action through sign-up and the activation link, which signs in and lands on it', async () => {
    // The gate's "Create an account" and the sign-in page's "Create one" both carry the page to return to.
    const search = await get('/companies/search/?q=bank');
    expect(search.body).toMatch(
      new RegExp(
        `<a href="/account/sign-up/\\?returnTo=${encodeURIComponent('/companies/search/?q=bank').replace(/[?]/g, '\\?')}" data-gate-return="">`,
      ),
    );
    const login = await get(`/account/login/?returnTo=${encodeURIComponent(pending)}`);
    expect(login.body).toContain(`href="/account/sign-up/?returnTo=${encodeURIComponent(pending)}"`);
    const form = await get(`/account/sign-up/?returnTo=${encodeURIComponent(pending)}`);
    expect(form.body).toContain(`<input type="hidden" name="returnTo" value="${pending}"/>`);
    expect(form.body).toContain(`href="/account/login/?returnTo=${encodeURIComponent(pending)}"`);

    const email = uniqueEmail('gate');
    const signUp = await postForm(
      t.app,
      '/account/sign-up/',
      { name: 'Gate Keeper', email, password: GOOD_PASSWORD, returnTo: pending },
      { ip: freshIp() },
    );
    expect(signUp.statusCode).toBe(200);
    const [mail] = await outbox(t.db, email);
    const link = linkPath(mail.text_body, /\/account\/activation\//);
    expect(link).toMatch(
      new RegExp(`^/account/activation/[A-Za-z0-9_-]{43}/\\?returnTo=${encodeURIComponent(pending)}$`),
    );

    const activated = await get(link);
    expect(activated.statusCode).toBe(302);
    expect(activated.headers.location).toBe(pending);
    const session = sessionCookieOf(activated);
    const profile = await get('/api/profiles', session);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user).toMatchObject({ email, name: 'Gate Keeper' });
    // Back on the page, signed in: the pending form is there for the island to fill.
    const back = await get('/companies/search/?q=bank', session);
    expect(back.body).toContain('data-pending="save-search"');
  });

  it('keeps the carried path on the site, in the form and in a tampered link', async () => {
    const email = uniqueEmail('gate-evil');
    await postForm(
      t.app,
      '/account/sign-up/',
      { name: 'Gate Keeper', email, password: GOOD_PASSWORD, returnTo: '//evil.example/x' },
      { ip: freshIp() },
    );
    const [mail] = await outbox(t.db, email);
    const link = linkPath(mail.text_body, /\/account\/activation\//);
    expect(link).not.toContain('returnTo');
    const tampered = await get(`${link}?returnTo=${encodeURIComponent('https://evil.example/')}`);
    expect(tampered.statusCode).toBe(302);
    expect(tampered.headers.location).toBe('/dashboard/');
  });

  it('sends the pending action with a new activation link when an account not yet active signs in', async () => {
    const email = uniqueEmail('gate-late');
    await postForm(t.app, '/de/account/sign-up/', { name: 'Spät', email, password: GOOD_PASSWORD }, { ip: freshIp() });
    const early = await postForm(
      t.app,
      '/de/account/login/',
      { email, password: GOOD_PASSWORD, returnTo: '/de/companies/lists/' },
      { ip: freshIp() },
    );
    expect(early.statusCode).toBe(403);
    const mails = (await outbox(t.db, email)).filter((m) => m.kind === 'activation');
    expect(mails).toHaveLength(2);
    const link = linkPath(mails[1].text_body, /\/account\/activation\//);
    const activated = await get(link);
    expect(activated.headers.location).toBe('/de/companies/lists/');
    // The first link was replaced by the activation: it signs nobody in.
    const first = await get(linkPath(mails[0].text_body, /\/account\/activation\//));
    expect(first.statusCode).toBe(200);
    expect(setCookies(first)).toEqual([]);
  });
});

describe('password recovery', () => {
  it('emails a single-use link that sets a new password and signs every session out', async () => {
    const email = uniqueEmail('recover');
    await signUpAndActivate(email);
    const before = await signInCookie(email);
    expect((await get('/api/profiles', before)).statusCode).toBe(200);

    const form = await get('/account/password/recovery/');
    expect(form.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    const unknownEmail = uniqueEmail('unknown');
    const known = await postForm(t.app, '/account/password/recovery/', { email }, { ip: freshIp() });
    const unknown = await postForm(t.app, '/account/password/recovery/', { email: unknownEmail }, { ip: freshIp() });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body.replaceAll(email, 'X')).toBe(unknown.body.replaceAll(unknownEmail, 'X'));

    const mail = await waitForEmail(t.db, email, 'password_recovery');
    const link = linkPath(mail.text_body, /\/account\/password\/recovery\/./);
    expect(await outbox(t.db, unknownEmail)).toEqual([]);
    const page = await get(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="password"');
    expect(page.body).not.toContain('rel="canonical"');
    expect(page.body).not.toContain('og:');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(page.headers['referrer-policy']).toBe('same-origin');

    // A weak password is refused without spending the code.
    const weak = await postForm(t.app, link, { password: '1234567890' });
    expect(weak.statusCode).toBe(400);
    expect(textOf(weak.body)).toContain('one of the most common passwords');

    const newPassword = 'a brand new passphrase 7';
    const reset = await postForm(t.app, link, { password: newPassword });
    expect(reset.statusCode).toBe(302);
    expect(reset.headers.location).toBe('/account/login/?done=password');
    expect(textOf((await get('/account/login/?done=password')).body)).toContain('Your password has been changed.');

    // Every session was revoked; the old password is gone; the new one works.
    expect((await get('/api/profiles', before)).statusCode).toBe(401);
    const old = await postForm(t.app, '/account/login/', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    expect(old.statusCode).toBe(401);
    await signInCookie(email, newPassword);
    expect((await outbox(t.db, email)).at(-1)!.kind).toBe('password_changed');

    // The link works once.
    const reused = await postForm(t.app, link, { password: 'yet another passphrase 8' });
    expect(reused.statusCode).toBe(400);
    expect(textOf(reused.body)).toContain('This link has expired or has already been used.');
    expect(textOf((await get(link)).body)).toContain('This link has expired or has already been used.');
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail('expired');
    await signUpAndActivate(email);
    await postForm(t.app, '/account/password/recovery/', { email }, { ip: freshIp() });
    const link = linkPath(
      (await waitForEmail(t.db, email, 'password_recovery')).text_body,
      /\/account\/password\/recovery\/./,
    );
    const user = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const code = await t.db.kysely
      .selectFrom('account_codes')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'password_recovery')
      .executeTakeFirstOrThrow();
    expect(code.expires_at.getTime() - code.created_at.getTime()).toBe(3600 * 1000);
    await t.db.kysely
      .updateTable('account_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'password_recovery')
      .execute();
    expect(textOf((await get(link)).body)).toContain('This link has expired or has already been used.');
    const refused = await postForm(t.app, link, { password: 'a brand new passphrase 9' });
    expect(refused.statusCode).toBe(400);
    await signInCookie(email);
  });

  it('refuses a made-up link', async () => {
    const page = await get(`/account/password/recovery/${'x'.repeat(43)}/`);
    expect(page.statusCode).toBe(200);
    expect(textOf(page.body)).toContain('This link has expired or has already been used.');
    expect(textOf((await get('/account/activation/nonsense/')).body)).toContain('This activation link is not valid');
  });
});

describe('CSRF on page forms', () => {
  it('refuses a signed-in form post without the session token (403), and accepts it with the token', async () => {
    const email = uniqueEmail('csrf');
    await signUpAndActivate(email);
    const session = await signInCookie(email);
    const missing = await postForm(t.app, '/account/sign-out/', {}, { cookie: session });
    expect(missing.statusCode).toBe(403);
    expect(textOf(missing.body)).toContain('This form could not be sent');
    const wrong = await postForm(t.app, '/account/sign-out/', { _csrf: 'x'.repeat(43) }, { cookie: session });
    expect(wrong.statusCode).toBe(403);
    // Still signed in: nothing happened.
    expect((await get('/api/profiles', session)).statusCode).toBe(200);
    const home = await get('/', session);
    const ok = await postForm(t.app, '/account/sign-out/', { _csrf: csrfIn(home.body) }, { cookie: session });
    expect(ok.statusCode).toBe(302);
  });

  it('refuses a form posted from another site, even by a guest', async () => {
    const crossSite = await postForm(
      t.app,
      '/account/login/',
      { email: 'a@example.com', password: GOOD_PASSWORD },
      { ip: freshIp(), headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(textOf(crossSite.body)).toContain('This form could not be sent');
    const foreignOrigin = await postForm(
      t.app,
      '/account/sign-up/',
      { name: 'X', email: 'a@example.com', password: GOOD_PASSWORD },
      { ip: freshIp(), headers: { origin: 'https://evil.example' } },
    );
    expect(foreignOrigin.statusCode).toBe(403);
    const sameOrigin = await postForm(
      t.app,
      '/account/login/',
      { email: uniqueEmail('same'), password: GOOD_PASSWORD },
      { ip: freshIp(), headers: { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' } },
    );
    expect(sameOrigin.statusCode).toBe(401);
  });
});

describe('rate limits on the forms', () => {
  it('stops sign-ups from one address with a translated "try again in N minutes"', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 11; i++) {
      const response = await postForm(
        t.app,
        '/fr/account/sign-up/',
        { name: 'Robot', email: uniqueEmail('flood'), password: GOOD_PASSWORD },
        { ip },
      );
      statuses.push(response.statusCode);
      last = textOf(response.body);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect(last).toMatch(/Trop de tentatives\. Réessayez dans \d+ minutes?\./);
  });

  it('stops password guessing on one account from many addresses', async () => {
    const email = uniqueEmail('guess');
    await signUpAndActivate(email);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await postForm(
        t.app,
        '/account/login/',
        { email, password: `guess number ${i}` },
        { ip: freshIp() },
      );
      statuses.push(response.statusCode);
      if (i === 10) expect(textOf(response.body)).toMatch(/Too many attempts\. Try again in \d+ minutes?\./);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});

describe('guests and the header', () => {
  it('shows guests a sign-in link back to the page; without a page cache nobody keeps it', async () => {
    const page = await get('/companies/directories/jurisdictions/?x=1');
    expect(page.body).toContain(
      `href="/account/login/?returnTo=${encodeURIComponent('/companies/directories/jurisdictions/?x=1')}"`,
    );
    // This app has no page cache: nothing may keep the page (with one, guests' pages are public
    // with Vary: Cookie — tests/integration/page-cache.test.ts; ADR 0030).
    expect(page.headers['cache-control']).toBe('private, no-store');
    const login = await get('/de/account/login/');
    expect(textOf(login.body)).toContain('Anmelden');
    expect(login.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(login.body).not.toContain('returnTo=');
  });

  it('sends a GET of the sign-out address home', async () => {
    const response = await get('/account/sign-out/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });
});
