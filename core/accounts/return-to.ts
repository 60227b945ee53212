const ORIGIN = 'http://registra.invalid';

/**
 * A redirect target as a path of this site, normalised (`/companies/…?q=x`), or null when it is
 * not one. The one check behind every redirect built from a request: `returnTo` values and the
 * trailing-slash redirect. A target is parsed as a browser would parse it (dot segments resolved,
 * `%2e` as a dot) and must then begin with exactly one `/` followed by something other than `/`
 * or `\`: `/.//evil.example/x` normalises to `//evil.example/x`, which a browser reads as another
 * host, so it is refused — as are absolute and protocol-relative URLs, backslashes in the path
 * and control characters anywhere.
 */
export function sitePath(value: unknown): string | null {
  if (typeof value !== 'string' || !startsOnSite(value) || hasControlCharacter(value)) return null;
  // Browsers read `\` in a path as `/`; in the query it is only a character.
  if (/^[^?#]*\\/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Checked again after normalising: dot segments can leave `//` at the start.
  return startsOnSite(path) ? path : null;
}

/**
 * The path to go back to after signing in: a path of this site (`sitePath`) of at most 2,000
 * characters, and not one of the account pages themselves; anything else gives the fallback.
 * Never an open redirect.
 */
export function safeReturnTo(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value.length > 2000) return fallback;
  const path = sitePath(value);
  if (!path) return fallback;
  // Back to a sign-in, sign-up or sign-out page would be a loop.
  if (/^(\/(de|fr))?\/account\//.test(path)) return fallback;
  return path;
}

/** `/` alone, or `/` followed by anything but a second `/` or `\` (which browsers read as a host). */
function startsOnSite(path: string): boolean {
  return path.startsWith('/') && path[1] !== '/' && path[1] !== '\\';
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
