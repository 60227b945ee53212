import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../core/api-keys/api-keys.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// The OpenAPI document is generated from the routes' zod schemas and committed as
// docs/openapi.json, so that API changes show in review. Regenerate with `npm run openapi`.
// And it says every status a client meets: the sweep below calls every operation with good and
// bad input, the app telling it (method, route pattern, status) of every answer, and each status
// must be one its operation lists.
const COMMITTED = new URL('../../docs/openapi.json', import.meta.url);

type Answer = { method: string; route: string | undefined; status: number };
const answers: Answer[] = [];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ onResponse: (answer) => answers.push(answer) });
});
afterAll(() => t?.close());

it('matches the committed docs/openapi.json', async () => {
  const generated = `${JSON.stringify((await t.app.inject({ url: '/api/openapi.json' })).json(), null, 2)}\n`;
  if (process.env.UPDATE_OPENAPI === '1') await writeFile(COMMITTED, generated);
  const committed = await readFile(COMMITTED, 'utf8').catch(() => '');
  expect(generated, 'the API changed: run `npm run openapi` and commit docs/openapi.json').toBe(committed);
});

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  format?: string;
  minimum?: number;
  minItems?: number;
  minLength?: number;
  const?: unknown;
};
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
};

/** A value the schema takes (the least one: required fields only), to call an operation with good input. */
function sample(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>, depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  if (schema.$ref) return sample(schemas[schema.$ref.split('/').pop() ?? ''], schemas, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return sample(choice[0], schemas, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sample(schema.properties?.[name], schemas, depth + 1)]),
      );
    case 'array':
      return schema.minItems ? [sample(schema.items, schemas, depth + 1)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'email' ? 'sweep@example.com' : 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return undefined;
  }
}

it('lists every status each operation answers, to good and bad input (bad key, revoked key, missing scope, bad parameters, unknown ids)', async () => {
  const document = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  const schemas = document.components.schemas;
  const user: TestUser = await createSignedInUser(t.db, 'statuses');
  const good = (await createApiKey(t.db, user.id, { name: 'good', scopes: ['read', 'manage'] })).key;
  const readOnly = (await createApiKey(t.db, user.id, { name: 'read', scopes: ['read'] })).key;
  const manageOnly = (await createApiKey(t.db, user.id, { name: 'manage', scopes: ['manage'] })).key;
  const revoked = await createApiKey(t.db, user.id, { name: 'revoked', scopes: ['read', 'manage'] });
  await revokeApiKey(t.db, user.id, revoked.row.id);

  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  // Deletions last, so that the good calls before them find the user and their records.
  operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  for (const { path, method, op } of operations) {
    const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
    const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
    const url = (ids: (name: string) => string, query: Record<string, string>) => {
      const search = new URLSearchParams(query).toString();
      return `${path.replace(/\{(\w+)\}/g, (_, name: string) => ids(name))}${search ? `?${search}` : ''}`;
    };
    const goodQuery = Object.fromEntries(required.map((p) => [p.name, String(sample(p.schema, schemas) ?? 'a')]));
    const goodIds = (name: string) =>
      name === 'user_id' ? String(user.id) : String(sample(inPath.find((p) => p.name === name)?.schema, schemas));
    const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
    const body = media ? sample(media.schema, schemas) : undefined;
    const payload =
      body === undefined
        ? undefined
        : type === 'application/json'
          ? JSON.stringify(body)
          : new URLSearchParams(body as Record<string, string>).toString();
    const call = (target: string, key: string | null, send = payload) =>
      t.app.inject({
        method: method as 'GET',
        url: target,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(send === undefined ? {} : { 'content-type': type }),
        },
        ...(send === undefined ? {} : { payload: send }),
      });
    const goodUrl = url(goodIds, goodQuery);
    await Promise.all([
      call(goodUrl, 'rk_unknown_key_of_nobody'),
      call(goodUrl, revoked.key),
      call(goodUrl, readOnly),
      call(goodUrl, manageOnly),
      call(goodUrl, null),
      call(url(goodIds, { ...goodQuery, zz_unknown: '1' }), good),
      ...(payload === undefined
        ? []
        : [
            call(goodUrl, good, type === 'application/json' ? '{"zz_unknown":' : '%'),
            t.app.inject({
              method: method as 'POST',
              url: goodUrl,
              headers: { authorization: `Bearer ${good}`, 'content-type': 'application/xml' },
              payload: '<zz/>',
            }),
          ]),
      ...(inPath.length
        ? [
            call(
              url(() => '999999999', goodQuery),
              good,
            ),
            call(
              url(() => 'not-an-id', goodQuery),
              good,
            ),
          ]
        : []),
    ]);
    await call(goodUrl, good);
  }

  const pattern = (route: string) => route.replace(/:(\w+)/g, '{$1}');
  const unlisted = new Set<string>();
  const seen = new Set<string>();
  for (const { method, route, status } of answers) {
    if (!route?.startsWith('/api/')) continue;
    const op = document.paths[pattern(route)]?.[method.toLowerCase()];
    if (!op) continue;
    seen.add(op.operationId);
    if (!(String(status) in op.responses)) unlisted.add(`${method} ${pattern(route)} (${op.operationId}): ${status}`);
  }
  expect([...unlisted].sort(), 'statuses answered that the operation does not list').toEqual([]);
  // Every operation was swept: a route added later is swept too (or fails here until it can be).
  expect(operations.map(({ op }) => op.operationId).filter((id) => !seen.has(id))).toEqual([]);
}, 300_000);
