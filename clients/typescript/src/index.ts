import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

// The Registra API client: openapi-fetch over the types openapi-typescript generates from the
// OpenAPI document (src/schema.ts; `npm run openapi` in the repository regenerates both).
//
//   const registra = createRegistraClient({ baseUrl: 'https://registra.example', apiKey: 'rk_…' });
//   const { data, error } = await registra.GET('/api/legal-entities', { params: { query: { q: 'acme' } } });

export { OPENAPI_SHA256 } from './generated-from.ts';
export type { components, operations, paths, webhooks } from './schema.ts';

export type Schemas = components['schemas'];
/** One change of the change feed (GET /api/changes) and of a webhook's payload. */
export type Change = Schemas['Change'];
/** What the changes webhook posts (verify it with verifyWebhookSignature of `./webhooks`). */
export type WebhookPayload = Schemas['WebhookPayload'];
/** Every failure's body: `{ error: { code, message, details } }`. */
export type ApiError = Schemas['Error'];

export type RegistraClientOptions = ClientOptions & {
  /** The site, e.g. https://registra.example (the paths start with /api). */
  baseUrl: string;
  /** An API key made on /dashboard/settings/api/ (`rk_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
};

/** A typed client: `GET`, `POST`, `PATCH`, `DELETE` take a path of the document and its typed params and body. */
export function createRegistraClient({ apiKey, headers, ...options }: RegistraClientOptions) {
  return createClient<paths>({
    ...options,
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string>) },
  });
}

export type RegistraClient = ReturnType<typeof createRegistraClient>;
