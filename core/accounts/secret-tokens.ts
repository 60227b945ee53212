import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: session tokens and one-time codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token or code: its SHA-256, hex. */
export function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session: derived from the session token (which only the browser's HttpOnly
 * cookie and the server know), so it needs no storage and cannot be computed from the database.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('registra csrf v1').digest('base64url');
}

/** Compares two secrets in constant time (for their length). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
