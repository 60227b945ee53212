import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCompanies, findCompanyIds } from '../../core/companies/find-companies.ts';
import { parseSearchState } from '../../core/search/search-state.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// findCompanyIds (an export's batches, the data API) must find what findCompanies finds, in the
// same order, with the same count and cursor: it is the same search reading fewer columns.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const state = (query: string) => {
  const parsed = parseSearchState(companiesSection, new URLSearchParams(query));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.state;
};

describe('findCompanyIds', () => {
  it('finds the same companies in the same order as findCompanies, page after page', async () => {
    const word = await sql<{ word: string }>`
      select word from name_words where documents between 3 and 50 order by documents desc, word limit 1`.execute(
      t.db.kysely,
    );
    const queries = [
      '',
      'status=1',
      'sort=name_asc',
      'dates[registration]:from=2000&sort=registration_date_asc',
      `q=${encodeURIComponent(word.rows[0].word)}`,
      `q=${encodeURIComponent(word.rows[0].word)}&sort=registration_date_desc`,
    ];
    for (const query of queries) {
      let s = state(query);
      for (let page = 0; page < 3; page++) {
        const rows = await findCompanies(t.db, t.reference, s, 7);
        const ids = await findCompanyIds(t.db, t.reference, s, 7);
        expect(ids.ids, `${query} page ${page + 1}`).toEqual(rows.rows.map((r) => Number(r.id)));
        expect(ids.total).toBe(rows.total);
        expect(ids.totalIsEstimate).toBe(rows.totalIsEstimate);
        expect(ids.atLeast).toBe(rows.atLeast);
        expect(ids.next).toBe(rows.next);
        if (page === 0) expect(ids.ids.length, query).toBeGreaterThan(0);
        if (!rows.next) break;
        s = { ...s, after: rows.next, page: s.page + 1 };
      }
    }
  });

  it('counts a name search by relevance in its page statement: the true count on every page, and past the last', async () => {
    const found = await sql<{ word: string }>`
      select word from name_words where documents between 8 and 50 order by documents desc, word limit 1`.execute(
      t.db.kysely,
    );
    const word = found.rows[0].word;
    const truth = await sql<{ n: number }>`
      select count(*)::int as n from legal_entities
      where name_tsv @@ to_tsquery('simple', ${word}) and taken_down_at is null`.execute(t.db.kysely);
    const n = truth.rows[0].n;
    expect(n).toBeGreaterThanOrEqual(8);
    const first = await findCompanyIds(t.db, t.reference, state(`q=${encodeURIComponent(word)}`), 3);
    expect(first).toMatchObject({ total: n, totalIsEstimate: false, atLeast: n });
    expect(first.ids).toHaveLength(3);
    const second = await findCompanyIds(t.db, t.reference, { ...state(`q=${word}`), after: first.next, page: 2 }, 3);
    expect(second).toMatchObject({ total: n, atLeast: n });
    // Past the last page the page statement finds no row to carry the count: it is counted apart.
    const past = await findCompanyIds(t.db, t.reference, state(`q=${encodeURIComponent(word)}&page=50`), 3);
    expect(past).toMatchObject({ ids: [], total: n, totalIsEstimate: false, atLeast: n });
  });

  it('corrects a misspelt word as findCompanies does', async () => {
    const name = await sql<{ name: string }>`
      select word as name from name_words where length(word) >= 6 and documents >= 2 order by word limit 1`.execute(
      t.db.kysely,
    );
    const word = name.rows[0].name;
    const typo = `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
    const rows = await findCompanies(t.db, t.reference, state(`q=${typo}`));
    const ids = await findCompanyIds(t.db, t.reference, state(`q=${typo}`), companiesSection.pageSize);
    expect(ids.ids).toEqual(rows.rows.map((r) => Number(r.id)));
    expect(ids.correctedQuery).toBe(rows.correctedQuery);
  });
});
