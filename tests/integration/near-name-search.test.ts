import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegalEntitiesResponseSchema } from '../../core/api/legal-entity-schemas.ts';
import { rebuildNameWords } from '../../core/companies/name-words.ts';
import { normalizeName } from '../../core/companies/normalize-name.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// Near whole names (core/companies/find-companies.ts, withNearNames): a swap that spells a word of
// other companies' names ("Nenoeon Sp.k." for Neoneon Sp.k., as in the benchmark at 1M, where
// "Nenoeon LLC" exists too) finds those companies as typed, so no word is corrected; the companies
// one word away come right after the exact whole names.

const GERMANY = 276;
const AUSTRIA = 40;

let t: TestApp;
/** The companies this file adds, by name. */
const ids = new Map<string, number>();

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  const max = await sql<{ id: number }>`select max(id)::int as id from legal_entities`.execute(t.db.kysely);
  const companies: [string, number][] = [
    ['Neoneon Sp.k.', AUSTRIA],
    ['Neoneon GmbH', GERMANY],
    ['Nenoeon LLC', GERMANY],
    ['Nenoeon Bau GmbH', GERMANY],
    ['Nenoeon Handel GmbH', GERMANY],
    ['Nenoeon Logistik GmbH', GERMANY],
    ['Nenoeon Immobilien GmbH', GERMANY],
    ['Nenoeon Technik GmbH', AUSTRIA],
    // A company of the very name typed ("Kalvarin AG"), one a swap away, two that hold the word.
    ['Kalvarin AG', GERMANY],
    ['Klavarin AG', GERMANY],
    ['Kalvarin Holding GmbH', GERMANY],
    ['Kalvarin Service GmbH', GERMANY],
    // Both words of "Brisk & Marlwo Inc." are name words, but no name holds both.
    ['Brisk & Marlow Inc.', GERMANY],
    ['Marlwo Design GmbH', GERMANY],
  ];
  for (const [i, [name, jurisdiction]] of companies.entries()) {
    const id = max.rows[0].id + 1 + i;
    ids.set(name, id);
    await sql`
      insert into legal_entities (id, uri, name, search_name, jurisdiction_id)
      values (${id}, ${`near-name-${id}`}, ${name}, ${normalizeName(name)}, ${jurisdiction})`.execute(t.db.kysely);
  }
  await rebuildNameWords(t.db);
});

afterAll(async () => {
  await t?.close();
});

const DATA = '/api/site/data/v1/legal_entities';

async function search(query: string): Promise<{ names: string[]; total: number }> {
  const response = await t.app.inject({ method: 'GET', url: `${DATA}?${query}&count=20` });
  expect(response.statusCode, response.body).toBe(200);
  const body = LegalEntitiesResponseSchema.parse(response.json());
  const names = body.data.map((item) => {
    const name = [...ids].find(([, id]) => id === item.legal_entities.id)?.[0];
    return name ?? `company ${item.legal_entities.id}`;
  });
  return { names, total: body.meta.total };
}

