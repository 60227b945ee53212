import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { AppServices } from '../../core/services.ts';
import { consentOf } from '../../core/visitors/cookie-consent.ts';
import {
  newVisitorId,
  recordVisitor,
  utmCookie,
  utmOf,
  utmOfCookie,
  visitorCookie,
  visitorIdOf,
  visitorOfLanding,
} from '../../core/visitors/visitors.ts';
import { isApiPath } from '../api/api-path.ts';
import { clientRequest } from './session.ts';

/**
 * Visitors (spec §4, §7 "Partner stats"): on a page a browser sees (a successful GET answered with
 * HTML — not /api, not static files, not redirects), a visitor who accepted the statistics cookies
 * (cookie notice, ADR 0021) and has no `uid` cookie gets one
 * (one year) and is recorded once; a landing URL with utm_* parameters sets the `utm` cookie
 * (14 days). Bots (isbot, or no User-Agent at all) get neither: crawlers would fill the partner
 * stats with visitors nobody sent. The record is written after the page is sent, never awaited:
 * a failure is logged and the page is the same. A page served from the page cache gets the same
 * cookies and record as a rendered one (onSend runs for both; the cache keeps no Set-Cookie).
 */
export function registerVisitors(app: FastifyInstance, services: AppServices): void {
  const pending = new Set<Promise<void>>();
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      if (!isPageVisit(request, reply)) return payload;
      const userAgent = header(request.headers['user-agent']) ?? '';
      if (!userAgent || isbot(userAgent)) return payload;
      // Consent first (ePrivacy, ADR 0021): no statistics cookie and no record until the visitor
      // accepts them in the cookie notice; refusing or ignoring it sets none.
      if (consentOf(request.headers.cookie) !== 'accepted') return payload;
      const { secure } = clientRequest(request, services.siteUrl);
      const params = new URL(request.url, 'http://localhost').searchParams;
      const landingUtm = utmOf(params);
      if (Object.keys(landingUtm).length > 0) {
        reply.header('set-cookie', utmCookie(landingUtm, secure));
        keepFromSharedCaches(reply);
      }
      if (visitorIdOf(request.headers.cookie)) return payload;
      const uid = newVisitorId();
      reply.header('set-cookie', visitorCookie(uid, secure));
      keepFromSharedCaches(reply);
      const visitor = visitorOfLanding({
        uid,
        params,
        userAgent,
        host: request.host,
        cookieUtm: utmOfCookie(request.headers.cookie),
      });
      const task: Promise<void> = recordVisitor(services.db, visitor).then(
        () => undefined,
        (error: unknown) => request.log.error({ err: error }, 'could not record a visitor'),
      );
      pending.add(task);
      void task.finally(() => pending.delete(task));
    } catch (error) {
      // Never let visitor stats break a page.
      request.log.error({ err: error }, 'visitor cookie failed');
    }
    return payload;
  });
  // Records still being written finish before the app (and its database) closes.
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });
}

/**
 * A response that sets a visitor's cookie is that visitor's alone: a shared cache (a CDN) that
 * kept a `public` page with its Set-Cookie would hand the same uid to every later visitor.
 */
function keepFromSharedCaches(reply: FastifyReply): void {
  const cacheControl = reply.getHeader('cache-control');
  if (typeof cacheControl === 'string' && cacheControl.includes('public')) {
    reply.header('cache-control', cacheControl.replace('public', 'private'));
  }
}

function isPageVisit(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'GET') return false;
  if (reply.statusCode < 200 || reply.statusCode >= 300) return false;
  const path = request.url.split('?')[0];
  if (isApiPath(path) || path.startsWith('/assets/')) return false;
  if (/\.[a-z0-9]+$/i.test(path)) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('text/html');
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
