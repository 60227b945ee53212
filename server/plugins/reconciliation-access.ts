import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCrossOrigin } from '../../core/accounts/csrf.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { isReconciliationPath } from '../api/api-path.ts';
import { searchParams } from '../api/route.ts';

// Other origins' access to the reconciliation service (docs/decisions/0034-reconciliation-cross-origin.md):
// the W3C Reconciliation API 0.2 says every endpoint MUST allow CORS, and OpenRefine's browser side
// also loads the manifest and suggest by JSONP. On /api/reconcile and below, and nowhere else:
//  - every answer (errors and 429s too) carries `Access-Control-Allow-Origin: *`, never
//    Allow-Credentials; an OPTIONS preflight answers the methods and headers the service takes;
//  - a request from another origin, or asking for JSONP, is anonymous or signed by an API key only:
//    the session cookie is not read (server/plugins/session.ts), so it needs no CSRF token;
//  - the key may come as `Authorization: Bearer` or the `api_key` parameter (the specification's
//    apiKey-in-query security scheme);
//  - `callback=` on a GET wraps a JSON answer as `application/javascript`; the name must be a
//    JavaScript identifier (or a few joined by dots), else 400.

/** A JSONP callback name: a JavaScript identifier or a few joined by dots (`jQuery3710_1733`, `refine.cb`). */
export const JSONP_CALLBACK = /^[A-Za-z_$][\w$]{0,63}(?:\.[A-Za-z_$][\w$]{0,63}){0,3}$/;

/** The query parameter an API key may come in on the reconciliation routes. */
export const API_KEY_PARAMETER = 'api_key';

/** Parameters any reconciliation route takes besides its own: JSONP's callback and jQuery's cache buster, the key. */
export const ACCESS_PARAMETERS = new Set(['callback', '_', API_KEY_PARAMETER]);

const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type';
const EXPOSE_HEADERS = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';
/** How long a browser may keep a preflight's answer (Chromium keeps at most 2 hours). */
const PREFLIGHT_MAX_AGE = '7200';

/**
 * Whether a reconciliation request must not be signed in by the session cookie: it comes from a
 * page of another origin, or asks for JSONP (which any page can load with a script element).
 */
export function isForeignReconciliation(request: FastifyRequest, siteOrigins: () => string[]): boolean {
  if (!isReconciliationPath(request.url)) return false;
  if (searchParams(request.url).has('callback')) return true;
  return isCrossOrigin({
    secFetchSite: header(request.headers['sec-fetch-site']),
    origin: header(request.headers.origin),
    siteOrigins: siteOrigins(),
  });
}

/** The API key of the `api_key` parameter on a reconciliation route; null when there is none. */
export function apiKeyParameter(url: string): { token: string } | { refused: string } | null {
  if (!isReconciliationPath(url)) return null;
  const key = searchParams(url).get(API_KEY_PARAMETER);
  if (key === null) return null;
  return /^\S+$/.test(key) ? { token: key } : { refused: `Send the API key as ${API_KEY_PARAMETER}=<key>.` };
}

/** A URL as logged: an `api_key` parameter's value replaced (keys are secrets; logs are not). */
export function withoutApiKey(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/g, '$1…');
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The callback of a JSONP request, checked: a 400 naming `callback` when it cannot be one. */
function jsonpCallback(request: FastifyRequest): string | null {
  const callback = searchParams(request.url).get('callback');
  if (callback === null) return null;
  const refuse = (message: string) => new AppError('bad_request', `callback: ${message}`, { parameter: 'callback' });
  if (request.method !== 'GET' && request.method !== 'HEAD') throw refuse('JSONP answers GET requests only');
  if (/^\/api\/reconcile\/preview(?:[/?#]|$)/.test(request.url)) throw refuse('the preview is HTML, not JSONP');
  if (!JSONP_CALLBACK.test(callback)) {
    throw refuse('a JavaScript function name (letters, digits, _ and $, not starting with a digit; dots between)');
  }
  return callback;
}

export function registerReconciliationAccess(app: FastifyInstance): void {
  // Registered before the session and limit hooks: their 401s and 429s carry the CORS headers too.
  app.addHook('onRequest', async (request, reply) => {
    if (!isReconciliationPath(request.url)) return;
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    // A JSONP script and a preview frame are loaded without CORS: helmet's same-origin resource
    // policy would have the browser drop them.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    jsonpCallback(request);
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply
      .status(204)
      .header('access-control-allow-methods', ALLOW_METHODS)
      .header('access-control-allow-headers', ALLOW_HEADERS)
      .header('access-control-max-age', PREFLIGHT_MAX_AGE);
    return reply.send();
  };
  app.options('/api/reconcile', preflight);
  app.options('/api/reconcile/*', preflight);

  // Before compression's hook (server/app.ts registers this first): the JSON is still text here.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || !isReconciliationPath(request.url)) return payload;
    const callback = searchParams(request.url).get('callback');
    if (callback === null || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    reply.header('content-type', 'application/javascript; charset=utf-8');
    // The comment keeps the answer from starting with bytes a plugin could take for another format;
    // U+2028/2029 are escaped for older engines, where they end a line inside a string.
    const json = payload.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    return `/**/${callback}(${json});`;
  });
}
