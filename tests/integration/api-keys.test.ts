import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../core/accounts/secret-tokens.ts';
import { apiKeyUsage, createApiKey, listApiKeys, revokeApiKey } from '../../core/api-keys/api-keys.ts';
import { API_PLAN_LIMITS } from '../../core/limits.ts';
import { freshIp, postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// API keys (ADR 0020): `Authorization: Bearer` acts as the key's user within its scopes; keys are
// stored hashed; every /api response tells the plan's limit, and past it a 429 with Retry-After.

/** Small limits, so that the tests reach them in a few calls; the mechanism is the published one's. */
const LIMITS = { anonymous: 5, free: 8, paid: 20, webhook: 30 };

let t: TestApp;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await buildTestApp({ apiLimits: LIMITS });
  a = await createSignedInUser(t.db, 'keys-a');
  b = await createSignedInUser(t.db, 'keys-b');
});
afterAll(() => t?.close());

const bearer = (key: string, ip = freshIp()) => ({ authorization: `Bearer ${key}`, ip });
function get(url: string, headers: { authorization?: string; cookie?: string; ip?: string } = {}) {
  const { ip, ...rest } = headers;
  return t.app.inject({ url, remoteAddress: ip ?? freshIp(), headers: rest });
}

describe('API keys', () => {
  it('are stored as their hash, shown once, and act as their user', async () => {
    const { key, row } = await createApiKey(t.db, a.id, { name: 'CRM sync', scopes: ['read', 'manage'] });
    expect(key).toMatch(/^rk_[A-Za-z0-9_-]{40,}$/);
    const stored = await t.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash).toBe(digest(key));
    expect(JSON.stringify(stored)).not.toContain(key.slice(3));
    expect(row.prefix).toBe(key.slice(0, 9));

    const profile = await get('/api/profiles', bearer(key));
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.id).toBe(a.id);
    // A keyed write needs no CSRF token (no cookie rides along).
    const created = await postJson(
      t.app,
      'POST',
      `/api/watchlists/users/${a.id}`,
      { name: 'From a script' },
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(created.statusCode).toBe(201);
    // …but another user's data stays another user's.
    const theirs = await get(`/api/watchlists/users/${b.id}`, bearer(key));
    expect(theirs.statusCode).toBe(403);
    const [listed] = await listApiKeys(t.db, a.id);
    expect(listed.last_used_at).not.toBeNull();
    expect(listed).not.toHaveProperty('key_hash');
  });

  it('keep to their scopes: read reads data, manage the user’s own records', async () => {
    const reader = (await createApiKey(t.db, a.id, { name: 'reader', scopes: ['read'] })).key;
    const manager = (await createApiKey(t.db, a.id, { name: 'manager', scopes: ['manage'] })).key;
    expect((await get('/api/site/data/v1/legal_entities?count=1', bearer(reader))).statusCode).toBe(200);
    const refusedData = await get('/api/site/data/v1/legal_entities?count=1', bearer(manager));
    expect(refusedData.statusCode).toBe(403);
    expect(refusedData.json().error.details.scope).toBe('read');
    const refusedLists = await get(`/api/watchlists/users/${a.id}`, bearer(reader));
    expect(refusedLists.statusCode).toBe(403);
    expect(refusedLists.json().error.details.scope).toBe('manage');
    expect((await get(`/api/watchlists/users/${a.id}`, bearer(manager))).statusCode).toBe(200);
  });

  it('stop working once revoked; an unknown or malformed key is a 401', async () => {
    const { key, row } = await createApiKey(t.db, a.id, { name: 'old', scopes: ['read'] });
    expect((await get('/api/languages', bearer(key))).statusCode).toBe(200);
    // Another user cannot revoke it.
    await expect(revokeApiKey(t.db, b.id, row.id)).rejects.toMatchObject({ code: 'not_found' });
    await revokeApiKey(t.db, a.id, row.id);
    const revoked = await get('/api/languages', bearer(key));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error.code).toBe('unauthorized');
    const unknown = await get('/api/languages', bearer('rk_not-a-key-at-all-but-long-enough'));
    expect(unknown.statusCode).toBe(401);
    // Counted like any anonymous call: guessing keys meets the same limit.
    expect(unknown.headers['ratelimit-limit']).toBe(String(LIMITS.anonymous));
    expect((await get('/api/languages', { authorization: 'Basic Zm9vOmJhcg==' })).statusCode).toBe(401);
  });

  it('reject a name or scopes that will not do, naming the field', async () => {
    await expect(createApiKey(t.db, a.id, { name: ' ', scopes: ['read'] })).rejects.toMatchObject({
      details: { fields: { name: 'required' } },
    });
    await expect(createApiKey(t.db, a.id, { name: 'x', scopes: [] })).rejects.toMatchObject({
      details: { fields: { scopes: 'required' } },
    });
    await expect(createApiKey(t.db, a.id, { name: 'x', scopes: ['admin'] })).rejects.toMatchObject({
      details: { fields: { scopes: 'required' } },
    });
  });

  it('count requests per key per day for the dashboard', async () => {
    const { key, row } = await createApiKey(t.db, b.id, { name: 'counted', scopes: ['read'] });
    for (let i = 0; i < 3; i++) await get('/api/languages', bearer(key));
    const usage = await apiKeyUsage(t.db, b.id);
    expect(usage).toEqual([{ api_key_id: row.id, day: new Date().toISOString().slice(0, 10), requests: 3 }]);
    expect(await apiKeyUsage(t.db, a.id)).not.toContainEqual(expect.objectContaining({ api_key_id: row.id }));
  });
});

