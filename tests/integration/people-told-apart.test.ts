// People told apart (ADR 0022): a line about a person — a suggestion, a people search
// row — carries their main company, country, role and, where the register publishes it, month and
// year of birth; two namesakes are never shown as the same line; a person page gives each position
// its start and end dates. People come from the real Companies House files and from demo data.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presenter } from '../../app/presenters/present.server.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { personPath } from '../../core/people/person-path.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  // The PSC snapshot's persons become members of the companies BasicCompanyData made.
  for (const [source, file] of [
    ['ch-companies', 'companies-house/basic-company-data.first12.csv'],
    ['ch-psc', 'companies-house/psc-snapshot.sample.jsonl'],
  ])
    await runImport(t.db, IMPORT_SOURCES[source], [`${REGISTRY_FIXTURES}${file}`], { batchSize: 5 });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
type Line = { label: string; url: string; detail?: string };
const suggestPeople = async (q: string, lang = 'en'): Promise<Line[]> => {
  const res = await get(`/api/suggest?q=${encodeURIComponent(q)}&lang=${lang}`);
  expect(res.statusCode).toBe(200);
  return res.json().data.people;
};

/** A new person (no positions yet): name, and optionally a country (ISO code). */
async function addPerson(name: string, country?: string): Promise<number> {
  const { rows } = await sql<{ id: string }>`select nextval('member_ids') as id`.execute(t.db.kysely);
  const id = Number(rows[0].id);
  const countryId = country
    ? (await t.db.kysely.selectFrom('locations').select('id').where('uri', '=', country).executeTakeFirstOrThrow()).id
    : null;
  await t.db.kysely
    .insertInto('members')
    .values({ id, name_type: 'individual', name, country_id: countryId })
    .execute();
  return id;
}

async function addPosition(memberId: number, companyId: number, position: string, since: string, until?: string) {
  const { id: positionId } = await t.db.kysely
    .selectFrom('positions')
    .select('id')
    .where('uri', '=', position)
    .executeTakeFirstOrThrow();
  await t.db.kysely
    .insertInto('legal_entity_members')
    .values({
      legal_entity_id: companyId,
      member_id: memberId,
      position_id: positionId,
      since,
      ...(until ? { until } : {}),
    })
    .execute();
}

/** Two active demo companies (after the first `skip`), with their names. */
async function activeCompanies(skip = 0) {
  const rows = await t.db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'name', 'uri'])
    .where('status_id', '=', 1)
    .where('taken_down_at', 'is', null)
    .orderBy('id')
    .offset(skip)
    .limit(2)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