describe('GET legal_entities?q= with a swap that spells another word of company names', () => {
  const NENOEON_WORD = ['Nenoeon Bau GmbH', 'Nenoeon Handel GmbH', 'Nenoeon Logistik GmbH', 'Nenoeon Immobilien GmbH'];

  it('puts the companies of the near whole name after the exact whole names, before the others', async () => {
    const { names, total } = await search(`q=${encodeURIComponent('Nenoeon Sp.k.')}`);
    // The legal form typed picks the closest of the near whole names.
    expect(names.slice(0, 3)).toEqual(['Nenoeon LLC', 'Neoneon Sp.k.', 'Neoneon GmbH']);
    expect(names.slice(3).sort()).toEqual([...NENOEON_WORD, 'Nenoeon Technik GmbH'].sort());
    expect(total).toBe(8);
  });

  it('applies the filters to near whole names too', async () => {
    const inAustria = await search(`q=${encodeURIComponent('Nenoeon Sp.k.')}&jurisdiction=${AUSTRIA}`);
    expect(inAustria).toEqual({ names: ['Neoneon Sp.k.', 'Nenoeon Technik GmbH'], total: 2 });
    const inGermany = await search(`q=${encodeURIComponent('Nenoeon Sp.k.')}&jurisdiction=${GERMANY}`);
    expect(inGermany.names.slice(0, 2)).toEqual(['Nenoeon LLC', 'Neoneon GmbH']);
    expect(inGermany.names.slice(2).sort()).toEqual([...NENOEON_WORD].sort());
    expect(inGermany.total).toBe(6);
  });

  it('finds the near whole name when the words typed meet in no name and none is misspelt', async () => {
    const { names, total } = await search(`q=${encodeURIComponent('Brisk & Marlwo Inc.')}`);
    expect({ names, total }).toEqual({ names: ['Brisk & Marlow Inc.'], total: 1 });
  });

  it('looks for no near name when a company bears the very name typed', async () => {
    const { names, total } = await search(`q=${encodeURIComponent('Kalvarin AG')}`);
    expect(names[0]).toBe('Kalvarin AG');
    expect(names).not.toContain('Klavarin AG');
    expect(total).toBe(3);
  });

  it('keeps an exact whole name first when the near names come', async () => {
    // No company is named "Kalvarin GmbH" as spelt; "Kalvarin AG" has the same whole name.
    const { names, total } = await search(`q=${encodeURIComponent('Kalvarin GmbH')}`);
    expect(names.slice(0, 2)).toEqual(['Kalvarin AG', 'Klavarin AG']);
    expect(total).toBe(4);
  });

  it('looks for near whole names only in a relevance search typed as a name', async () => {
    const byName = await search(`q=${encodeURIComponent('Nenoeon Sp.k.')}&sort=name_asc`);
    expect(byName.names).not.toContain('Neoneon Sp.k.');
    // One word is a word search.
    const word = await search('q=nenoeon');
    expect(word.names.slice(0, 1)).toEqual(['Nenoeon LLC']);
    expect(word.names).not.toContain('Neoneon Sp.k.');
    expect(word.total).toBe(6);
  });
});

describe('the search page says how it read the name', () => {
  const page = async (path: string) => {
    const response = await t.app.inject({ method: 'GET', url: path });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return /<p class="search-notice" role="status">([^<]*)<\/p>/.exec(response.body)?.[1] ?? null;
  };

  it('counts the near whole names it added, the name typed escaped', async () => {
    expect(await page(`/companies/search/?q=${encodeURIComponent('Nenoeon Sp.k.')}`)).toBe(
      'Including 2 companies whose names are spelt almost like “Nenoeon Sp.k.”.',
    );
    expect(await page(`/companies/search/?q=${encodeURIComponent('Brisk & Marlwo Inc.')}`)).toBe(
      'Including 1 company whose name is spelt almost like “Brisk &amp; Marlwo Inc.”.',
    );
  });

  it('names the corrected query when nothing matched as typed, in the page’s language', async () => {
    expect(await page('/companies/search/?q=Kalvairn')).toBe(
      'No company name holds “Kalvairn” as typed: showing the results for “kalvarin”.',
    );
    expect(await page('/de/companies/search/?q=Kalvairn')).toBe(
      'Kein Firmenname enthält „Kalvairn“ in dieser Schreibweise: Ergebnisse für „kalvarin“.',
    );
  });

  it('says nothing when the name was searched as typed', async () => {
    expect(await page(`/companies/search/?q=${encodeURIComponent('Kalvarin AG')}`)).toBeNull();
    expect(await page('/companies/search/?q=nenoeon')).toBeNull();
  });
});

describe('the data API says how it read the name', () => {
  const meta = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `${DATA}?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return LegalEntitiesResponseSchema.parse(response.json()).meta;
  };

  it('gives the corrected query and the near names added, and neither for a name found as typed', async () => {
    expect(await meta('q=Kalvairn')).toMatchObject({ corrected_query: 'kalvarin' });
    const near = await meta(`q=${encodeURIComponent('Nenoeon Sp.k.')}`);
    expect(near).toMatchObject({ near_names: 2, total: 8 });
    expect(near.corrected_query).toBeUndefined();
    const typed = await meta(`q=${encodeURIComponent('Kalvarin AG')}`);
    expect(typed.corrected_query).toBeUndefined();
    expect(typed.near_names).toBeUndefined();
  });
});
