import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
import { parseLei } from '../../core/identifiers/normalize-identifier.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The W3C Reconciliation Service API 0.2 at /api/reconcile (ADR 0020): every answer validated
// against the specification's own JSON schemas (tests/fixtures/reconciliation-0.2, with their
// source), and a session as OpenRefine's client runs it: manifest, batches of queries as form
// POSTs, then data extension of the matched column.

const SCHEMAS = new URL('../fixtures/reconciliation-0.2/', import.meta.url);
const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);
// manifest.json's `authentication` refers to Swagger 2.0's security definitions: an open schema here.
ajv.addSchema(
  { definitions: { securityDefinitions: { additionalProperties: {} } } },
  'http://swagger.io/v2/schema.json',
);
for (const file of [
  'type.json',
  'manifest.json',
  'reconciliation-query-batch.json',
  'reconciliation-result-batch.json',
  'data-extension-query.json',
  'data-extension-response.json',
  'suggest-entities-response.json',
  'suggest-properties-response.json',
]) {
  ajv.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMAS), 'utf8')));
}
const schema = (name: string): ValidateFunction => {
  const id =
    name === 'reconciliation-query-batch'
      ? 'https://reconciliation-api.github.io/specs/0.2/schemas/reconciliation-query.json'
      : `https://reconciliation-api.github.io/specs/0.2/schemas/${name}.json`;
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate;
};
function expectValid(name: string, value: unknown) {
  const validate = schema(name);
  const ok = validate(value);
  expect(ok, `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/reconcile',
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

describe('the reconciliation service', () => {
  it('answers a manifest the 0.2 schema accepts, naming its suggest, preview and extension services', async () => {
    const response = await get('/api/reconcile');
    expect(response.statusCode).toBe(200);
    const manifest = response.json();
    expectValid('manifest', manifest);
    expect(manifest.versions).toContain('0.2');
    expect(manifest.view.url).toBe('http://localhost:3000/companies/details/{{id}}/');
    expect(manifest.extend.propose_properties.service_path).toBe('/extend/propose');
  });

  it('reconciles a batch by GET and by form POST alike, with candidates the schema accepts', async () => {
    const [a, b] = await someCompanies(t.db, 2, 40);
    const batch = {
      q0: { query: a.name, type: 'company', limit: 3 },
      q1: { query: b.name.toLowerCase(), properties: [{ pid: 'registration_number', v: b.companyNumber }] },
      q2: { query: 'zzzz qqqq xxxx' },
    };
    expectValid('reconciliation-query-batch', batch);
    const byGet = await get(`/api/reconcile?queries=${encodeURIComponent(JSON.stringify(batch))}`);
    const byPost = await postForm({ queries: JSON.stringify(batch) });
    expect(byGet.statusCode).toBe(200);
    expect(byPost.json()).toEqual(byGet.json());
    const results = byPost.json();
    expectValid('reconciliation-result-batch', results);
    expect(results.q0.result[0]).toMatchObject({ id: a.uri, name: a.name, match: true });
    expect(results.q0.result.length).toBeLessThanOrEqual(3);
    expect(results.q1.result[0].id).toBe(b.uri);
    expect(results.q1.result[0].features).toContainEqual({ id: 'registration_number', value: 1 });
    expect(results.q2.result.every((c: { match: boolean }) => !c.match)).toBe(true);
  });

  it('refuses a batch it cannot read, naming what is wrong', async () => {
    const notJson = await postForm({ queries: '{nope' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.details.parameter).toBe('queries');
    const badProperty = await get(
      `/api/reconcile?queries=${encodeURIComponent(JSON.stringify({ q0: { query: 'x', properties: [{ pid: 'colour', v: 'red' }] } }))}`,
    );
    expect(badProperty.statusCode).toBe(400);
    expect(badProperty.json().error.message).toContain('colour');
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, { query: 'x' }]));
    expect((await postForm({ queries: JSON.stringify(tooMany) })).statusCode).toBe(400);
  });

  it('suggests companies and properties, and previews a company as escaped HTML', async () => {
    const [company] = await someCompanies(t.db, 1, 50);
    const prefix = company.name.slice(0, Math.max(4, company.name.indexOf(' ') + 3));
    const entities = (await get(`/api/reconcile/suggest/entity?prefix=${encodeURIComponent(prefix)}`)).json();
    expectValid('suggest-entities-response', entities);
    expect(entities.result.map((r: { id: string }) => r.id)).toContain(company.uri);
    const properties = (await get('/api/reconcile/suggest/property?prefix=regis')).json();
    expectValid('suggest-properties-response', properties);
    expect(properties.result.map((p: { id: string }) => p.id)).toEqual(['registration_number', 'registered_on']);
    await t.db.kysely
      .updateTable('legal_entities')
      .set({ name: '<b>Bold & Co</b>' })
      .where('id', '=', company.id)
      .execute();
    const preview = await get(`/api/reconcile/preview?id=${company.uri}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toContain('text/html');
    expect(preview.body).toContain('&lt;b&gt;Bold &amp; Co&lt;/b&gt;');
    expect(preview.body).not.toContain('<b>Bold');
    expect((await get('/api/reconcile/preview?id=no-such-company-999999999')).statusCode).toBe(404);
  });

  it('runs an OpenRefine session: manifest, batches of ten by form POST, propose, extend', async () => {
    const { key } = await createApiKey(t.db, (await createSignedInUser(t.db, 'refine')).id, {
      name: 'OpenRefine',
      scopes: ['read'],
    });
    const auth = { authorization: `Bearer ${key}` };
    const manifest = (await get('/api/reconcile', auth)).json();
    const service = new URL(manifest.extend.propose_properties.service_url).pathname;
    // A column of 25 names with a country column, as OpenRefine batches it (ten a request).
    const rows = await someCompanies(t.db, 25, 100);
    const countries = await t.db.kysely
      .selectFrom('legal_entities as b')
      .innerJoin('locations as l', 'l.id', 'b.jurisdiction_id')
      .select(['b.id', 'l.country_code'])
      .where(
        'b.id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const countryOf = new Map(countries.map((c) => [Number(c.id), c.country_code]));
    const matched: string[] = [];
    for (let at = 0; at < rows.length; at += 10) {
      const batch = Object.fromEntries(
        rows.slice(at, at + 10).map((r, i) => [
          `q${i}`,
          {
            query: r.name.replace(/\b(GmbH|Ltd|LLC|Inc\.?|S\.A\.|AG|SARL|Limited)\b/g, '').trim(),
            type: manifest.defaultTypes[0].id,
            type_strict: 'should',
            properties: [{ pid: 'country', v: countryOf.get(r.id) ?? '' }],
          },
        ]),
      );
      expectValid('reconciliation-query-batch', batch);
      const response = await postForm({ queries: JSON.stringify(batch) }, auth);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeDefined();
      const results = response.json();
      expectValid('reconciliation-result-batch', results);
      for (const [i, r] of rows.slice(at, at + 10).entries()) {
        const best = results[`q${i}`].result[0];
        expect(best?.id, r.name).toBe(r.uri);
        if (best.match) matched.push(best.id);
      }
    }
    expect(matched.length).toBeGreaterThanOrEqual(20);
    const proposed = (
      await get(`${service}${manifest.extend.propose_properties.service_path}?type=company`, auth)
    ).json();
    expect(proposed.properties.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining(['registration_number', 'lei', 'country', 'registered_on']),
    );
    const extension = {
      ids: [...matched.slice(0, 5), 'not-a-company-1'],
      properties: [{ id: 'registration_number' }, { id: 'country' }, { id: 'registered_on' }, { id: 'name' }],
    };
    expectValid('data-extension-query', extension);
    const extended = (await postForm({ extend: JSON.stringify(extension) }, auth)).json();
    expectValid('data-extension-response', extended);
    expect(extended.meta.map((m: { id: string }) => m.id)).toEqual([
      'registration_number',
      'country',
      'registered_on',
      'name',
    ]);
    const first = rows.find((r) => r.uri === matched[0]);
    expect(extended.rows[matched[0]].registration_number[0].str).toBe(first?.companyNumber);
    expect(extended.rows[matched[0]].name).toEqual([{ str: first?.name }]);
    expect(extended.rows['not-a-company-1'].country).toEqual([]);
    const unknown = await postForm({
      extend: JSON.stringify({ ids: [matched[0]], properties: [{ id: 'shoe_size' }] }),
    });
    expect(unknown.statusCode).toBe(400);
  });
});

