import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegalEntitiesResponseSchema } from '../../core/api/legal-entity-schemas.ts';
import { oneLetterDeletions } from '../../core/companies/name-query.ts';
import { rebuildNameWords } from '../../core/companies/name-words.ts';
import { normalizeName } from '../../core/companies/normalize-name.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// Typo-tolerant name search (core/companies/name-query.ts) through the data API: a company's name
// with one word misspelt still finds the company in the top 5, as the benchmark asks at 1M.

let t: TestApp;
let companies: Company[];
let lexicon: Set<string>;

type Company = { id: number; name: string; search_name: string };

beforeAll(async () => {
  t = await buildTestApp();
  const rows = await sql<Company>`select id, name, search_name from legal_entities order by id`.execute(t.db.kysely);
  companies = rows.rows;
  const words = await sql<{ word: string }>`select word from name_words`.execute(t.db.kysely);
  lexicon = new Set(words.rows.map((r) => r.word));
});

afterAll(async () => {
  await t?.close();
});

const DATA = '/api/site/data/v1/legal_entities';

async function topIds(q: string): Promise<number[]> {
  const response = await t.app.inject({ method: 'GET', url: `${DATA}?q=${encodeURIComponent(q)}&count=5` });
  expect(response.statusCode, response.body).toBe(200);
  return LegalEntitiesResponseSchema.parse(response.json()).data.map((item) => item.legal_entities.id);
}

type Typo = { company: Company; q: string };
type Misspell = (word: string, seed: number) => string | null;

/** Two neighbouring, different letters swapped, at a position the seed picks. */
const swap: Misspell = (word, seed) => {
  const positions = [...Array(word.length - 1).keys()].filter((k) => word[k] !== word[k + 1]);
  if (positions.length === 0) return null;
  const k = positions[seed % positions.length];
  return word.slice(0, k) + word[k + 1] + word[k] + word.slice(k + 2);
};

/** One letter left out, not the first. */
const deletion: Misspell = (word, seed) => {
  const k = 1 + (seed % (word.length - 1));
  return word.slice(0, k) + word.slice(k + 1);
};

/** One letter too many, not before the first. */
const insertion: Misspell = (word, seed) => {
  const k = 1 + (seed % word.length);
  return `${word.slice(0, k)}${'aeinrst'[seed % 7]}${word.slice(k)}`;
};

/**
 * `n` companies spread over the template, each named with one word of five letters or more
 * misspelt. A misspelling that spells another name word is skipped: nothing tells it from that word.
 */
function typos(n: number, misspell: Misspell, offset: number): Typo[] {
  const eligible = companies.flatMap((company) => {
    const words = new Set(company.search_name.split(' '));
    const tokens = company.name.split(' ');
    const at = tokens.findIndex((token) => /^[A-Za-z]{5,}$/.test(token) && words.has(token.toLowerCase()));
    return at < 0 ? [] : [{ company, tokens, at }];
  });
  const step = Math.floor(eligible.length / n);
  const out: Typo[] = [];
  for (let i = 0; out.length < n && i < eligible.length; i++) {
    const { company, tokens, at } = eligible[(offset + i * step) % eligible.length];
    const misspelt = misspell(tokens[at], company.id);
    if (!misspelt || lexicon.has(misspelt.toLowerCase())) continue;
    out.push({ company, q: tokens.map((token, j) => (j === at ? misspelt : token)).join(' ') });
  }
  return out;
}

async function misses(list: Typo[]): Promise<string[]> {
  const missed: string[] = [];
  for (const { company, q } of list) {
    if (!(await topIds(q)).includes(company.id)) missed.push(`"${q}" (${company.name})`);
  }
  return missed;
}

describe('GET legal_entities?q= with a misspelt word', () => {
  it('finds the company in the top 5 with two neighbouring letters swapped, 40 of 40', async () => {
    const list = typos(40, swap, 0);
    expect(list).toHaveLength(40);
    expect(await misses(list)).toEqual([]);
  });

  it('finds the company in the top 5 with a letter missing', async () => {
    const list = typos(8, deletion, 3);
    expect(list).toHaveLength(8);
    expect(await misses(list)).toEqual([]);
  });

  it('finds the company in the top 5 with a letter too many', async () => {
    const list = typos(8, insertion, 5);
    expect(list).toHaveLength(8);
    expect(await misses(list)).toEqual([]);
  });

  it('corrects a swap at the very start of a word', async () => {
    const list = typos(8, (word) => (word[0] === word[1] ? null : word[1] + word[0] + word.slice(2)), 1);
    expect(list).toHaveLength(8);
    expect(await misses(list)).toEqual([]);
  });
});

describe('the name lexicon', () => {
  it('files every word of three letters or more under each of its one-letter deletions', async () => {
    const rows = await sql<{ variant: string; word: string }>`select variant, word from name_word_deletes`.execute(
      t.db.kysely,
    );
    const stored = rows.rows.map((r) => `${r.variant} ${r.word}`).sort();
    const expected = [...lexicon]
      .filter((word) => word.length >= 3)
      .flatMap((word) => oneLetterDeletions(word).map((variant) => `${variant} ${word}`))
      .sort();
    expect(stored.length).toBeGreaterThan(lexicon.size);
    expect(stored).toEqual(expected);
  });

  // Runs last: it adds companies and rebuilds the lexicon of this file's database.
  it('prefers the word one swap away over look-alikes that share more trigrams', async () => {
    // At 1M companies the lexicon holds many words closer by trigrams to a swapped word than the
    // word itself ("girll" shares 2 of 10 trigrams with "grill", 5 of 9 with "girllab").
    const [{ company, q }] = typos(1, swap, 7);
    const tokens = q.split(' ');
    const at = tokens.findIndex((token) => !lexicon.has(token.toLowerCase()) && /^[A-Za-z]{5,}$/.test(token));
    const max = await sql<{ id: number }>`select max(id)::int as id from legal_entities`.execute(t.db.kysely);
    const jurisdiction = await sql<{ id: number }>`
      select jurisdiction_id as id from legal_entities where id = ${company.id}`.execute(t.db.kysely);
    const lookAlikes = ['ab', 'ed', 'ic', 'on', 'us', 'er'].map((suffix, i) => {
      const name = tokens.map((token, j) => (j === at ? `${token}${suffix}` : token)).join(' ');
      return { id: max.rows[0].id + 1 + i, name };
    });
    for (const { id, name } of lookAlikes) {
      await sql`
        insert into legal_entities (id, uri, name, search_name, jurisdiction_id)
        values (${id}, ${`typo-look-alike-${id}`}, ${name}, ${normalizeName(name)}, ${jurisdiction.rows[0].id})`.execute(
        t.db.kysely,
      );
    }
    await rebuildNameWords(t.db);
    // Ranked against the corrected spelling, the company's exact name comes first.
    expect((await topIds(q))[0]).toBe(company.id);
  });
});
