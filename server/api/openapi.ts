import { z } from 'zod';
import { API_LIMIT_WINDOW_SECONDS, API_PLAN_LIMITS, API_WEBHOOK_LIMIT } from '../../core/limits.ts';
import {
  type ApiRoutes,
  ErrorResponseSchema,
  isHealthRoute,
  looksAtApiKey,
  type OutgoingWebhookDecl,
} from './route.ts';

// The OpenAPI 3.1 document, generated from the routes' zod schemas (JSON Schema 2020-12, the
// dialect of OpenAPI 3.1). Schemas with a `.meta({ id })` become components; the rest are inline.

type JsonSchema = { [key: string]: unknown };

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, unknown>>;
  /** Requests the API sends (OpenAPI 3.1). */
  webhooks: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  tags: { name: string; description: string }[];
};

const ERROR_STATUS: Record<number, string> = {
  400: 'A parameter is invalid; the error names it.',
  401: 'Not signed in (sign in with POST /api/authentication, which sets the `token` cookie), or the API key of `Authorization: Bearer` is unknown, revoked or malformed: a bad key is refused on every call, never read as anonymous.',
  403: 'Not allowed: the API key lacks the scope the call needs (`details.scope`), another user’s resource, a missing or wrong CSRF token, or a request from another site.',
  404: 'Not found.',
  409: 'Conflicts with what is stored: the same contact twice, or an order or purchase in a state that does not allow it.',
  402: 'Too few credits (code `payment_required`): `details` gives the cost and the balance; buy credits on /info/pricing/.',
  413: 'The body is larger than the operation takes.',
  415: 'The body’s media type (Content-Type) is not one the operation takes.',
  429: 'Too many requests or attempts: over the plan’s limit (see the RateLimit headers), or too many sign-in attempts. The message says when to try again; so does the Retry-After header.',
  416: 'The Range asks for bytes the file does not have, or is malformed: `Content-Range: bytes */<length>` gives the length.',
  500: 'Something went wrong on the server.',
  503: 'The database is briefly unavailable (code `unavailable`): try again after the Retry-After header’s seconds.',
};

const SECURITY_SCHEMES = {
  cookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'token',
    description: 'The session cookie set by POST /api/authentication (HttpOnly).',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key made on /dashboard/settings/api/ (`Authorization: Bearer rk_…`): the call acts as the key’s user. Scope `read` reads data; `manage` the user’s own lists, tracking and other records. A keyed call needs no CSRF token.',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-csrf-token',
    description:
      'Every POST, PATCH or DELETE signed in by the cookie must carry the session’s CSRF token (`csrf_token` of POST /api/authentication and GET /api/profiles).',
  },
};

/** Every response but the health checks' tells the caller's limit (ADR 0020). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    description: 'Requests per hour the caller’s plan allows.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current hour.', schema: { type: 'integer' } },
  'RateLimit-Reset': {
    description:
      'Seconds until the current window ends and the count starts to fall; past the limit, until a request is allowed again (then the same number as Retry-After).',
    schema: { type: 'integer' },
  },
};

/** The published limits, as the document's description states them. */
function limitsText(): string {
  const hour = API_LIMIT_WINDOW_SECONDS / 3600;
  const per = hour === 1 ? 'hour' : `${hour} hours`;
  return (
    `Limits per plan, requests per sliding ${per}: anonymous ${API_PLAN_LIMITS.anonymous} (per client address), ` +
    `free ${API_PLAN_LIMITS.free} and paid ${API_PLAN_LIMITS.paid} (per user, whether by API key or session cookie). ` +
    `Provider webhooks, authenticated by their signature, count ${API_WEBHOOK_LIMIT} per hour per sending address instead; one whose signature is refused also counts as anonymous. ` +
    'Every response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; past the limit a 429 with Retry-After. ' +
    'Operations that cost credits say so in `x-cost`.'
  );
}

const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