// Other origins (docs/decisions/0034-reconciliation-cross-origin.md): CORS and JSONP on the
// reconciliation routes alone, anonymous or keyed but never signed in by the cookie from elsewhere.
const ELSEWHERE = { origin: 'https://refine.example', 'sec-fetch-site': 'cross-site' };
const ROUTES = [
  '/api/reconcile',
  '/api/reconcile/suggest/entity?prefix=a',
  '/api/reconcile/suggest/property?prefix=a',
  '/api/reconcile/extend/propose?type=company',
];

describe('the reconciliation service for other origins', () => {
  it('allows any origin on every reconciliation route, errors included, and never credentials', async () => {
    const [company] = await someCompanies(t.db, 1, 5);
    const answers = [
      ...(await Promise.all([...ROUTES, `/api/reconcile/preview?id=${company.uri}`].map((u) => get(u, ELSEWHERE)))),
      await postForm({ queries: JSON.stringify({ q0: { query: company.name } }) }, ELSEWHERE),
      await get('/api/reconcile?queries=%7Bnope', ELSEWHERE),
      await get('/api/reconcile/preview?id=no-such-company-999999999', ELSEWHERE),
      await get('/api/reconcile', { ...ELSEWHERE, authorization: 'Bearer rk_not_a_key' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 400, 404, 401]);
    for (const answer of answers) {
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(answer.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    }
  });

  it('answers a preflight with the methods and headers it takes, without counting it as a call', async () => {
    for (const url of ['/api/reconcile', '/api/reconcile/suggest/entity?prefix=a', '/api/reconcile/preview?id=x']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          ...ELSEWHERE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.statusCode, url).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toBe(
        'authorization, content-type',
      );
      expect(preflight.headers['ratelimit-remaining']).toBeUndefined();
    }
  });

  it('leaves every other API route and page as it was: no CORS, no OPTIONS, cross-site posts refused', async () => {
    const data = await get('/api/site/data/v1/legal_entities', ELSEWHERE);
    expect(data.statusCode).toBe(200);
    expect(data.headers['access-control-allow-origin']).toBeUndefined();
    expect(data.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await get('/api/reconciled', ELSEWHERE)).headers['access-control-allow-origin']).toBeUndefined();
    const options = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/site/data/v1/legal_entities',
      headers: ELSEWHERE,
    });
    expect(options.statusCode).toBe(404);
    expect(options.headers['access-control-allow-origin']).toBeUndefined();
    const match = await t.app.inject({
      method: 'POST',
      url: '/api/match',
      payload: { queries: [{ name: 'x' }] },
      headers: ELSEWHERE,
    });
    expect(match.statusCode).toBe(403);
    expect(match.json().error.details.reason).toBe('cross_site');
    // JSONP's callback means nothing elsewhere.
    const jsonp = await get('/api/site/data/v1/legal_entities?callback=cb', ELSEWHERE);
    expect(jsonp.headers['content-type']).not.toContain('javascript');
  });

  it('never signs a request from another origin or by JSONP in with the session cookie', async () => {
    const user = await createSignedInUser(t.db, 'refine-cookie');
    const anonymous = Number((await get('/api/reconcile')).headers['ratelimit-limit']);
    const signedIn = Number((await get('/api/reconcile', { cookie: user.cookie })).headers['ratelimit-limit']);
    expect(signedIn).toBeGreaterThan(anonymous);
    const limitOf = (r: { headers: Record<string, unknown> }) => Number(r.headers['ratelimit-limit']);
    const batch = JSON.stringify({ q0: { query: 'acme' } });
    // A cross-site form post with the cookie and no CSRF token: read as anonymous, not refused.
    const posted = await postForm({ queries: batch }, { ...ELSEWHERE, cookie: user.cookie });
    expect(posted.statusCode).toBe(200);
    expect(limitOf(posted)).toBe(anonymous);
    // Another port of the same host is another origin (Origin alone, as a script may send it).
    const sameSite = await get('/api/reconcile', {
      origin: 'http://localhost:4000',
      'sec-fetch-site': 'same-site',
      cookie: user.cookie,
    });
    expect(limitOf(sameSite)).toBe(anonymous);
    const byJsonp = await get('/api/reconcile?callback=cb', { cookie: user.cookie });
    expect(limitOf(byJsonp)).toBe(anonymous);
    // Same origin, the cookie still counts, and a post still needs its CSRF token.
    const own = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin', cookie: user.cookie };
    expect(limitOf(await get('/api/reconcile', own))).toBe(signedIn);
    expect((await postForm({ queries: batch }, own)).statusCode).toBe(403);
    expect((await postForm({ queries: batch }, { ...own, 'x-csrf-token': user.csrf })).statusCode).toBe(200);
  });

  it('takes an API key as a header or as the api_key parameter, from anywhere; a bad one is a 401', async () => {
    const user = await createSignedInUser(t.db, 'refine-key');
    const { key } = await createApiKey(t.db, user.id, { name: 'OpenRefine', scopes: ['read'] });
    const anonymous = Number((await get('/api/reconcile')).headers['ratelimit-limit']);
    const batch = encodeURIComponent(JSON.stringify({ q0: { query: 'acme' } }));
    const byParameter = await get(`/api/reconcile?queries=${batch}&api_key=${key}`, ELSEWHERE);
    expect(byParameter.statusCode).toBe(200);
    expect(Number(byParameter.headers['ratelimit-limit'])).toBeGreaterThan(anonymous);
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/reconcile?api_key=${key}`,
      payload: `queries=${batch}`,
      headers: { ...ELSEWHERE, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.statusCode).toBe(200);
    expect(Number(posted.headers['ratelimit-limit'])).toBeGreaterThan(anonymous);
    const byHeader = await get('/api/reconcile/suggest/entity?prefix=a', {
      ...ELSEWHERE,
      authorization: `Bearer ${key}`,
    });
    expect(Number(byHeader.headers['ratelimit-limit'])).toBeGreaterThan(anonymous);
    const manifest = await get(`/api/reconcile?api_key=${key}&callback=cb`);
    expect(manifest.statusCode).toBe(200);
    for (const bad of ['rk_nope', '']) {
      const refused = await get(`/api/reconcile?api_key=${bad}`, ELSEWHERE);
      expect(refused.statusCode, bad).toBe(401);
      expect(refused.headers['access-control-allow-origin']).toBe('*');
    }
    // Elsewhere in the API the parameter is no key (and the route refuses a parameter it does not know).
    const data = await get(`/api/site/data/v1/legal_entities?api_key=${key}`);
    expect(data.statusCode).toBe(400);
    expect(data.json().error.message).toContain('api_key');
  });

  it('answers JSONP on a GET, as script the 0.2 schemas accept once unwrapped', async () => {
    const [company] = await someCompanies(t.db, 1, 60);
    const unwrap = (body: string, callback: string) => {
      const prefix = `/**/${callback}(`;
      expect(body.startsWith(prefix), body.slice(0, 60)).toBe(true);
      expect(body.endsWith(');')).toBe(true);
      return JSON.parse(body.slice(prefix.length, -2));
    };
    // jQuery's own callback name and cache buster, as OpenRefine's page sends them.
    const manifest = await get('/api/reconcile?callback=jQuery37109_1733250000000&_=1733250000001', ELSEWHERE);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(manifest.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expectValid('manifest', unwrap(manifest.body, 'jQuery37109_1733250000000'));
    const batch = encodeURIComponent(JSON.stringify({ q0: { query: company.name } }));
    const results = unwrap((await get(`/api/reconcile?queries=${batch}&callback=refine.cb`)).body, 'refine.cb');
    expectValid('reconciliation-result-batch', results);
    expect(results.q0.result[0].id).toBe(company.uri);
    const prefix = encodeURIComponent(company.name.slice(0, 5));
    const suggested = unwrap((await get(`/api/reconcile/suggest/entity?prefix=${prefix}&callback=$cb`)).body, '$cb');
    expectValid('suggest-entities-response', suggested);
    // A U+2028 in a name cannot end the script's line in an older engine.
    await t.db.kysely
      .updateTable('legal_entities')
      .set({ name: 'Line\u2028Sep AG' })
      .where('id', '=', company.id)
      .execute();
    const extension = encodeURIComponent(JSON.stringify({ ids: [company.uri], properties: [{ id: 'name' }] }));
    const extended = await get(`/api/reconcile?extend=${extension}&callback=cb`);
    expect(extended.body).toContain('Line\\u2028Sep AG');
    expect(unwrap(extended.body, 'cb').rows[company.uri].name).toEqual([{ str: 'Line\u2028Sep AG' }]);
    // An error stays JSON with its status: a script element fires its error event.
    const refused = await get('/api/reconcile?queries=%7Bnope&callback=cb');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/json');
  });

  it('refuses a callback that is no function name, on a POST or on the preview, naming callback', async () => {
    for (const callback of ['alert(1)//', '1abc', 'a-b', 'a..b', 'a.', '<script>', 'x'.repeat(65), 'a b', '']) {
      const response = await get(`/api/reconcile?callback=${encodeURIComponent(callback)}`, ELSEWHERE);
      expect(response.statusCode, callback).toBe(400);
      expect(response.json().error.details.parameter).toBe('callback');
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.body).not.toContain('<script>');
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/reconcile?callback=cb',
      payload: 'queries=%7B%7D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(400);
    expect(post.json().error.message).toContain('GET');
    const [company] = await someCompanies(t.db, 1, 61);
    const preview = await get(`/api/reconcile/preview?id=${company.uri}&callback=cb`);
    expect(preview.statusCode).toBe(400);
    expect(preview.json().error.message).toContain('preview');
  });

  it('lets any site frame the preview, and that response alone', async () => {
    const [company] = await someCompanies(t.db, 1, 62);
    const preview = await get(`/api/reconcile/preview?id=${company.uri}`, {
      ...ELSEWHERE,
      'sec-fetch-dest': 'iframe',
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['x-frame-options']).toBeUndefined();
    const policy = String(preview.headers['content-security-policy']);
    expect(policy).toContain('frame-ancestors *');
    expect(policy).not.toContain("frame-ancestors 'none'");
    // The rest of the policy holds: no script runs in the card.
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).toContain("default-src 'self'");
    for (const url of ['/api/reconcile', `/api/reconcile/preview?id=no-such-company-999999999`, '/']) {
      const other = await get(url);
      expect(other.headers['x-frame-options'], url).toBe('DENY');
      expect(String(other.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });

  it('pages suggestions by cursor, ten at a time, and refuses a cursor that is no count', async () => {
    const prefix = 'a';
    const page = async (cursor: number) =>
      (await get(`/api/reconcile/suggest/entity?prefix=${prefix}&cursor=${cursor}`))
        .json()
        .result.map((r: { id: string }) => r.id);
    const [first, second, third] = [await page(0), await page(10), await page(20)];
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(10);
    expect(new Set([...first, ...second, ...third]).size).toBe(first.length + second.length + third.length);
    expect(
      (await get(`/api/reconcile/suggest/entity?prefix=${prefix}`)).json().result.map((r: { id: string }) => r.id),
    ).toEqual(first);
    expect(await page(5000)).toEqual([]);
    const properties = (cursor: number) =>
      get(`/api/reconcile/suggest/property?prefix=&cursor=${cursor}`).then((r) =>
        r.json().result.map((p: { id: string }) => p.id),
      );
    const [p0, p10] = [await properties(0), await properties(10)];
    expect(p0).toHaveLength(10);
    expect(p10.length).toBeGreaterThan(0);
    expect(p10.some((id: string) => p0.includes(id))).toBe(false);
    for (const bad of ['-1', 'ten', '1.5', '9999999']) {
      const refused = await get(`/api/reconcile/suggest/entity?prefix=a&cursor=${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error.details.parameter).toBe('cursor');
    }
  });

  it('finds the company an entity id, its profile address, its LEI or its register number names, first and exact', async () => {
    const [a, b] = await someCompanies(t.db, 2, 70);
    const leiRows = await t.db.kysely
      .selectFrom('legal_entity_identifiers as i')
      .innerJoin('legal_entities as l', 'l.id', 'i.legal_entity_id')
      .select(['l.uri', 'i.identifier'])
      .where('i.identifier_type_id', '=', 5)
      .where('l.taken_down_at', 'is', null)
      .limit(50)
      .execute();
    const lei = leiRows.find((r) => parseLei(r.identifier));
    expect(lei, 'a company with a valid LEI in the template').toBeDefined();
    const batch = {
      byId: { query: a.uri },
      byUrl: { query: `http://localhost:3000/de/companies/details/${b.uri}/` },
      byLei: { query: String(lei?.identifier).toLowerCase() },
      byNumber: { query: b.companyNumber },
      wrongSlug: { query: `${a.uri.replace(/-\d+$/, '')}x-${a.id}` },
      notOurs: { query: 'https://example.com/companies/details/acme-1/' },
    };
    expectValid('reconciliation-query-batch', batch);
    const results = (await postForm({ queries: JSON.stringify(batch) })).json();
    expectValid('reconciliation-result-batch', results);
    expect(results.byId.result).toHaveLength(1);
    expect(results.byId.result[0]).toMatchObject({ id: a.uri, name: a.name, score: 1, match: true });
    expect(results.byUrl.result[0]).toMatchObject({ id: b.uri, score: 1, match: true });
    expect(results.byLei.result[0]).toMatchObject({ id: lei?.uri });
    expect(results.byLei.result[0].features).toContainEqual({ id: 'lei', value: 1 });
    expect(results.byNumber.result[0].id).toBe(b.uri);
    expect(results.byNumber.result[0].features).toContainEqual({ id: 'registration_number', value: 1 });
    // A URI whose slug is not the company's names nothing by id (the name search may still find it).
    expect(results.wrongSlug.result.every((c: { score: number }) => c.score < 1)).toBe(true);
    // A company taken down is not found by its id.
    await t.db.kysely.updateTable('legal_entities').set({ taken_down_at: new Date() }).where('id', '=', a.id).execute();
    const gone = (
      await get(`/api/reconcile?queries=${encodeURIComponent(JSON.stringify({ q: { query: a.uri } }))}`)
    ).json();
    expect(gone.q.result.map((c: { id: string }) => c.id)).not.toContain(a.uri);
    // Suggest: an id typed whole suggests that company.
    const suggested = (await get(`/api/reconcile/suggest/entity?prefix=${b.uri}`)).json();
    expect(suggested.result[0].id).toBe(b.uri);
  });
});
