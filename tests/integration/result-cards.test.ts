// Search results as a phone reads them: each row is a card, and a company's card says its
// town — the locality of its own address, the registered seat first, then headquarters, physical,
// postal. The stylesheet shows that line on cards only; the server renders it in the name's cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { someCompanies } from '../support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const ADDRESS_TYPE = { headquarter: 1, physical: 2, postal: 3, registered: 5 } as const;

/** The town line of the company's card on its exact-name search. */
async function townOnCard(company: { uri: string; name: string }): Promise<string | null> {
  const res = await t.app.inject({ method: 'GET', url: `/companies/search/?q=${encodeURIComponent(company.name)}` });
  expect(res.statusCode).toBe(200);
  const cell = new RegExp(
    `<td data-column="legal_name"[^>]*><a href="/companies/details/${company.uri}/">.*?</a>(.*?)</td>`,
  ).exec(res.body);
  expect(cell, company.name).not.toBeNull();
  return /<span class="row-town" data-label="Town">([^<]*)<\/span>/.exec(cell?.[1] ?? '')?.[1] ?? null;
}

describe('a company’s card on search results', () => {
  it('says the town of its registered seat, else of its headquarters, and nothing without a town', async () => {
    const [company] = await someCompanies(t.db, 1, 7);
    await t.db.kysely.deleteFrom('legal_entity_addresses').where('legal_entity_id', '=', company.id).execute();
    await afterCompanyWrite(t.db, { companies: [company.id], names: [] });
    // Each write as the app's writers make it: the rows, then afterCompanyWrite, which moves the data
    // version that kept search pages are keyed by (ADR 0043).
    const add = async (type: keyof typeof ADDRESS_TYPE, locality: string | null, position = 0) => {
      await t.db.kysely
        .insertInto('legal_entity_addresses')
        .values({ legal_entity_id: company.id, address_type_id: ADDRESS_TYPE[type], position, locality })
        .execute();
      await afterCompanyWrite(t.db, { companies: [company.id], names: [] });
    };
    expect(await townOnCard(company)).toBeNull();

    await add('postal', 'Postville');
    await add('headquarter', 'Hqburg');
    expect(await townOnCard(company)).toBe('Hqburg');
    // The registered seat wins, its first address with a town.
    await add('registered', null, 0);
    await add('registered', 'Seatford', 1);
    expect(await townOnCard(company)).toBe('Seatford');
  });
});
