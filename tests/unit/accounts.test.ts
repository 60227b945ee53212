import { parseSetCookie } from 'cookie';
import { describe, expect, it } from 'vitest';
import { csrfVerdict } from '../../core/accounts/csrf.ts';
import { isEmail, normaliseEmail } from '../../core/accounts/email-address.ts';
import { CODE_LIFETIME_MS, codeExpiry, codeState, looksLikeCode } from '../../core/accounts/one-time-codes.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../core/accounts/password-hash.ts';
import { commonPasswords, passwordProblem } from '../../core/accounts/password-rules.ts';
import { RATE_LIMITS, rateLimitedError, rateVerdict, rateWindow } from '../../core/accounts/rate-limits.ts';
import { safeReturnTo, sitePath } from '../../core/accounts/return-to.ts';
import { csrfTokenFor, digest, randomToken } from '../../core/accounts/secret-tokens.ts';
import { clearedSessionCookie, sessionCookie } from '../../core/accounts/session-cookie.ts';
import { composeAccountEmail } from '../../core/email/account-emails.ts';
import { parseCookies, siteCookie } from '../../core/http/cookies.ts';
import { utmCookie, visitorCookie } from '../../core/visitors/visitors.ts';
import { OFF_SITE_TARGETS, staysOnSite } from '../support/redirect-payloads.ts';

describe('password rules', () => {
  it('needs 10 characters (counted as characters, not bytes) and at most 200', () => {
    expect(passwordProblem('')).toBe('required');
    expect(passwordProblem('a1b2c3d4e')).toBe('tooShort');
    expect(passwordProblem('äöüßéèêàçñ')).toBeNull();
    expect(passwordProblem('🙂🙂🙂🙂🙂🙂🙂🙂🙂')).toBe('tooShort');
    expect(passwordProblem('x'.repeat(201))).toBe('tooLong');
    expect(passwordProblem('x7'.repeat(100))).toBeNull();
  });

  it('refuses the common passwords of a list of tens of thousands, whatever their case', () => {
    expect(commonPasswords().size).toBeGreaterThan(10_000);
    for (const common of ['1234567890', 'qwertyuiop', 'password123', 'PASSWORD1234', 'Manchester']) {
      expect(passwordProblem(common), common).toBe('common');
    }
    expect(passwordProblem('correct horse battery staple')).toBeNull();
  });
});

describe('password hashing', () => {
  it('hashes with scrypt N=2^15 and a random salt, and verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('a long passphrase 1'), hashPassword('a long passphrase 1')]);
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('a long passphrase 1', a)).toBe(true);
    expect(await verifyPassword('a long passphrase 1', b)).toBe(true);
    expect(await verifyPassword('a long passphrase 2', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats the same text in either Unicode form as one password', async () => {
    const composed = 'Passwört 1234';
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
  });

  it('reads the cost from the hash, and refuses malformed or absurd ones', async () => {
    const cheap = await hashPassword('passphrase for a cheap hash', { logN: 10, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$10$8$1$')).toBe(true);
    expect(await verifyPassword('passphrase for a cheap hash', cheap)).toBe(true);
    for (const bad of [
      '',
      'bcrypt$x',
      'scrypt$15$8$1$salt',
      cheap.replace('$10$', '$30$'),
      cheap.replace('$8$', '$0$'),
    ]) {
      expect(await verifyPassword('passphrase for a cheap hash', bad), bad).toBe(false);
    }
  });

  it('has a dummy hash that nothing matches, for unknown accounts', async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^scrypt\$15\$/);
    expect(await verifyPassword('', dummy)).toBe(false);
    expect(await verifyPassword('password', dummy)).toBe(false);
  });
});

