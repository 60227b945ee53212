import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { buildHoldout, type HoldoutScore, scoreHoldout } from '../../core/matching/holdout.ts';
import { postJson } from '../support/accounts.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The matching engine (ADR 0020) through POST /api/match, and its quality on a hold-out built
// from the demo companies and the real registry fixtures (GLEIF, Companies House, SEC, Brønnøysund).

let t: TestApp;
/** The caller of the match calls below, with credits enough for all of them. */
let caller: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  caller = await createSignedInUser(t.db, 'matching');
  await grantCredits(t.db, caller.id, 1_000);
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

const match = (body: unknown, user: TestUser | null = caller) =>
  postJson(t.app, 'POST', '/api/match', body, user ?? {});

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

  it('spends 1 credit per 10 queries of a signed-in caller, refuses guests, and a short balance before any work', async () => {
    const [company] = await someCompanies(t.db, 1, 5);
    const guest = await match({ queries: [{ name: company.name }] }, null);
    expect(guest.statusCode).toBe(401);
    const user = await createSignedInUser(t.db, 'matching-credits');
    const short = await match({ queries: [{ name: company.name }] }, user);
    expect(short.statusCode).toBe(402);
    expect(short.json().error.details).toMatchObject({ credits: 1, balance: 0 });
    await grantCredits(t.db, user.id, 5);
    const eleven = await match({ queries: Array.from({ length: 11 }, () => ({ name: company.name })) }, user);
    expect(eleven.statusCode).toBe(200);
    expect(eleven.json().meta).toMatchObject({ credits_spent: 2, balance: 3 });
    expect(await creditBalance(t.db, user.id)).toBe(3);
    // A refused request (a bad query) spends nothing.
    expect((await match({ queries: [{ country: 'DE' }] }, user)).statusCode).toBe(400);
    expect(await creditBalance(t.db, user.id)).toBe(3);
    const ledger = await t.db.kysely
      .selectFrom('credit_ledger')
      .select(['delta', 'reason', 'note'])
      .where('user_id', '=', user.id)
      .where('reason', '=', 'api')
      .execute();
    expect(ledger).toEqual([{ delta: -2, reason: 'api', note: 'match: 11 queries' }]);
  });

  it('documents its price as x-cost in the OpenAPI document', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(document.paths['/api/match'].post['x-cost']).toEqual({
      credits: 1,
      per: '10 queries (at least 1 credit a call)',
    });
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
