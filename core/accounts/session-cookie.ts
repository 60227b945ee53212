import { SESSION_LIFETIME_MS } from './sessions.ts';

/** Spec §4: "A token cookie makes the user signed in". */
export const SESSION_COOKIE = 'token';

/** The cookie that signs a browser in: HttpOnly, SameSite=Lax, whole site, Secure over HTTPS. */
export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(SESSION_LIFETIME_MS / 1000);
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The same cookie, expired: signs the browser out. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The cookies of a Cookie header; a malformed pair is skipped. The first of two equal names wins. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}
