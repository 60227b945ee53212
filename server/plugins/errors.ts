import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError, httpStatus } from '../../core/errors/app-error.ts';
import { escapeHtml } from '../../core/html/escape-html.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../../db/database-unavailable.ts';
import { isApiPath } from '../api/api-path.ts';

export type ErrorBody = { error: { code: string; message: string; details?: unknown } };

/**
 * SQLSTATEs of text PostgreSQL cannot store (22021: a NUL or a bad byte sequence, 22P05: an
 * escape it cannot translate). Input is checked for NULs at the boundary (rejectNul); this is the
 * fallback for a path that was missed, so that it is still the client's 400, not our 500.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

const HELP_DESK_UNAVAILABLE =
  'The help desk is briefly unavailable; nothing was sent. Please try again in a few minutes.';

/** One error handler: every failure becomes `{ error: { code, message, details } }`; no stack traces leak. */
export function registerErrorHandler(app: FastifyInstance): void {
  rejectNul(app);
  app.setErrorHandler((error: FastifyError | AppError | ZodError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.code === 'unavailable') {
        // The help desk (ADR 0021) rather than the database: the API says which.
        const helpDesk = (error.details as { reason?: string } | undefined)?.reason === 'help_desk';
        if (helpDesk) request.log.warn({ err: error }, 'help desk unavailable');
        return unavailable(request, reply, helpDesk ? HELP_DESK_UNAVAILABLE : undefined);
      }
      return reply.status(httpStatus(error.code)).send(body(error.code, error.message, error.details));
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const parameter = issue?.path.join('.') ?? '';
      return reply.status(400).send(
        body('bad_request', `${parameter ? `${parameter}: ` : ''}${issue?.message ?? 'invalid request'}`, {
          issues: error.issues.map((i) => ({ parameter: i.path.join('.'), message: i.message })),
        }),
      );
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply.status(400).send(body('bad_request', fastifyError.message, { validation: fastifyError.validation }));
    }
    if (fastifyError.statusCode && fastifyError.statusCode < 500) {
      return reply.status(fastifyError.statusCode).send(body('bad_request', fastifyError.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return unavailable(request, reply);
    }
    if (UNSTORABLE_TEXT.has(String((error as { code?: unknown }).code))) {
      return reply
        .status(400)
        .send(body('bad_request', 'the request has text that cannot be stored (a NUL character?)'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body('internal', 'Something went wrong on our side. Please try again.'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(body('not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}

function body(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/**
 * The database is away: a 503 with Retry-After, as JSON for the API and as a translated page for
 * a page (React Router renders its own for a loader's failure, app/entry.server.tsx; this one is
 * for a failure before it runs, such as the session lookup).
 */
function unavailable(request: FastifyRequest, reply: FastifyReply, message?: string): FastifyReply {
  reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
  if (isApiPath(request.url)) {
    return reply.send(
      body('unavailable', message ?? 'The service is briefly unavailable. Please try again in a moment.'),
    );
  }
  return sendPage(request, reply, 'errors.unavailableTitle', (t) => t('errors.unavailableText'));
}

/** A bare translated page (in the path's language) for a page request answered before React Router. */
function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  titleKey: string,
  text: (t: (key: string) => string) => string,
): FastifyReply {
  const lang = (/^\/(de|fr)(\/|$)/.exec(request.url)?.[1] ?? 'en') as Lang;
  const { t } = i18nFor(lang);
  const title = escapeHtml(t(titleKey));
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title} — Registra</title></head><body><main><h1>${title}</h1><p>${escapeHtml(text(t))}</p></main></body></html>`,
    );
}

/**
 * PostgreSQL stores no NUL character in text, so one arriving in the path, a query parameter or a
 * JSON body is a 400 naming where it is, before any handler runs (page forms are checked by the
 * root route's middleware, app/root.tsx, which reads the form).
 */
function rejectNul(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const parameter = nulInUrl(request.url);
    if (parameter === null) return;
    const message = `${parameter} has a NUL character`;
    if (isApiPath(request.url)) throw new AppError('bad_request', message, { parameter });
    reply.status(400);
    return sendPage(request, reply, 'errors.badRequestTitle', () => message);
  });
  app.addHook('preValidation', async (request) => {
    const parameter = nulIn(request.body, '', 0);
    if (parameter !== null) {
      throw new AppError('bad_request', `${parameter || 'body'} has a NUL character`, {
        parameter: parameter || 'body',
      });
    }
  });
}

/** 'path' or the name of the first query parameter that holds a NUL (encoded or not), else null. */
function nulInUrl(url: string): string | null {
  if (!/%00|\0/.test(url)) return null;
  const at = url.indexOf('?');
  if (/%00|\0/.test(at === -1 ? url : url.slice(0, at))) return 'path';
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    if (name.includes('\0') || value.includes('\0')) return visible(name);
  }
  return null;
}

/** Nesting a body is checked to; deeper values reach the database's own check (UNSTORABLE_TEXT). */
const MAX_DEPTH = 32;

/** The path of the first string holding a NUL in a parsed JSON value ('' for the value itself), or null. */
function nulIn(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return visible(at);
    const found = nulIn(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A name with its NULs shown as \0 (a NUL in a message would not reach the reader). */
function visible(name: string): string {
  return name.replaceAll('\0', '\\0');
}
