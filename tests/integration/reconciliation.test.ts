import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
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
    expect(preview.body).toContain('&#60;b&#62;Bold &#38; Co&#60;/b&#62;');
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
