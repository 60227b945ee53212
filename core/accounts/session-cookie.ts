import { stringifySetCookie } from 'cookie';
import { siteCookie } from '../http/cookies.ts';
import { SESSION_LIFETIME_MS } from './sessions.ts';

/** Spec §4: "A token cookie makes the user signed in". */
export const SESSION_COOKIE = 'token';

/** The cookie that signs a browser in: HttpOnly, SameSite=Lax, whole site, Secure over HTTPS. */
export function sessionCookie(token: string, secure: boolean): string {
  return siteCookie(SESSION_COOKIE, token, Math.floor(SESSION_LIFETIME_MS / 1000), secure);
}

/** The same cookie, expired: signs the browser out. */
export function clearedSessionCookie(secure: boolean): string {
  return siteCookie(SESSION_COOKIE, '', 0, secure);
}

/**
 * Set with the session cookie by every sign-in (the sign-in form, an activation link): the page the
 * browser lands on may finish the sign-in gate's pending action by itself (app/islands/gate.js reads
 * and removes it). Not HttpOnly, for the island; two minutes (the redirect follows at once); only our responses can set it, so a
 * link from elsewhere carrying `#pending=` only shows the form (ADR 0007, ADR 0030).
 */
export const SIGNED_IN_COOKIE = 'signed_in';

export function signedInCookie(secure: boolean): string {
  return stringifySetCookie({ name: SIGNED_IN_COOKIE, value: '1', path: '/', maxAge: 120, sameSite: 'lax', secure });
}

/**
 * The Set-Cookie values of a sign-in that lands on `landing`: the session, and when the landing
 * carries the gate's pending action (`#pending=`), the mark that it may finish it.
 */
export function signInCookies(token: string, secure: boolean, landing: string): string[] {
  const session = sessionCookie(token, secure);
  return /#(.*&)?pending=/.test(landing) ? [session, signedInCookie(secure)] : [session];
}
