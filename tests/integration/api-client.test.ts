import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistraClient, type RegistraClient } from '../../clients/typescript/src/index.ts';
import { verifyWebhookSignature } from '../../clients/typescript/src/webhooks.ts';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import { signature } from '../../core/webhooks/deliveries.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The generated TypeScript client (clients/typescript) against the app listening on a port: the
// calls a client makes most — search with cursor paging, nested filters, match, the change feed —
// typed by the OpenAPI document, with real results compared to the database.

let t: TestApp;
let baseUrl: string;
let registra: RegistraClient;
/** The two jurisdictions with the most companies. */
let first: number;
let second: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const user = await createSignedInUser(t.db, 'api-client');
  await grantCredits(t.db, user.id, 100);
  const { key } = await createApiKey(t.db, user.id, { name: 'client', scopes: ['read', 'manage'] });
  registra = createRegistraClient({ baseUrl, apiKey: key });
  const top = await sql<{ id: number }>`
    select jurisdiction_id as id from legal_entities group by 1 order by count(*) desc, 1 limit 2`.execute(t.db.kysely);
  [first, second] = top.rows.map((r) => Number(r.id));
});
afterAll(() => t?.close());

async function idsWhere(where: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await sql<{ id: number }>`select id from legal_entities b where ${where} order by id`.execute(
    t.db.kysely,
  );
  return rows.rows.map((r) => Number(r.id));
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('the TypeScript client', () => {
  it('searches and pages with the cursor (`after` = meta.next) through every company of a jurisdiction', async () => {
    const expected = await idsWhere(sql`jurisdiction_id = ${first}`);
    const ids: number[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const { data, error, response } = await registra.GET('/api/site/data/v1/legal_entities', {
        params: { query: { jurisdiction: String(first), count: 10, ...(after ? { after } : {}) } },
      });
      expect(error, JSON.stringify(error)).toBeUndefined();
      expect(response.headers.get('ratelimit-limit')).toBeTruthy();
      ids.push(...(data?.data ?? []).map((item) => Number(item.legal_entities?.id)));
      if (!data?.meta.next) break;
      after = data.meta.next;
    }
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sorted(ids)).toEqual(expected);
  });

  it('searches with nested filters (POST search): the second jurisdiction, or the first’s companies not of status 1', async () => {
    const expected = await idsWhere(
      sql`(jurisdiction_id = ${first} and not coalesce(status_id = 1, false)) or jurisdiction_id = ${second}`,
    );
    expect(expected.length).toBeGreaterThan(50);
    const ids: number[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const { data, error } = await registra.POST('/api/site/data/v1/legal_entities/search', {
        body: {
          filter: {
            any: [
              { jurisdiction: String(second) },
              { all: [{ jurisdiction: String(first) }, { not: { status: '1' } }] },
            ],
          },
          count: 50,
          ...(after ? { after } : {}),
        },
      });
      expect(error, JSON.stringify(error)).toBeUndefined();
      ids.push(...(data?.data ?? []).map((item) => Number(item.legal_entities?.id)));
      if (!data?.meta.next) break;
      after = data.meta.next;
    }
    expect(sorted(ids)).toEqual(expected);
  });

  it('matches a described company to Registra’s', async () => {
    const [company] = await someCompanies(t.db, 1, 11);
    const { data, error } = await registra.POST('/api/match', {
      body: {
        queries: [{ id: 'row-1', name: company.name.toUpperCase(), registration_number: company.companyNumber }],
      },
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(data?.results[0].id).toBe('row-1');
    expect(data?.results[0].match?.id).toBe(company.id);
  });

  it('reads the change feed from a cursor and goes on from `next`', async () => {
    const [company] = await someCompanies(t.db, 1, 12);
    const start = Number(
      (await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(t.db.kysely)).rows[0]
        .id,
    );
    const ids: number[] = [];
    for (const name of ['Old Name', 'New Name', 'Newer Name']) {
      const row = await sql<{ id: string }>`insert into company_changes
          (legal_entity_id, field, old_value, new_value, source)
        values (${company.id}, 'name', ${JSON.stringify(`${name} before`)}::jsonb, ${JSON.stringify(name)}::jsonb, 'gleif-lei')
        returning id`.execute(t.db.kysely);
      ids.push(Number(row.rows[0].id));
    }
    const page1 = await registra.GET('/api/changes', { params: { query: { since: start, count: 2, lang: 'de' } } });
    expect(page1.error, JSON.stringify(page1.error)).toBeUndefined();
    expect(page1.data?.data.map((c) => c.id)).toEqual(ids.slice(0, 2));
    expect(page1.data?.data[0]).toMatchObject({
      field: 'name',
      new_value: 'Old Name',
      company: { id: company.id },
      display: { new: 'Old Name' },
    });
    const page2 = await registra.GET('/api/changes', {
      params: { query: { since: page1.data?.next ?? 0, company: company.id } },
    });
    expect(page2.data?.data.map((c) => c.id)).toEqual(ids.slice(2));
  });

  it('answers a typed error: a revoked or unknown key is a 401, a bad parameter a 400 naming it', async () => {
    const stranger = createRegistraClient({ baseUrl, apiKey: 'rk_not_a_key' });
    const refused = await stranger.GET('/api/languages', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('unauthorized');
    const bad = await registra.GET('/api/changes', { params: { query: { count: 100_000 } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.details?.parameter).toBe('count');
  });

  it('verifies a webhook’s Registra-Signature as the app signs it, and refuses a changed body or an old one', () => {
    const body = JSON.stringify({ webhook_id: 1, cursor: 9, language: 'en', changes: [] });
    const now = Date.now();
    const header = signature('s3cret', Math.floor(now / 1000), body);
    expect(verifyWebhookSignature('s3cret', header, body, { now })).toBe(true);
    expect(verifyWebhookSignature('s3cret', header, `${body} `, { now })).toBe(false);
    expect(verifyWebhookSignature('other', header, body, { now })).toBe(false);
    expect(verifyWebhookSignature('s3cret', header, body, { now: now + 3_600_000 })).toBe(false);
    expect(verifyWebhookSignature('s3cret', 't=1,v1=zz', body, { now })).toBe(false);
  });
});