export function buildOpenApiDocument(
  routes: ApiRoutes,
  tags: { name: string; description: string }[],
  outgoing: OutgoingWebhookDecl[] = [],
): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const component = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _, $defs, ...rest } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      schemas[id] = rewriteRefs(def) as JsonSchema;
    }
    return rewriteRefs(rest) as JsonSchema;
  };

  const errorSchema = component(ErrorResponseSchema, 'output');
  const responses: Record<string, unknown> = {};
  for (const [status, description] of Object.entries(ERROR_STATUS)) {
    responses[`Error${status}`] = { description, content: { 'application/json': { schema: errorSchema } } };
  }

  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const method = route.method ?? 'get';
    const query = component(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    const pathParams = route.params
      ? (component(route.params, 'input') as { properties?: Record<string, JsonSchema> })
      : { properties: {} };
    const inPath = Object.entries(pathParams.properties ?? {}).map(([name, schema]) => {
      const { description, ...rest } = schema;
      return { name, in: 'path', required: true, ...(description ? { description } : {}), schema: rest };
    });
    const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => {
      const { description, ...rest } = schema;
      return {
        name,
        in: 'query',
        required: query.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
        // Brackets and colons are part of filter names (dates[registration]:from): send them as they are.
        ...(/[[\]:]/.test(name) ? { allowReserved: true } : {}),
        // Availability filters are sent with an empty value (contacts[website]:is_known=).
        ...(/:is_(un)?known$/.test(name) ? { allowEmptyValue: true } : {}),
      };
    });
    const rangeHeaders = route.ranges
      ? [
          {
            name: 'Range',
            in: 'header',
            required: false,
            description: 'One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`): answered with 206.',
            schema: { type: 'string' },
          },
          {
            name: 'If-Range',
            in: 'header',
            required: false,
            description: 'The ETag of the file a resumed download has part of: another file is sent whole (200).',
            schema: { type: 'string' },
          },
        ]
      : [];
    const parameters = [...inPath, ...inQuery, ...rangeHeaders];
    const errorRefs: Record<string, unknown> = {};
    const health = isHealthRoute(route);
    const keyed = looksAtApiKey(route);
    const statuses = new Set([
      400,
      ...(route.errors ?? []),
      ...(keyed ? [401, 403] : []),
      // A body past the limit is a 413; one of another media type a 415 (the signed webhooks take any).
      ...(route.body ? [413, ...(route.signed ? [] : [415])] : []),
      ...(health ? [] : [429]),
      500,
    ]);
    for (const status of [...statuses].sort()) {
      errorRefs[String(status)] = { $ref: `#/components/responses/Error${status}` };
    }
    const status = route.status ?? 200;
    const path = `/api${route.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
    paths[path] = {
      ...paths[path],
      [method]: {
        operationId: route.operationId,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: route.tags,
        ...(route.auth
          ? {
              security: [method === 'get' ? { cookieAuth: [] } : { cookieAuth: [], csrfToken: [] }, { bearerAuth: [] }],
            }
          : keyed
            ? { security: [{}, { bearerAuth: [] }] }
            : route.signed
              ? { security: [] }
              : {}),
        ...(route.cost ? { 'x-cost': route.cost } : {}),
        parameters,
        ...(route.body
          ? {
              requestBody: {
                required: true,
                content: { [route.bodyType ?? 'application/json']: { schema: component(route.body, 'input') } },
              },
            }
          : {}),
        responses: {
          [String(status)]: {
            description: SUCCESS[status] ?? 'OK',
            ...(health ? {} : { headers: RATE_LIMIT_HEADERS }),
            content: route.produces
              ? Object.fromEntries(
                  route.produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
                )
              : { 'application/json': { schema: component(route.response, 'output') } },
          },
          ...(route.ranges && route.produces
            ? {
                '206': {
                  description: 'Partial content: the bytes of the Range, named by Content-Range.',
                  content: Object.fromEntries(
                    route.produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
                  ),
                },
              }
            : {}),
          ...errorRefs,
        },
      },
    };
  }

  const webhooks: OpenApiDocument['webhooks'] = {};
  for (const hook of outgoing) {
    webhooks[hook.name] = {
      post: {
        operationId: hook.operationId,
        summary: hook.summary,
        description: hook.description,
        tags: hook.tags,
        parameters: Object.entries(hook.headers).map(([name, { description, example }]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
          ...(example ? { example } : {}),
        })),
        requestBody: { required: true, content: { 'application/json': { schema: component(hook.body, 'output') } } },
        responses: Object.fromEntries(
          Object.entries(hook.responses).map(([status, description]) => [status, { description }]),
        ),
      },
    };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Registra API',
      version: '1.0.0',
      description:
        'Company data (legal entities), their filters and statistics, the reference data behind them, and user accounts. ' +
        'Every failure answers `{ "error": { "code", "message", "details" } }`; a bad parameter is a 400 that names it. ' +
        'While the database is away, any call may answer 503 (code `unavailable`) with Retry-After. ' +
        limitsText(),
    },
    tags,
    paths,
    webhooks,
    components: { schemas, responses, securitySchemes: SECURITY_SCHEMES },
  };
}

/** zod writes `#/$defs/Id`; in the document the definitions live under components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(v);
    }
    return out;
  }
  return value;
}
