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
