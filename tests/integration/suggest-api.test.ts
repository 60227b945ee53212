// GET /api/suggest (ADR 0022): companies and people whose name starts with what was typed, and
// jurisdictions and industries whose name holds it, each with its page's URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personPath } from '../../core/people/person-path.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const suggest = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/suggest?${query}` });
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/suggest', () => {
  it('suggests the companies whose name starts with the letters typed, in name order', async () => {
    const company = await t.db.kysely
      .selectFrom('legal_entities')
      .select(['name', 'uri', 'search_name'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const typed = company.name.slice(0, Math.min(6, company.name.length)).toUpperCase();
    const { status, body } = await suggest(`q=${encodeURIComponent(typed)}`);
    expect(status).toBe(200);
    const urls = body.data.companies.map((c: { url: string }) => c.url);
    const names = body.data.companies.map((c: { label: string }) => c.label);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(5);
    for (const name of names) expect(name.toLowerCase().startsWith(typed.toLowerCase().slice(0, 3))).toBe(true);
    // Among the first five by name: itself, unless five others sort before it.
    const before = await t.db.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('search_name', 'like', `${company.search_name.slice(0, 3)}%`)
      .executeTakeFirstOrThrow();
    if (Number(before.n) <= 5) expect(urls).toContain(`/companies/details/${company.uri}/`);
  });

  it('suggests people by the start of their name, linking to their page, in the language asked', async () => {
    const member = await t.db.kysely
      .selectFrom('members')
      .select(['id', 'name'])
      .where('legal_entity_id', 'is', null)
      .where('name_type', '=', 'individual')
      .orderBy('name')
      .limit(1)
      .executeTakeFirstOrThrow();
    const { body } = await suggest(`q=${encodeURIComponent(member.name.toLowerCase())}&lang=de`);
    expect(body.data.people).toContainEqual(
      expect.objectContaining({ label: member.name, url: `/de${personPath(member.name, Number(member.id))}` }),
    );
  });

  it('suggests jurisdictions and industries by any part of their name, in the language asked', async () => {
    const en = await suggest('q=germ');
    expect(en.body.data.jurisdictions[0]).toEqual({
      label: 'Germany',
      url: '/companies/search/f/jurisdiction-germany-276/',
    });
    const de = await suggest('q=deutsch&lang=de');
    expect(de.body.data.jurisdictions[0]?.label).toBe('Deutschland');
    const industries = await suggest('q=manufactur');
    expect(industries.body.data.industries.length).toBeGreaterThan(0);
    for (const i of industries.body.data.industries) {
      expect(i.label.toLowerCase()).toContain('manufactur');
      expect(i.url).toMatch(/^\/companies\/search\/f\/industry-[a-z0-9-]+-\d+\/$/);
    }
  });

  it('answers nothing for blanks, treats LIKE signs as letters, and names a bad parameter', async () => {
    expect((await suggest('q=%20%20')).body.data).toEqual({
      companies: [],
      people: [],
      jurisdictions: [],
      industries: [],
    });
    expect((await suggest('q=%25_')).status).toBe(200);
    const missing = await suggest('');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('q');
    const long = await suggest(`q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.details.parameter).toBe('q');
  });
});
