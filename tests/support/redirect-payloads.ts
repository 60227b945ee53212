// Redirect targets that try to leave the site, for the open-redirect tests (unit and through the
// app): the five shapes that once normalised to `//evil.example/x`, their percent-encoded and
// backslash variants, and the plain off-site forms.

export const EVIL_HOST = 'evil.example';

export const OFF_SITE_TARGETS = [
  // The five shapes: dot segments that leave `//` at the start after normalisation.
  '/.//evil.example/x',
  '/x/..//evil.example/x',
  '/%2e//evil.example/x',
  '/..//evil.example/x',
  '/companies/../..//evil.example/x',
  // Percent-encoded dots, in either case and mixed.
  '/%2E//evil.example/x',
  '/%2e%2e//evil.example/x',
  '/.%2E//evil.example/x',
  '/companies/%2e%2e/%2e%2e//evil.example/x',
  // Backslashes, which browsers read as slashes in a path.
  '/\\evil.example/x',
  '/.\\/evil.example/x',
  '/x/..\\/evil.example/x',
  '/\\/evil.example/x',
  '/%5C%5Cevil.example/x',
  // Plain off-site forms.
  '//evil.example/x',
  'https://evil.example/x',
  '/\t/evil.example/x',
];

/** Whether a Location header keeps a browser on the site at `origin` (resolved as a browser resolves it). */
export function staysOnSite(location: string, origin = 'http://localhost:3000'): boolean {
  return new URL(location, `${origin}/companies/search/`).origin === origin;
}
