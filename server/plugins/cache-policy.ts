import type { FastifyInstance } from 'fastify';

/** What a response that said nothing about caching gets: kept by no cache at all (ADR 0030). */
export const DEFAULT_CACHE_CONTROL = 'private, no-store';

/**
 * Who may keep a response (docs/decisions/0030-sign-in-finishes-and-private-caching.md), in one
 * place for every response class:
 * - a response that names its own policy keeps it: static files, flags, sitemaps and the API's
 *   documentation (`public`: the same bytes for everyone), guests' pages (`public, max-age` with
 *   `Vary: Cookie`, set by server/plugins/ssr.ts), signed-in pages and downloads (`private, no-store`);
 * - every other response — the JSON API, redirects (a sign-in's carries its cookie), error pages — is
 *   `private, no-store`: an answer that may name a user is never kept by a proxy, a CDN or the browser;
 * - a `public` response that depends on cookies says so (`Vary: Cookie`), so a cache keeps one copy
 *   per cookie header and never hands a guest's copy to a browser that has just signed in.
 */
export function registerCachePolicy(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const current = reply.getHeader('cache-control');
    if (current === undefined) {
      reply.header('cache-control', DEFAULT_CACHE_CONTROL);
    }
    return payload;
  });
}

/** The headers of a guest's page that caches may keep: public for a while, one copy per cookie header. */
export function guestPageCaching(maxAgeSeconds: number): { cacheControl: string; vary: string } {
  return { cacheControl: `public, max-age=${maxAgeSeconds}`, vary: 'Cookie' };
}