describe('a person from the PSC register', () => {
  it('keeps the month and year of birth the register publishes, never a day', async () => {
    const feldman = await t.db.kysely
      .selectFrom('members')
      .select(['birth_month', 'birth_year', 'country_id'])
      .where('name', '=', 'Marc Anthony Feldman')
      .executeTakeFirstOrThrow();
    expect(feldman).toMatchObject({ birth_month: 12, birth_year: 1961 });
  });

  it('is suggested with their company, country, role and month of birth, in en/de/fr', async () => {
    const [en] = await suggestPeople('marc anthony feld');
    expect(en.label).toBe('Marc Anthony Feldman');
    // "! LTD" (08209948) is the company they control; England is in the United Kingdom.
    expect(en.detail).toBe('! LTD · United Kingdom · Shareholder · born Dec 1961');
    const [de] = await suggestPeople('marc anthony feld', 'de');
    expect(de.detail).toContain('geb. Dez. 1961');
    expect(de.url).toMatch(/^\/de\/members\/details\//);
    const [fr] = await suggestPeople('marc anthony feld', 'fr');
    expect(fr.detail).toContain('déc. 1961');
  });

  it('shows the same in the people search, one column each', async () => {
    const res = await get('/members/search/?q=Feldman');
    expect(res.statusCode).toBe(200);
    const row = /<tr>(?:(?!<\/tr>)[\s\S])*Marc Anthony Feldman[\s\S]*?<\/tr>/.exec(res.body)?.[0] ?? '';
    expect(row).toMatch(/<td data-column="company"><a href="\/companies\/details\/[^"]+\/">! LTD<\/a><\/td>/);
    expect(row).toContain('<td data-column="role">Shareholder</td>');
    expect(row).toContain('United Kingdom');
    expect(row).toContain('<td data-column="born">Dec 1961</td>');
    const de = await get('/de/members/search/?q=Feldman');
    expect(de.body).toContain('<td data-column="born">Dez. 1961</td>');
    const fr = await get('/fr/members/search/?q=Feldman');
    expect(fr.body).toContain('<td data-column="born">déc. 1961</td>');
  });
});

describe('namesakes', () => {
  it('are never the same line in suggestions or the people search', async () => {
    const [a, b] = await activeCompanies();
    // Two people alike in everything shown (same company, role, no country, no birth), one with a
    // country, one at another company.
    const twinA = await addPerson('Quentin Namesake');
    const twinB = await addPerson('Quentin Namesake');
    await addPosition(twinA, a.id, 'director', '2015-01-01');
    await addPosition(twinB, a.id, 'director', '2018-01-01');
    const german = await addPerson('Quentin Namesake', 'germany');
    const elsewhere = await addPerson('Quentin Namesake');
    await addPosition(elsewhere, b.id, 'director', '2015-01-01');

    const lines = await suggestPeople('quentin namesake');
    expect(lines).toHaveLength(4);
    const shown = lines.map((l) => `${l.label} — ${l.detail ?? ''}`);
    expect(new Set(shown).size).toBe(4);
    const lineOf = (id: number) => lines.find((l) => l.url === personPath('Quentin Namesake', id));
    // Only the two alike carry the last resort, their number.
    expect(lineOf(twinA)?.detail).toBe(`${a.name} · Director · No. ${twinA}`);
    expect(lineOf(twinB)?.detail).toBe(`${a.name} · Director · No. ${twinB}`);
    expect(lineOf(german)?.detail).toBe('Germany');
    expect(lineOf(elsewhere)?.detail).toBe(`${b.name} · Director`);

    const page = await get('/members/search/?q=Quentin+Namesake');
    const rows = [...page.body.matchAll(/<tr>((?:(?!<\/tr>)[\s\S])*Quentin Namesake[\s\S]*?)<\/tr>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, '|'),
    );
    expect(rows).toHaveLength(4);
    expect(new Set(rows).size).toBe(4);
    expect(page.body).toContain(`(No. ${twinA})`);
    expect((await get('/de/members/search/?q=Quentin+Namesake')).body).toContain(`(Nr. ${twinA})`);
  });
});

describe('main company and the person page', () => {
  it('takes a current position over a more recent ended one, and lists both with their dates', async () => {
    const [a, b] = await activeCompanies();
    const id = await addPerson('Ottilie Twopositions', 'france');
    await addPosition(id, a.id, 'director', '2019-03-01', '2023-06-30');
    await addPosition(id, b.id, 'officer', '2012-05-15');

    const [line] = await suggestPeople('ottilie twopos');
    expect(line.detail).toBe(`${b.name} · France · Officer`);

    const path = personPath('Ottilie Twopositions', id);
    for (const lang of ['en', 'de', 'fr'] as const) {
      const res = await get(lang === 'en' ? path : `/${lang}${path}`);
      expect(res.statusCode).toBe(200);
      const section = (sectionId: string) =>
        new RegExp(`<section[^>]*aria-labelledby="${sectionId}"[\\s\\S]*?</section>`).exec(res.body)?.[0] ?? '';
      // The app's one date format and links, in the reader's language.
      const { date, companyHref } = presenter(t.reference, lang);
      const current = section('positions-current');
      expect(current).toContain(`href="${companyHref(b.uri)}"`);
      expect(current).toContain(`<td data-column="since">${date('2012-05-15')}</td>`);
      expect(current).toContain('<td data-column="until"></td>');
      const past = section('positions-past');
      expect(past).toContain(`href="${companyHref(a.uri)}"`);
      expect(past).toContain(`<td data-column="since">${date('2019-03-01')}</td>`);
      expect(past).toContain(`<td data-column="until">${date('2023-06-30')}</td>`);
    }
  });

  it('never names a company taken down as the main one', async () => {
    const [a, b] = await activeCompanies(2);
    const id = await addPerson('Theodor Hiddenmain');
    await addPosition(id, a.id, 'director', '2010-01-01');
    await addPosition(id, b.id, 'president', '2020-01-01');
    expect((await suggestPeople('theodor hiddenmain'))[0].detail).toBe(`${b.name} · President`);
    const takedown = (action: 'hide' | 'restore') =>
      applyTakedown(t.db, action, { target: 'company', ref: b.uri, reason: 'erasure request', actor: 'test' });
    await takedown('hide');
    try {
      expect((await suggestPeople('theodor hiddenmain'))[0].detail).toBe(`${a.name} · Director`);
    } finally {
      await takedown('restore');
    }
  });

  it('shows a month and year of birth among the facts, in the reader’s language', async () => {
    const feldman = await t.db.kysely
      .selectFrom('members')
      .select(['id', 'name'])
      .where('name', '=', 'Marc Anthony Feldman')
      .executeTakeFirstOrThrow();
    const path = personPath(feldman.name, Number(feldman.id));
    expect((await get(path)).body).toContain('Dec 1961');
    expect((await get(`/de${path}`)).body).toContain('Dez. 1961');
    expect((await get(`/fr${path}`)).body).toContain('déc. 1961');
  });
});