describe('one-time codes', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const row = (purpose: 'activation' | 'password_recovery', expiresAt: Date, usedAt: Date | null = null) => ({
    user_id: 1,
    purpose,
    expires_at: expiresAt,
    used_at: usedAt,
  });

  it('lives 24 hours for activation and 1 hour for recovery', () => {
    expect(CODE_LIFETIME_MS.activation).toBe(86_400_000);
    expect(CODE_LIFETIME_MS.password_recovery).toBe(3_600_000);
    expect(codeExpiry('activation', now).toISOString()).toBe('2026-05-02T12:00:00.000Z');
    expect(codeExpiry('password_recovery', now).toISOString()).toBe('2026-05-01T13:00:00.000Z');
  });

  it('is valid until its expiry, not at it, and never once used or for another purpose', () => {
    const expiry = codeExpiry('password_recovery', now);
    expect(codeState(row('password_recovery', expiry), 'password_recovery', now)).toBe('valid');
    expect(codeState(row('password_recovery', expiry), 'password_recovery', new Date(expiry.getTime() - 1))).toBe(
      'valid',
    );
    expect(codeState(row('password_recovery', expiry), 'password_recovery', expiry)).toBe('expired');
    expect(codeState(row('password_recovery', expiry, now), 'password_recovery', now)).toBe('used');
    expect(codeState(row('password_recovery', expiry), 'activation', now)).toBe('unknown');
    expect(codeState(undefined, 'activation', now)).toBe('unknown');
  });

  it('are 256 random bits, stored only as their SHA-256', () => {
    const code = randomToken();
    expect(looksLikeCode(code)).toBe(true);
    expect(looksLikeCode(`${code}x`)).toBe(false);
    expect(looksLikeCode('../../etc/passwd')).toBe(false);
    expect(randomToken()).not.toBe(code);
    expect(digest(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(digest(code)).not.toContain(code);
  });
});

describe('returnTo after sign-in', () => {
  it('keeps a same-site path with its query and fragment', () => {
    expect(safeReturnTo('/companies/search/?q=bank&page=2#results', '/')).toBe(
      '/companies/search/?q=bank&page=2#results',
    );
    expect(safeReturnTo('/de/companies/lists/', '/')).toBe('/de/companies/lists/');
    expect(safeReturnTo('/companies/../companies/search/', '/')).toBe('/companies/search/');
  });

  it('refuses everything that could leave the site or loop back to the account pages', () => {
    for (const value of [
      'https://evil.example/',
      'http:/evil.example',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      '/%0d%0aSet-Cookie:x',
      'javascript:alert(1)',
      ' /companies/',
      '/\tevil',
      'companies/search/',
      '',
      '/account/login/',
      '/fr/account/sign-out/',
      `/${'a'.repeat(2001)}`,
      undefined,
      42,
    ]) {
      const result = safeReturnTo(value, '/home/');
      if (result !== '/home/') expect(result.startsWith('/') && !result.startsWith('//'), String(value)).toBe(true);
      if (typeof value === 'string' && !value.startsWith('/%0d')) expect(result, value).toBe('/home/');
    }
    // An encoded line break stays encoded: harmless in a Location header.
    expect(safeReturnTo('/%0d%0aSet-Cookie:x', '/')).toBe('/%0d%0aSet-Cookie:x');
  });
});

describe('redirect targets (sitePath, behind every returnTo and the trailing-slash redirect)', () => {
  it('keeps paths of the site, normalised', () => {
    expect(sitePath('/')).toBe('/');
    expect(sitePath('/companies/search/?q=a\\b#top')).toBe('/companies/search/?q=a\\b#top');
    expect(sitePath('/companies/./x/../search/')).toBe('/companies/search/');
    expect(sitePath('/companies/%2e%2e/vessels/search')).toBe('/vessels/search');
    expect(sitePath('/de/companies//search/')).toBe('/de/companies//search/');
  });

  it.each(OFF_SITE_TARGETS)('never leads off the site: %j', (target) => {
    const path = sitePath(target);
    if (path !== null) {
      expect(staysOnSite(path)).toBe(true);
      expect(path).toMatch(/^\/(?![/\\])/);
    }
    expect(staysOnSite(safeReturnTo(target, '/home/'))).toBe(true);
    expect(staysOnSite(safeReturnTo(encodeURI(target), '/home/'))).toBe(true);
  });

  it('refuses the five shapes that normalise to a second leading slash', () => {
    for (const target of OFF_SITE_TARGETS.slice(0, 5)) {
      expect(new URL(target, 'http://localhost:3000').host, target).toBe('localhost:3000');
      // The normalised path itself would leave: `//evil.example/x`.
      expect(new URL(target, 'http://localhost:3000').pathname.startsWith('//'), target).toBe(true);
      expect(sitePath(target), target).toBeNull();
      expect(safeReturnTo(target, '/home/'), target).toBe('/home/');
    }
  });
});

describe('rate-limit windows', () => {
  const rule = RATE_LIMITS.signInAccount;

  it('cuts time into fixed windows of the rule’s length', () => {
    const start = new Date(Math.floor(Date.parse('2026-05-01T12:07:00Z') / rule.windowMs) * rule.windowMs);
    const inside = new Date(start.getTime() + rule.windowMs - 1);
    const next = new Date(start.getTime() + rule.windowMs);
    expect(rateWindow(rule, start).number).toBe(rateWindow(rule, inside).number);
    expect(rateWindow(rule, next).number).toBe(rateWindow(rule, start).number + 1);
    expect(rateWindow(rule, start).endsAt.getTime()).toBe(next.getTime());
  });

  it('allows the limit and refuses the next attempt until this window’s attempts have faded', () => {
    const window = rateWindow(rule, new Date('2026-05-01T12:00:00Z'));
    // 10.5 of the window's 15 minutes have passed.
    const at = new Date(window.endsAt.getTime() - 4.5 * 60 * 1000);
    expect(rateVerdict(rule, { current: rule.limit, previous: 0 }, at)).toEqual({ allowed: true });
    // 11 attempts fade to 10 once 1/11 of the next window has passed: 4.5 min + 81.8 s.
    expect(rateVerdict(rule, { current: rule.limit + 1, previous: 0 }, at)).toEqual({
      allowed: false,
      retryAfterSeconds: 352,
      minutes: 6,
    });
  });

  it('counts the previous window’s attempts in the share of it that is still recent', () => {
    const start = rateWindow(rule, new Date('2026-05-01T12:00:00Z')).endsAt;
    // Ten guesses just before the window changed, one just after: still eleven in 15 minutes.
    const justAfter = new Date(start.getTime() + 1000);
    expect(rateVerdict(rule, { current: 1, previous: rule.limit }, justAfter)).toEqual({
      allowed: false,
      retryAfterSeconds: 89,
      minutes: 2,
    });
    // Half way through, half of the previous window's ten still count: 5 + 5.
    const halfWay = new Date(start.getTime() + rule.windowMs / 2);
    expect(rateVerdict(rule, { current: 5, previous: rule.limit }, halfWay)).toEqual({ allowed: true });
    expect(rateVerdict(rule, { current: 6, previous: rule.limit }, halfWay)).toMatchObject({ allowed: false });
    // Rounded up: a share of an attempt counts as one.
    const late = new Date(start.getTime() + rule.windowMs - 1000);
    expect(rateVerdict(rule, { current: rule.limit, previous: 1 }, late)).toMatchObject({ allowed: false });
  });

  it('says when to try again, in minutes', () => {
    expect(rateLimitedError({ allowed: false, retryAfterSeconds: 60, minutes: 1 }).message).toBe(
      'Too many attempts. Try again in 1 minute.',
    );
    const error = rateLimitedError({ allowed: false, retryAfterSeconds: 600, minutes: 10 });
    expect(error.code).toBe('rate_limited');
    expect(error.message).toBe('Too many attempts. Try again in 10 minutes.');
    expect(error.details).toEqual({ retry_after_seconds: 600, minutes: 10 });
  });
});

describe('CSRF verdicts', () => {
  const base = { siteOrigins: ['https://registra.example'], sessionCsrfToken: null };

  it('lets safe methods and same-site guest posts through', () => {
    expect(csrfVerdict({ ...base, method: 'GET', secFetchSite: 'cross-site' })).toEqual({ ok: true });
    expect(csrfVerdict({ ...base, method: 'POST' })).toEqual({ ok: true });
    expect(
      csrfVerdict({ ...base, method: 'POST', secFetchSite: 'same-origin', origin: 'https://registra.example' }),
    ).toEqual({ ok: true });
  });

  it('refuses posts from other sites and opaque origins', () => {
    for (const request of [
      { secFetchSite: 'cross-site' },
      { secFetchSite: 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://registra.example' },
    ]) {
      expect(csrfVerdict({ ...base, method: 'POST', ...request }), JSON.stringify(request)).toEqual({
        ok: false,
        reason: 'cross_site',
      });
    }
  });

  it('needs the session’s own token when a session cookie signs the request in', () => {
    const token = randomToken();
    const session = { ...base, sessionCsrfToken: csrfTokenFor(token) };
    expect(csrfVerdict({ ...session, method: 'POST' })).toEqual({ ok: false, reason: 'missing_token' });
    expect(csrfVerdict({ ...session, method: 'PATCH', submitted: csrfTokenFor(randomToken()) })).toEqual({
      ok: false,
      reason: 'bad_token',
    });
    expect(csrfVerdict({ ...session, method: 'DELETE', submitted: csrfTokenFor(token) })).toEqual({ ok: true });
    // The token is not the cookie, nor what the database keeps.
    expect(csrfTokenFor(token)).not.toBe(token);
    expect(csrfTokenFor(token)).not.toBe(digest(token));
  });
});

describe('cookies and addresses', () => {
  it('writes the token cookie HttpOnly, SameSite=Lax, site-wide, Secure only over HTTPS', () => {
    expect(sessionCookie('abc', false)).toBe('token=abc; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax');
    expect(sessionCookie('abc', true)).toBe('token=abc; Max-Age=2592000; Path=/; HttpOnly; Secure; SameSite=Lax');
    expect(clearedSessionCookie(false)).toBe('token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
  });

  it('writes every cookie of the site with one serialiser: HttpOnly, SameSite=Lax, Path=/, Secure only over HTTPS', () => {
    for (const secure of [false, true]) {
      const written = [
        sessionCookie('abc', secure),
        clearedSessionCookie(secure),
        visitorCookie('abcdefgh-1234', secure),
        utmCookie({ utm_source: 'a&b=c; d' }, secure),
        siteCookie('comparison', '1.2', 86_400, secure),
      ];
      for (const cookie of written) {
        expect(parseSetCookie(cookie), cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'lax' });
        expect(parseSetCookie(cookie).secure ?? false, cookie).toBe(secure);
      }
    }
    // Values are URL-encoded and read back by parseCookies.
    const table = siteCookie('table_view', '{"vessels":{"s":"style-3"}}', 60, false);
    expect(parseCookies(table.split(';')[0]).get('table_view')).toBe('{"vessels":{"s":"style-3"}}');
  });

  it('parses a Cookie header, first name wins, bad encodings skipped', () => {
    const cookies = parseCookies('a=1; token=x%20y; token=second; bad=%E0%A4%A; =nameless; q="quoted"');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('token')).toBe('x y');
    expect(cookies.has('bad')).toBe(false);
    expect(cookies.get('q')).toBe('quoted');
    expect(parseCookies(undefined).size).toBe(0);
  });

  it('normalises emails to one spelling and checks their shape', () => {
    expect(normaliseEmail('  Anna.Müller@Example.COM ')).toBe('anna.müller@example.com');
    expect(normaliseEmail('e\u0301@x.fr')).toBe('é@x.fr');
    for (const good of ['a@b.co', 'first.last+tag@sub.example.org']) expect(isEmail(good), good).toBe(true);
    for (const bad of ['', 'a@b', 'a@@b.co', 'a b@c.de', '<a@b.co>', 'a@b..co', `${'a'.repeat(250)}@b.co`]) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });
});

describe('account emails', () => {
  it('composes text and escaped HTML with the link', () => {
    const t = (key: string, values?: Record<string, unknown>) => `${key}${values ? JSON.stringify(values) : ''}`;
    const email = composeAccountEmail('activation', t, {
      name: '<Eve & "Bob">',
      link: 'https://registra.example/account/activation/abc/',
      lang: 'en',
    });
    expect(email.subject).toBe('account.email.activation.subject');
    expect(email.text).toContain('https://registra.example/account/activation/abc/');
    expect(email.text).toContain('account.email.activation.expiry');
    expect(email.html).toContain('href="https://registra.example/account/activation/abc/"');
    expect(email.html).not.toContain('<Eve');
    expect(email.html).toContain('&lt;Eve &amp; ');
  });
});

describe('guest gating in loaders and actions', () => {
  it('answers a guest with 401 and hands a signed-in user through', async () => {
    const { RouterContextProvider } = await import('react-router');
    const { authContext } = await import('../../app/services.ts');
    const { requireUser } = await import('../../app/require-user.server.ts');
    const guest = new RouterContextProvider();
    let thrown: unknown;
    try {
      requireUser(guest);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ init: { status: 401 }, data: { message: 'sign_in_required' } });
    const signedIn = new RouterContextProvider();
    const auth = {
      user: { id: 7, email: 'a@b.co', name: 'A', language: 'en' as const, activated_at: null, created_at: '' },
      sessionId: 'x',
      csrfToken: 'y',
      tableStyle: 'style-2' as const,
    };
    signedIn.set(authContext, auth);
    expect(requireUser(signedIn)).toBe(auth);
  });
});
