import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiKeyScope } from '../../core/api-keys/api-keys.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { LANGS, type Lang, type Reference } from '../../core/reference/reference-data.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { answerBesideLimits } from '../plugins/api-limits.ts';
import { requireScope, requireUser } from './auth.ts';

// One declaration per JSON route: its path, query schema and response schema. The same zod
// schemas validate the request, type the handler and generate the OpenAPI document.

export type ApiRouteDecl<Q extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> = {
  /** Path under /api, in Fastify form. */
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Every documented query parameter. Unknown parameters are a 400 unless `openQuery` is set. */
  query: Q;
  /**
   * The handler validates parameters beyond `query`'s own (the filter grammar): only the keys of
   * `query` listed here are parsed with it; the others reach the handler unparsed.
   */
  openQuery?: { parsedKeys: (keyof Q['shape'] & string)[] };
  response: R;
  /** Error statuses the route can answer with, besides 400 and 500. */
  errors?: number[];
  /** HTTP method (default get). */
  method?: ApiMethod;
  /** Path parameters (`:user_id` in url). */
  params?: z.ZodObject;
  /** The request body (JSON unless `bodyType` says otherwise). */
  body?: z.ZodType;
  /** The body's media type when it is not JSON (the reconciliation service's form POST). */
  bodyType?: 'application/x-www-form-urlencoded';
  /** Status of a success (default 200). */
  status?: number;
  /** Signed in with the session cookie (documented as cookieAuth; unsafe methods also need the CSRF header). */
  auth?: boolean;
  /** Media types of a success that is a file, not JSON (documented as binary). */
  /** A file download that answers a Range with 206 (Content-Range) and a bad one with 416. */
  ranges?: boolean;
  produces?: string[];
  /** The API key scope the route needs (ADR 0020): `manage` for signed-in routes, else `read` (default). */
  scope?: ApiKeyScope;
  /**
   * Authenticated by the sender's signature (the payment and help-desk providers' webhooks): no API
   * key or session is looked at, so neither a key's 401 nor its scope's 403 applies.
   */
  signed?: boolean;
  /** Credits one call costs, per unit named (the credits ledger charges them, ADR 0020); documented as x-cost. */
  cost?: { credits: number; per: string };
  /**
   * A GET whose handler only reads (writes nothing, sends nothing): it starts while the limits' count
   * is in flight and its answer waits for the verdict (answerBesideLimits, ADR 0044), saving the
   * caller a round trip to the database.
   */
  readOnly?: boolean;
};

/**
 * Whether a route looks at an API key (ADR 0020): all but the health checks (which answer whatever
 * the caller sends, without the database) and the providers' signed webhooks. Those that do answer
 * 401 to an unknown or revoked key and 403 to one without their scope: the OpenAPI document lists both.
 */
export function looksAtApiKey(decl: Pick<ApiRouteDecl, 'url' | 'signed'>): boolean {
  return !isHealthRoute(decl) && !decl.signed;
}

/** The health checks: no key, no limits, no database for liveness. */
export function isHealthRoute(decl: Pick<ApiRouteDecl, 'url'>): boolean {
  return decl.url.startsWith('/health');
}

/** The scope a route needs of an API key. */
export function scopeOf(decl: Pick<ApiRouteDecl, 'auth' | 'scope'>): ApiKeyScope {
  return decl.scope ?? (decl.auth ? 'manage' : 'read');
}

export type ApiMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * A request the API sends (an outgoing webhook), documented under the OpenAPI 3.1 `webhooks`: a
 * POST of `body` as JSON with `headers` to the URL the user gave.
 */
export type OutgoingWebhookDecl = {
  /** Its key under `webhooks`. */
  name: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  body: z.ZodType;
  headers: Record<string, { description: string; example?: string }>;
  /** What the receiver answers, by status (`2XX`), and what follows. */
  responses: Record<string, string>;
};

export type ApiRoutes = ApiRouteDecl[];

export type HandlerContext<P = Record<string, never>> = {
  request: FastifyRequest;
  params: URLSearchParams;
  /** The path parameters, validated with `params` (`:user_id`, `:id`). */
  path: P;
};

/** Registers a GET route and records its declaration for the OpenAPI document. */
export function getRoute<Q extends z.ZodObject, R extends z.ZodType, P extends z.ZodObject = z.ZodObject>(
  api: FastifyInstance,
  routes: ApiRoutes,
  decl: ApiRouteDecl<Q, R> & { params?: P },
  handler: (query: z.output<Q>, context: HandlerContext<z.output<P>>) => Promise<z.input<R>>,
): void {
  routes.push(decl as unknown as ApiRouteDecl);
  const schema = decl.openQuery
    ? (decl.query.pick(
        Object.fromEntries(decl.openQuery.parsedKeys.map((k) => [k, true])) as Record<string, true> &
          Record<number, never>,
      ) as unknown as Q)
    : decl.query;
  const parsedKeys = decl.openQuery ? new Set<string>(decl.openQuery.parsedKeys) : null;
  const answer = async (request: FastifyRequest) => {
    // A guest gets 401 from a signed-in route before anything else is looked at.
    if (looksAtApiKey(decl)) requireScope(request, scopeOf(decl));
    if (decl.auth) await requireUser(request, scopeOf(decl));
    const params = searchParams(request.url);
    const path = (parseWith(decl.params, request.params ?? {}) ?? {}) as z.output<P>;
    const query = parseQuery(schema, params, parsedKeys);
    return handler(query, { request, params, path });
  };
  if (decl.readOnly) {
    api.get(decl.url, { config: { readsBesideLimits: true } }, (request) =>
      answerBesideLimits(request, () => answer(request)),
    );
  } else api.get(decl.url, answer);
}

