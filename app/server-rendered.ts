// Loader data that only the server render reads, for reading pages that never hydrate (ADR 0004).
//
// React Router encodes every document request's loader data for the browser (a turbo-stream, in
// server-runtime's renderHtml) before the entry renders, whether or not the page sends it; a page
// without <Scripts /> never does. For the search pages that encoding cost 0.35–0.9 ms a request,
// about ten times JSON.stringify of the same data (docs/decisions/0002-search-performance.md).
// The fields given to `serverRendered` are defined non-enumerable: that encoder walks Object.keys
// and skips them, while the server render (and `meta`) read them as usual. A page that hydrates
// would lose them in the browser, so entry.server.tsx refuses to hydrate one that carries them.

const MARK = Symbol.for('registra.serverRendered');

/** `sent` as it is, plus `serverOnly`'s fields for the server render only (not encoded for the browser). */
export function serverRendered<T extends object, S extends object>(sent: T, serverOnly: S): T & S {
  const out = { ...sent } as T & S;
  for (const [key, value] of Object.entries(serverOnly)) {
    Object.defineProperty(out, key, { value, enumerable: false });
  }
  Object.defineProperty(out, MARK, { value: true, enumerable: false });
  return out;
}

/** True when loader data carries fields the browser would not get (see serverRendered). */
export function hasServerOnlyData(value: unknown): boolean {
  return typeof value === 'object' && value !== null && MARK in value;
}
