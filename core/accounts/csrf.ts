import { sameSecret } from './secret-tokens.ts';

// Every unsafe request (POST, PUT, PATCH, DELETE) is checked the same way, for pages and the API:
//  1. it must come from this site: Sec-Fetch-Site (sent by every current browser) may only be
//     same-origin or none, and an Origin header, when present, must be one of ours;
//  2. when a session cookie signs it in, it must carry the session's CSRF token: the `_csrf`
//     form field (pages) or the `x-csrf-token` header (JSON).
// A guest's posts (sign-in, sign-up, recovery) need no token: they are not signed in by a cookie,
// and step 1 keeps other sites from posting them (login CSRF).

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type CsrfRequest = {
  method: string;
  /** The Sec-Fetch-Site request header, if sent. */
  secFetchSite?: string;
  /** The Origin request header, if sent. */
  origin?: string;
  /** Origins that count as this site (SITE_URL's and the request's own). */
  siteOrigins: string[];
  /** The session's CSRF token when a session cookie signs the request in, else null. */
  sessionCsrfToken: string | null;
  /** The token the request carries (form field or header). */
  submitted?: string | null;
};

export type CsrfVerdict = { ok: true } | { ok: false; reason: 'cross_site' | 'missing_token' | 'bad_token' };

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Whether a request came from a page of another origin (or another site): Sec-Fetch-Site says
 * anything but same-origin or none (typed by the user), or an Origin header names another origin.
 */
export function isCrossOrigin(request: Pick<CsrfRequest, 'secFetchSite' | 'origin' | 'siteOrigins'>): boolean {
  const site = request.secFetchSite?.toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return true;
  return request.origin !== undefined && !request.siteOrigins.includes(request.origin.toLowerCase());
}

export function csrfVerdict(request: CsrfRequest): CsrfVerdict {
  if (!isUnsafeMethod(request.method)) return { ok: true };
  if (isCrossOrigin(request)) return { ok: false, reason: 'cross_site' };
  if (request.sessionCsrfToken === null) return { ok: true };
  if (!request.submitted) return { ok: false, reason: 'missing_token' };
  return sameSecret(request.submitted, request.sessionCsrfToken) ? { ok: true } : { ok: false, reason: 'bad_token' };
}

/** The English message of a refusal (the API's 403; pages show a translated one). */
export function csrfMessage(reason: Exclude<CsrfVerdict, { ok: true }>['reason']): string {
  return reason === 'cross_site'
    ? 'This request came from another site and was refused.'
    : `This request needs the CSRF token of your session: send it in the ${CSRF_HEADER} header (GET /api/profiles returns it as csrf_token) or the ${CSRF_FIELD} form field.`;
}

/** An origin as browsers send it: scheme://host[:port], lower-case. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return null;
  }
}