/** A route with a JSON body and/or path parameters (POST, PATCH, DELETE), declared like a GET route. */
export type MutationRouteDecl<P extends z.ZodObject, B extends z.ZodType, R extends z.ZodType> = Omit<
  ApiRouteDecl<z.ZodObject, R>,
  'query' | 'openQuery' | 'method' | 'params' | 'body'
> & { method: Exclude<ApiMethod, 'get'>; params?: P; body?: B };

export type MutationContext = { request: FastifyRequest; reply: FastifyReply };

/**
 * Registers a POST, PATCH or DELETE route and records its declaration for the OpenAPI document:
 * the path parameters and the body are validated with their zod schemas (a 400 names the first
 * bad field), and the answer has `status` (default 200).
 */
export function mutationRoute<P extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  api: FastifyInstance,
  routes: ApiRoutes,
  decl: MutationRouteDecl<P, B, R>,
  handler: (input: { params: z.output<P>; body: z.output<B> }, context: MutationContext) => Promise<z.input<R>>,
): void {
  routes.push({ ...decl, query: z.strictObject({}) } as unknown as ApiRouteDecl);
  api.route({
    method: decl.method.toUpperCase() as 'POST' | 'PATCH' | 'DELETE',
    url: decl.url,
    handler: async (request, reply) => {
      if (looksAtApiKey(decl)) requireScope(request, scopeOf(decl));
      if (decl.auth) await requireUser(request, scopeOf(decl));
      const params = parseWith(decl.params, request.params ?? {});
      const body = parseWith(decl.body, request.body ?? {});
      const result = await handler({ params, body } as { params: z.output<P>; body: z.output<B> }, { request, reply });
      reply.status(decl.status ?? 200);
      return result;
    },
  });
}

function parseWith(schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(issuesOf(result.error));
}

export function searchParams(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

export type ParameterIssue = { parameter: string; message: string };

/**
 * Validates query parameters with a zod object schema. A repeated parameter arrives as an array
 * (and fails a string schema); `only` limits validation to those keys. Failures are a 400 whose
 * message and `details.parameter` name the first bad parameter; all issues are in details.
 */
export function parseQuery<Q extends z.ZodObject>(
  schema: Q,
  params: URLSearchParams,
  only: ReadonlySet<string> | null = null,
): z.output<Q> {
  const record: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    if (only && !only.has(key)) continue;
    const seen = record[key];
    record[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  throw badRequest(issuesOf(result.error));
}

export function issuesOf(error: z.ZodError): ParameterIssue[] {
  return error.issues.flatMap((issue): ParameterIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ parameter: key, message: `unknown parameter ${key}` }));
    }
    const parameter = issue.path.map(String).join('.');
    const named = parameter === '' || issue.message.startsWith(parameter);
    return [{ parameter, message: named ? issue.message : `${parameter}: ${issue.message}` }];
  });
}

/** A 400 naming the first bad parameter, with every issue in details. */
export function badRequest(issues: ParameterIssue[]): AppError {
  const first = issues[0] ?? { parameter: '', message: 'invalid request' };
  return new AppError('bad_request', first.message, { parameter: first.parameter, issues });
}

// ---- shared parameter and response schemas ----

export const langParam = z
  .enum(LANGS)
  .default('en')
  .describe('Language of display names: en (default), de or fr. Falls back to English, then to the uri.');

export function languageIdOf(reference: Reference, lang: Lang): number {
  return reference.languageIds[lang] || LANGUAGE_EN;
}

/**
 * A whole-number parameter of the path or query (ids, levels): its text must be digits only, so
 * `1e3`, `+1`, ` 1`, `0x10` and `1.0` are refused rather than read as numbers (z.coerce would take
 * them all, and an array `[1]` as 1). A JSON integer is taken too (a query parsed by a caller).
 * Give it a default with `.prefault(n)`: the OpenAPI document shows it (`.default` of a parameter
 * that is read from text is left out of the document).
 */
export function intParam(name: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value),
    intField(name, min, max),
  );
}

/**
 * A whole-number field of a JSON body (ids): a JSON integer, as the OpenAPI document says; a
 * string, an array, a float or a boolean is a 400 naming the field.
 */
export function intField(name: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  return z
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` });
}

export const ErrorResponseSchema = z
  .object({
    error: z.object({
      code: z.enum([
        'bad_request',
        'unauthorized',
        'forbidden',
        'not_found',
        'conflict',
        'payment_required',
        'rate_limited',
        'unavailable',
        'internal',
      ]),
      message: z.string().describe('Readable; for a bad parameter it names the parameter.'),
      details: z
        .object({
          parameter: z.string().optional().describe('The first bad parameter.'),
          issues: z.array(z.object({ parameter: z.string(), message: z.string() })).optional(),
        })
        .loose()
        .optional(),
    }),
  })
  .meta({ id: 'Error' });

export const listMeta = z.object({ count: z.number().int().describe('Items in `data`.') });
