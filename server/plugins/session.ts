import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_HEADER, csrfMessage, csrfVerdict, isUnsafeMethod, originOf } from '../../core/accounts/csrf.ts';
import { SESSION_COOKIE } from '../../core/accounts/session-cookie.ts';
import { findSession, type SessionAuth } from '../../core/accounts/sessions.ts';
import { type ApiKeyAuth, findApiKey } from '../../core/api-keys/api-keys.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { escapeHtml } from '../../core/html/escape-html.ts';
import { parseCookies } from '../../core/http/cookies.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import type { AppServices, ClientRequest } from '../../core/services.ts';
import { isApiPath } from '../api/api-path.ts';
import { apiKeyParameter, isForeignReconciliation } from './reconciliation-access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session the `token` cookie names, looked up on first use (once per request); null for guests. */
    auth: () => Promise<SessionAuth | null>;
    /** The API key of an `Authorization: Bearer` request to /api (then `auth` is its user's); else null. */
    apiKey: ApiKeyAuth | null;
    /** Why a bearer header was refused (unknown, revoked or malformed): the API's limits hook answers 401 with it. */
    apiKeyRefused: string | null;
  }
}

/**
 * Sessions and CSRF for the whole app (registered on the root instance, before the API and the
 * pages): the `token` cookie is resolved lazily — static files and cached pages never touch the
 * database — and every unsafe JSON request passes the CSRF check (core/accounts/csrf.ts). Page
 * forms are checked by the root route's middleware, which can read the form's `_csrf` field.
 */
export function registerSessions(app: FastifyInstance, services: AppServices): void {
  app.decorateRequest('auth', null as unknown as FastifyRequest['auth']);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('apiKeyRefused', null);
  app.addHook('onRequest', async (request, reply) => {
    const api = isApiPath(request.url);
    // The reconciliation service called from another origin or by JSONP is anonymous or keyed:
    // the cookie is not read, so no other site can act as the signed-in user (ADR 0034).
    const foreign = isForeignReconciliation(request, () => clientRequest(request, services.siteUrl).siteOrigins);
    // An API key stands in for the cookie (ADR 0020): a bearer header names the user, or is a 401;
    // on the reconciliation routes it may also be the api_key parameter (ADR 0034).
    const bearer = api ? (bearerToken(request.headers.authorization) ?? apiKeyParameter(request.url)) : null;
    if (bearer !== null) {
      // A refused key is counted as an anonymous call before its 401 (server/plugins/api-limits.ts).
      const key = 'refused' in bearer ? null : await findApiKey(services.db, bearer.token);
      if (key) request.apiKey = key;
      else {
        request.apiKeyRefused =
          'refused' in bearer ? bearer.refused : 'The API key is unknown or revoked (Authorization: Bearer <key>).';
      }
      const auth = Promise.resolve(key?.auth ?? null);
      request.auth = () => auth;
    } else {
      const token = foreign ? undefined : parseCookies(request.headers.cookie).get(SESSION_COOKIE);
      let lookup: Promise<SessionAuth | null> | undefined;
      request.auth = () => {
        lookup ??= token ? findSession(services.db, token) : Promise.resolve(null);
        return lookup;
      };
    }
    // A foreign reconciliation request carries no credential but a key, and the service only reads.
    if (!isUnsafeMethod(request.method) || foreign) return;
    // Pages are checked here only for where the post comes from (before React Router sees it);
    // the session's token in the form is checked by the root route's middleware.
    // A keyed request carries no ambient credential: it needs no CSRF token (only the origin checks).
    const auth = api && !request.apiKey ? await request.auth() : null;
    const verdict = csrfVerdict({
      method: request.method,
      secFetchSite: header(request.headers['sec-fetch-site']),
      origin: header(request.headers.origin),
      siteOrigins: clientRequest(request, services.siteUrl).siteOrigins,
      sessionCsrfToken: auth?.csrfToken ?? null,
      submitted: header(request.headers[CSRF_HEADER]),
    });
    if (verdict.ok) return;
    if (api) throw new AppError('forbidden', csrfMessage(verdict.reason), { reason: verdict.reason });
    return reply.status(403).type('text/html; charset=utf-8').send(refusalPage(request.url));
  });
}

/** The token of an `Authorization: Bearer …` header, or why the header will not do; null without one. */
function bearerToken(value: string | undefined): { token: string } | { refused: string } | null {
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? { token: match[1] } : { refused: 'Send the API key as Authorization: Bearer <key>.' };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Who sent the request and how: the address (behind a proxy, X-Forwarded-For), agent, HTTPS, and our origins. */
export function clientRequest(request: FastifyRequest, siteUrl: string): ClientRequest {
  const own = `${request.protocol}://${request.host}`.toLowerCase();
  const site = originOf(siteUrl);
  return {
    ip: request.ip ?? '',
    userAgent: header(request.headers['user-agent']) ?? '',
    secure: siteUrl.startsWith('https:') || request.protocol === 'https',
    siteOrigins: site && site !== own ? [site, own] : [own],
  };
}

/** The 403 page of a form posted from another site (translated by the path's language). */
function refusalPage(url: string): string {
  const lang = /^\/(de|fr)(\/|$)/.exec(url)?.[1] ?? 'en';
  const { t } = i18nFor(lang as Lang);
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(t('account.csrf.title'))} — Registra</title></head><body><main><h1>${escapeHtml(t('account.csrf.title'))}</h1><p>${escapeHtml(t('account.csrf.text'))}</p><p><a href="${lang === 'en' ? '/' : `/${lang}/`}">${escapeHtml(t('errors.home'))}</a></p></main></body></html>`;
}
