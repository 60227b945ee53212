import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { buildHoldout, type HoldoutScore, scoreHoldout } from '../../core/matching/holdout.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { someCompanies } from '../support/users.ts';

// The matching engine (ADR 0020) through POST /api/match, and its quality on a hold-out built
// from the demo companies and the real registry fixtures (GLEIF, Companies House, SEC, Brønnøysund).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  const fixture = (path: string) => join(REGISTRY_FIXTURES, path);
  for (const [source, path] of [
    ['gleif-lei', 'gleif/lei-cdf-2.1.top10.xml'],
    ['ch-companies', 'companies-house/basic-company-data.first12.csv'],
    ['sec-submissions', 'sec/CIK0001318605.json'],
    ['brreg-units', 'brreg/enhet-923609016.json'],
  ] as const) {
    await runImport(t.db, IMPORT_SOURCES[source], [fixture(path)]);
  }
});
afterAll(() => t?.close());

const match = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/match', payload: body as object });

describe('POST /api/match', () => {
  it('matches a company by its name and country, explaining each feature', async () => {
    const [company] = await someCompanies(t.db, 1, 7);
    const response = await match({ queries: [{ id: 'row-1', name: company.name.toUpperCase(), country: 'xx' }] });
    expect(response.statusCode).toBe(200);
    const [result] = response.json().results;
    expect(result.id).toBe('row-1');
    expect(result.candidates[0].id).toBe(company.id);
    expect(result.candidates[0].features.map((f: { id: string }) => f.id)).toEqual(['name', 'country']);
    expect(result.candidates[0].features[1].explanation).toContain('no country known');
  });

  it('finds a company by its number written with spaces, and an LEI of a real GLEIF record', async () => {
    const [company] = await someCompanies(t.db, 1, 3);
    const spaced = company.companyNumber.replace(/(.{2})/g, '$1 ');
    const response = await match({
      queries: [{ registration_number: spaced }, { lei: '029200013A5N6ZD0F605', name: 'Afrinvest Quortex' }],
    });
    const [byNumber, byLei] = response.json().results;
    expect(byNumber.match?.id).toBe(company.id);
    expect(byNumber.match.features[0]).toMatchObject({ id: 'registration_number', value: 1 });
    expect(byLei.match?.name).toMatch(/AFRINVEST/i);
    expect(byLei.match.score).toBeGreaterThanOrEqual(0.99);
  });

  it('refuses more than 100 queries, an empty one, and unknown fields, naming them', async () => {
    const many = await match({ queries: Array.from({ length: 101 }, () => ({ name: 'x' })) });
    expect(many.statusCode).toBe(400);
    expect(many.json().error.message).toContain('at most 100');
    const empty = await match({ queries: [{ name: 'Acme' }, { country: 'DE' }] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.parameter).toBe('queries.1');
    const unknown = await match({ queries: [{ name: 'Acme', colour: 'red' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('colour');
  });

  it('leaves two alike companies for review rather than matching one automatically', async () => {
    const [company] = await someCompanies(t.db, 1, 11);
    const twin = await t.db.kysely
      .selectFrom('legal_entities')
      .selectAll()
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('legal_entities')
      .values({
        ...twin,
        id: 9_000_001,
        uri: `${twin.uri}-twin`,
        name_tsv: undefined,
        registration_sort: undefined,
      } as never)
      .execute();
    const response = await match({ queries: [{ name: company.name }] });
    const [result] = response.json().results;
    expect(
      result.candidates
        .slice(0, 2)
        .map((c: { id: number }) => c.id)
        .sort(),
    ).toEqual([company.id, 9_000_001].sort());
    expect(result.match).toBeNull();
    await t.db.kysely.deleteFrom('legal_entities').where('id', '=', 9_000_001).execute();
  });
});

describe('the hold-out evaluation', () => {
  let score: HoldoutScore;
  beforeAll(async () => {
    const { cases, ambiguous } = await buildHoldout(t.db, { size: 450, seed: 17 });
    expect(cases.length).toBeGreaterThan(350);
    expect(ambiguous).toBeLessThan(50);
    score = await scoreHoldout(t.db, t.reference, cases);
    console.log(
      `hold-out: ${score.cases} cases (${ambiguous} ambiguous left out), top-1 ${(score.accuracy * 100).toFixed(1)}%, ` +
        `automatic ${score.autoMatches} (${(score.recall * 100).toFixed(1)}%), precision ${(score.precision * 100).toFixed(2)}%`,
    );
    for (const miss of score.misses.slice(0, 20)) console.log(JSON.stringify(miss));
  }, 120_000);

  it('puts the company first for at least 98% of perturbed descriptions', () => {
    expect(score.accuracy).toBeGreaterThanOrEqual(0.98);
    // Every kind of perturbation was tried.
    for (const kind of ['typo', 'dropLegalForm', 'wordOrder', 'diacritics', 'abbreviation']) {
      expect(
        Object.keys(score.byPerturbation).some((k) => k.startsWith(kind)),
        kind,
      ).toBe(true);
    }
  });

  it('is right in at least 99.5% of its automatic matches', () => {
    expect(score.autoMatches).toBeGreaterThan(score.cases / 2);
    expect(score.precision).toBeGreaterThanOrEqual(0.995);
  });
});
