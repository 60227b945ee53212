import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { someCompanies } from '../support/users.ts';

// Takedowns (ADR 0021): a company or person taken down leaves public pages, search results, the
// sitemaps and the public API; restoring brings it back; both are logged.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('a company taken down', () => {
  it('is gone from its profile, search, the sitemap and the API, until restored; both are logged', async () => {
    const [company] = await someCompanies(t.db, 1, 11);
    const row = await t.db.kysely
      .selectFrom('legal_entities')
      .select(['name'])
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    const profile = `/companies/details/${company.uri}/`;
    expect((await get(profile)).statusCode).toBe(200);
    const byId = `/api/site/data/v1/legal_entities?le_le_id=${company.id}`;
    expect((await get(byId)).json().data).toHaveLength(1);

    await expect(
      applyTakedown(t.db, 'hide', { target: 'company', ref: company.uri, reason: '  ', actor: 'test' }),
    ).rejects.toThrow('reason');
    const id = await applyTakedown(t.db, 'hide', {
      target: 'company',
      ref: company.uri,
      reason: 'GDPR erasure request #12',
      requestedBy: 'owner@example.com',
      actor: 'test',
    });
    expect(id).toBe(company.id);
    expect((await get(profile)).statusCode).toBe(404);
    // A mistyped slug with its id is not redirected to it either.
    expect((await get(`/companies/details/other-slug-${company.id}/`)).statusCode).toBe(404);
    expect((await get(byId)).json().data).toHaveLength(0);
    const search = await get(`/companies/search/?q=${encodeURIComponent(row.name)}`);
    expect(search.body).not.toContain(`href="${profile}"`);
    expect((await get('/sitemaps/en/companies-1.xml')).body).not.toContain(`/companies/details/${company.uri}/<`);

    await applyTakedown(t.db, 'restore', {
      target: 'company',
      ref: String(company.id),
      reason: 'withdrawn',
      actor: 'test',
    });
    expect((await get(profile)).statusCode).toBe(200);
    expect((await get('/sitemaps/en/companies-1.xml')).body).toContain(`/companies/details/${company.uri}/<`);
    const log = await t.db.kysely
      .selectFrom('takedown_log')
      .select(['action', 'reason', 'requested_by', 'actor'])
      .where('object_type', '=', 'company')
      .where('object_id', '=', company.id)
      .orderBy('id')
      .execute();
    expect(log).toEqual([
      { action: 'hide', reason: 'GDPR erasure request #12', requested_by: 'owner@example.com', actor: 'test' },
      { action: 'restore', reason: 'withdrawn', requested_by: null, actor: 'test' },
    ]);
  });
});

describe('a person taken down', () => {
  it('is left out of the member lists of the companies they sit on', async () => {
    const member = await t.db.kysely
      .selectFrom('legal_entity_members as x')
      .innerJoin('members as m', 'm.id', 'x.member_id')
      .innerJoin('legal_entities as le', 'le.id', 'x.legal_entity_id')
      .select(['m.id', 'm.name', 'le.uri'])
      .where('m.name_type', '=', 'individual')
      .orderBy('m.id')
      .executeTakeFirstOrThrow();
    const profile = `/companies/details/${member.uri}/`;
    const escaped = member.name.replace(/'/g, '&#x27;');
    // The profile's Members section (record sections such as connections are their own tables).
    const membersSection = async () =>
      /<section[^>]*id="members"[\s\S]*?<\/section>/.exec((await get(profile)).body)?.[0] ?? '';
    expect(await membersSection()).toContain(escaped);
    await applyTakedown(t.db, 'hide', { target: 'person', ref: String(member.id), reason: 'erasure', actor: 'test' });
    expect(await membersSection()).not.toContain(escaped);
    await expect(
      applyTakedown(t.db, 'hide', { target: 'person', ref: '999999999', reason: 'x', actor: 'test' }),
    ).rejects.toThrow('No person');
  });
});
