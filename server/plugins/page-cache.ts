import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { CONSENT_COOKIE, consentOf } from '../../core/visitors/cookie-consent.ts';
import { UTM_COOKIE, VISITOR_COOKIE } from '../../core/visitors/visitors.ts';
import { guestPageCaching } from './cache-policy.ts';

export type PageCacheOptions = {
  ttlSeconds: number;
  /** The most the kept pages may weigh together (bodies, headers and URLs), in bytes: PAGE_CACHE_MB. */
  maxBytes: number;
};

type CachedPage = { status: number; headers: [string, string][]; body: Buffer };

/** What a kept page costs besides its bytes (the entry, its arrays, the LRU's bookkeeping). */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Rendered pages for anonymous readers: the same URL gives the same HTML to every guest for a
 * short while, as a CDN would keep it. Requests with cookies (a session, a table view) are never
 * served from it — only the visitor's own `uid` and `utm` cookies do not count; only 200 responses
 * are kept, and never one marked `no-store` or `private` (account pages) or one that sets a cookie.
 * Bounded by weight, not count (pages differ from 10 KB to a few hundred): the least recently used
 * pages go first once the bound is reached. A kept page holds nothing of one visitor: the visitor's
 * cookie and record are added to every response, rendered or kept (server/plugins/visitors.ts).
 */
export function createPageCache(options: PageCacheOptions) {
  const cache = new LRUCache<string, CachedPage>({
    maxSize: options.maxBytes,
    sizeCalculation: (page, url) => pageBytes(url, page),
    ttl: options.ttlSeconds * 1000,
  });
  const cacheable = (request: FastifyRequest) =>
    (request.method === 'GET' || request.method === 'HEAD') &&
    onlyVisitorCookies(request.headers.cookie) &&
    !request.headers.authorization;
  return {
    /** What a guest's page says to other caches: public for the same while, one copy per Cookie header (ADR 0030). */
    ...guestPageCaching(options.ttlSeconds),
    /** What the kept pages weigh now, in bytes. */
    get bytes(): number {
      return cache.calculatedSize;
    },
    /** Forgets every kept page (the data changed: docs/decisions/0014-importers.md). */
    clear(): void {
      cache.clear();
    },
    /** Sends the cached page and returns true when there is one. */
    serve(request: FastifyRequest, reply: FastifyReply): boolean {
      if (!cacheable(request)) return false;
      const hit = cache.get(keyOf(request));
      if (!hit) return false;
      reply.status(hit.status).headers(Object.fromEntries(hit.headers)).header('x-cache', 'hit').send(hit.body);
      return true;
    },
    store(request: FastifyRequest, status: number, headers: [string, string][], body: Buffer): void {
      if (
        status === 200 &&
        cacheable(request) &&
        !headers.some(([k, v]) => k === 'set-cookie' || (k === 'cache-control' && /no-store|private/.test(v)))
      ) {
        // (lru-cache keeps no page heavier than the whole bound.)
        cache.set(keyOf(request), { status, headers, body });
      }
    },
  };
}

function pageBytes(url: string, page: CachedPage): number {
  let bytes = ENTRY_OVERHEAD_BYTES + page.body.byteLength + Buffer.byteLength(url);
  for (const [key, value] of page.headers) bytes += key.length + Buffer.byteLength(value);
  return bytes;
}

export type PageCache = ReturnType<typeof createPageCache>;

/**
 * The visitor's `uid` and `utm` cookies change no page (server/plugins/visitors.ts): a returning guest is still served from the cache.
 * The cookie notice's choice changes one thing, whether the notice shows (ADR 0021): pages are kept apart by it.
 */
const PAGE_NEUTRAL_COOKIES = new Set([VISITOR_COOKIE, UTM_COOKIE, CONSENT_COOKIE]);

function keyOf(request: FastifyRequest): string {
  return consentOf(request.headers.cookie) === null ? request.url : `consent ${request.url}`;
}

function onlyVisitorCookies(header: string | undefined): boolean {
  if (!header) return true;
  return header.split(';').every((pair) => {
    const at = pair.indexOf('=');
    const name = (at === -1 ? pair : pair.slice(0, at)).trim();
    return name === '' || PAGE_NEUTRAL_COOKIES.has(name);
  });
}