describe('published limits', () => {
  it('tell the limit on every response and answer 429 with Retry-After past it (anonymous, per address)', async () => {
    const ip = freshIp();
    const remaining: number[] = [];
    for (let i = 0; i < LIMITS.anonymous; i++) {
      const response = await get('/api/languages', { ip });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe(String(LIMITS.anonymous));
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(Number(response.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const over = await get('/api/languages', { ip });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    // Another address has its own count; health checks are never limited.
    expect((await get('/api/languages', { ip: freshIp() })).statusCode).toBe(200);
    expect((await get('/api/health', { ip })).statusCode).toBe(200);
  });

  it('count a key’s and a session’s calls per user, at the user’s plan', async () => {
    const c = await createSignedInUser(t.db, 'keys-c');
    const { key } = await createApiKey(t.db, c.id, { name: 'limited', scopes: ['read', 'manage'] });
    // From many addresses: the user's count is one.
    for (let i = 0; i < LIMITS.free - 1; i++) {
      const response = await get('/api/languages', bearer(key));
      expect(response.headers['ratelimit-limit']).toBe(String(LIMITS.free));
    }
    expect((await get('/api/languages', { cookie: c.cookie })).statusCode).toBe(200);
    const over = await get('/api/languages', bearer(key));
    expect(over.statusCode).toBe(429);
    expect(over.json().error.details.plan).toBe('free');
  });

  it('are the paid plan’s while a subscription runs, and the free plan’s once it is over', async () => {
    const d = await createSignedInUser(t.db, 'keys-d');
    const { key } = await createApiKey(t.db, d.id, { name: 'paid', scopes: ['read'] });
    const day = 24 * 60 * 60 * 1000;
    const [subscription] = await t.db.kysely
      .insertInto('subscriptions')
      .values({
        user_id: d.id,
        plan_id: 'plan-basic',
        provider: 'sandbox',
        provider_ref: `sub-keys-d-${d.id}`,
        period_start: new Date(Date.now() - day),
        period_end: new Date(Date.now() + 29 * day),
      })
      .returning('id')
      .execute();
    expect((await get('/api/languages', bearer(key))).headers['ratelimit-limit']).toBe(String(LIMITS.paid));
    // Cancelled, its period still running: still paid.
    await t.db.kysely
      .updateTable('subscriptions')
      .set({ cancel_at_period_end: true })
      .where('id', '=', subscription.id)
      .execute();
    expect((await get('/api/languages', bearer(key))).headers['ratelimit-limit']).toBe(String(LIMITS.paid));
    // Its period over: free again.
    await t.db.kysely
      .updateTable('subscriptions')
      .set({ period_end: new Date(Date.now() - 1000) })
      .where('id', '=', subscription.id)
      .execute();
    expect((await get('/api/languages', bearer(key))).headers['ratelimit-limit']).toBe(String(LIMITS.free));
  });

  it('are published in the OpenAPI document: the bearer scheme, limits and headers', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.info.description).toContain(`anonymous ${API_PLAN_LIMITS.anonymous}`);
    expect(document.info.description).toContain(`free ${API_PLAN_LIMITS.free}`);
    const search = document.paths['/api/site/data/v1/legal_entities'].get;
    expect(search.security).toContainEqual({ bearerAuth: [] });
    expect(search.responses['200'].headers).toHaveProperty('RateLimit-Remaining');
    expect(search.responses).toHaveProperty('429');
    expect(document.paths['/api/health'].get.responses).not.toHaveProperty('429');
  });
});
