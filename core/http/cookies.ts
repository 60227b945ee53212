import { stringifySetCookie } from 'cookie';

/**
 * The Set-Cookie value of every cookie the site sets (session, visitor, UTM, comparison, table
 * view): whole site, HttpOnly, SameSite=Lax, Secure over HTTPS (docs/decisions/0006); a max age of
 * 0 removes it. The value is URL-encoded (`parseCookies` decodes it).
 */
export function siteCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return stringifySetCookie({
    name,
    value,
    path: '/',
    maxAge: maxAgeSeconds,
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
}

/** The cookies of a Cookie header; a malformed pair is skipped. The first of two equal names wins. */
export function parseCookies(header: string | null | undefined): Map<string, string> {
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
