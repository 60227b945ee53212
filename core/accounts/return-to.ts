const ORIGIN = 'http://registra.invalid';

/**
 * The path to go back to after signing in: only a same-site relative path (`/companies/…?q=x`);
 * anything else — absolute and protocol-relative URLs, backslash tricks, control characters,
 * the account pages themselves — gives the fallback. Never an open redirect.
 */
export function safeReturnTo(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) {
    return fallback;
  }
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== ORIGIN) return fallback;
  // Back to a sign-in, sign-up or sign-out page would be a loop.
  if (/^(\/(de|fr))?\/account\//.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
