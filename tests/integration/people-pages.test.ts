// People (ADR 0022): a person's page at /members/details/{name}/{id}/ (spec §2) with their
// positions across companies, links to it from profiles, the people search, and the connections
// picture with its list of links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personPath } from '../../core/people/person-path.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** A person sitting on at least two companies, and those companies. */
async function busyPerson() {
  const row = await t.db.kysely
    .selectFrom('members as m')
    .innerJoin('legal_entity_members as lem', 'lem.member_id', 'm.id')
    .select(['m.id', 'm.name'])
    .select((eb) => eb.fn.count<number>('lem.legal_entity_id').distinct().as('companies'))
    .where('m.name_type', '=', 'individual')
    .where('m.legal_entity_id', 'is', null)
    .groupBy(['m.id', 'm.name'])
    .having((eb) => eb.fn.count('lem.legal_entity_id').distinct(), '>=', 2)
    .orderBy('m.id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const companies = await t.db.kysely
    .selectFrom('legal_entity_members as lem')
    .innerJoin('legal_entities as le', 'le.id', 'lem.legal_entity_id')
    .select(['le.uri', 'le.name'])
    .where('lem.member_id', '=', row.id)
    .execute();
  return { id: Number(row.id), name: row.name, companies };
}

const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

describe('a person page', () => {
  it('names the person and lists every company they sit on, with links, in en/de/fr', async () => {
    const person = await busyPerson();
    const path = personPath(person.name, person.id);
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<h1>${escaped(person.name)}</h1>`);
    for (const c of person.companies) expect(res.body).toContain(`href="/companies/details/${c.uri}/"`);
    expect(res.body).toMatch(/Current positions|Past positions/);
    expect(res.body).toContain(`<link rel="canonical" href="http://localhost:3000${path}"/>`);
    const de = await get(`/de${path}`);
    expect(de.statusCode).toBe(200);
    expect(de.body).toMatch(/Aktuelle Funktionen|Frühere Funktionen/);
    const fr = await get(`/fr${path}`);
    expect(fr.body).toMatch(/Fonctions actuelles|Fonctions passées/);
  });

  it('draws the connections on the server, as SVG and as a list of links', async () => {
    const person = await busyPerson();
    const res = await get(personPath(person.name, person.id));
    expect(res.body).toContain('class="graph-svg"');
    expect(res.body).toMatch(/<svg[^>]*aria-hidden="true"/);
    // The focus, and at least one of their companies, as drawn boxes and as list links.
    expect(res.body).toMatch(/class="graph-node graph-person graph-focus"/);
    const list = /<details class="graph-list">([\s\S]*?)<\/details>/.exec(res.body)?.[1] ?? '';
    for (const c of person.companies) expect(list).toContain(`href="/companies/details/${c.uri}/"`);
  });

  it('redirects another name before the id to the right one, and answers 404 for no member', async () => {
    const person = await busyPerson();
    const wrong = await get(`/members/details/someone-else/${person.id}/`);
    expect(wrong.statusCode).toBe(301);
    expect(wrong.headers.location).toBe(personPath(person.name, person.id));
    expect((await get('/members/details/nobody/999999999/')).statusCode).toBe(404);
    expect((await get('/members/details/nobody/abc/')).statusCode).toBe(404);
  });
});

describe('links to people', () => {
  it('a profile links each officer and shareholder that is no company to their page', async () => {
    const person = await busyPerson();
    const res = await get(`/companies/details/${person.companies[0].uri}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`href="${personPath(person.name, person.id)}"`);
    // The company's connections picture is there too.
    expect(res.body).toContain('id="connections-graph"');
  });

  it('the connections search links a name to the people of that name', async () => {
    const res = await get('/connections/search/');
    expect(res.body).toMatch(/<td data-column="name"[^>]*><a href="\/members\/search\/\?q=[^"]+">/);
  });
});

describe('people search', () => {
  it('finds a person by part of their name, case-insensitively, and links to their page', async () => {
    const person = await busyPerson();
    const part = person.name.split(' ').at(-1) ?? person.name;
    const res = await get(`/members/search/?q=${encodeURIComponent(part.toUpperCase())}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`href="${personPath(person.name, person.id)}"`);
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it('treats % and _ as letters, and an empty query as none', async () => {
    const res = await get('/members/search/?q=%25%25_');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('href="/members/details/');
    const empty = await get('/members/search/?q=');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).not.toContain('<table');
  });
});
