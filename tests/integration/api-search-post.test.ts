import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_TREE_MAX_DEPTH, FILTER_TREE_MAX_NODES } from '../../core/search/filter-tree.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// POST …/search (docs/decisions/0020-api-keys-matching-reconciliation.md): nested any/all/not
// filters over the GET's own vocabulary, checked against SQL over the same rows.

const DATA = '/api/site/data/v1/legal_entities';

let t: TestApp;
/** The two jurisdictions with the most companies. */
let first: number;
let second: number;
beforeAll(async () => {
  t = await buildTestApp({ pages: false });
  const top = await sql<{ id: number }>`
    select jurisdiction_id as id from legal_entities group by 1 order by count(*) desc, 1 limit 2`.execute(t.db.kysely);
  [first, second] = top.rows.map((r) => Number(r.id));
});
afterAll(() => t?.close());

function post(url: string, body: unknown) {
  return t.app.inject({ method: 'POST', url, payload: body as object });
}

/** Every company id of a POST search, by following `next`. */
async function walk(url: string, body: Record<string, unknown>): Promise<number[]> {
  const ids: number[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const response = await post(url, { ...body, count: 25, ...(after ? { after } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    const { data, meta } = response.json();
    ids.push(...data.map((d: { legal_entities?: { id: number }; id: number }) => d.legal_entities?.id ?? d.id));
    if (!meta.next) return ids;
    after = meta.next;
  }
  throw new Error('more than 100 pages');
}

async function idsWhere(where: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await sql<{ id: number }>`select id from legal_entities b where ${where} order by id`.execute(
    t.db.kysely,
  );
  return rows.rows.map((r) => Number(r.id));
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('POST /api/site/data/v1/legal_entities/search', () => {
  it('any: the companies of either jurisdiction, each once, with the true total', async () => {
    const expected = await idsWhere(sql`jurisdiction_id in (${first}, ${second})`);
    const body = { filter: { any: [{ jurisdiction: String(first) }, { jurisdiction: String(second) }] } };
    const response = await post(`${DATA}/search`, body);
    expect(response.json().meta.total).toBe(expected.length);
    const walked = await walk(`${DATA}/search`, body);
    expect(new Set(walked).size).toBe(walked.length);
    expect(sorted(walked)).toEqual(expected);
  });

  it('not, nested in all and any: (first and not active) or second', async () => {
    const expected = await idsWhere(
      sql`(jurisdiction_id = ${first} and not coalesce(status_id = 1, false)) or jurisdiction_id = ${second}`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const walked = await walk(`${DATA}/search`, {
      filter: {
        any: [{ all: [{ jurisdiction: String(first) }, { not: { status: '1' } }] }, { jurisdiction: String(second) }],
      },
    });
    expect(sorted(walked)).toEqual(expected);
  });

  it('finds every company a filter does not, with not — unknown values included', async () => {
    const all = await idsWhere(sql`true`);
    const inFirst = await idsWhere(sql`jurisdiction_id = ${first}`);
    const walked = await walk(`${DATA}/search`, { filter: { not: { jurisdiction: String(first) } } });
    expect(walked.length).toBe(all.length - inFirst.length);
    expect(walked.some((id) => inFirst.includes(id))).toBe(false);
  });

  it('takes a name query, a sort and the sections as the GET does', async () => {
    const [row] = await t.db.kysely
      .selectFrom('legal_entities')
      .select(['id', 'name', 'jurisdiction_id'])
      .limit(1)
      .execute();
    const response = await post(`${DATA}/search`, {
      q: row.name,
      filter: { all: [{ jurisdiction: String(row.jurisdiction_id) }] },
      sections: 'le_legal_entities|le_addresses',
      count: 5,
    });
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json().data.map((d: { legal_entities: { id: number } }) => d.legal_entities.id);
    expect(ids).toContain(Number(row.id));
    expect(response.json().data[0]).toHaveProperty('addresses');
  });

  it('refuses a bad tree with a 400 naming where it is wrong', async () => {
    const cases: [unknown, string, string][] = [
      [
        { any: [{ jurisdiction: String(first) }, { colour: 'red' }] },
        'filter.any.1.colour',
        'unknown parameter colour',
      ],
      [{ any: [] }, 'filter.any', 'non-empty list'],
      [{ all: [{ jurisdiction: 1 }] }, 'filter.all.0.jurisdiction', 'must be a string'],
      [{ jurisdiction: 'x', status: '1' }, 'filter', 'exactly one key'],
      [[{ jurisdiction: '1' }], 'filter', 'must be an object'],
      [{ all: [{ 'dates[registration]:from': '20x' }] }, 'filter.all.0.dates[registration]:from', 'yyyy'],
    ];
    for (const [filter, parameter, message] of cases) {
      const response = await post(`${DATA}/search`, { filter });
      expect(response.statusCode, JSON.stringify(filter)).toBe(400);
      expect(response.json().error.details.parameter).toBe(parameter);
      expect(response.json().error.message).toContain(message);
    }
    let deep: unknown = { jurisdiction: String(first) };
    for (let i = 0; i < FILTER_TREE_MAX_DEPTH; i++) deep = { not: deep };
    const tooDeep = await post(`${DATA}/search`, { filter: deep });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error.message).toContain(`deeper than ${FILTER_TREE_MAX_DEPTH}`);
    const wide = { any: Array.from({ length: FILTER_TREE_MAX_NODES }, () => ({ jurisdiction: String(first) })) };
    const tooMany = await post(`${DATA}/search`, { filter: wide });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toContain(`more than ${FILTER_TREE_MAX_NODES} nodes`);
    const unknownField = await post(`${DATA}/search`, { filters: {} });
    expect(unknownField.statusCode).toBe(400);
  });
});

describe('POST …/search of a record section', () => {
  it('nests the section’s own filters and the company filters', async () => {
    const rows = await sql<{ id: number }>`
      select t.id from transactions t join legal_entities c on c.id = t.legal_entity_id
      where (t.type_id in (1, 4)) and not coalesce(c.jurisdiction_id = ${first}, false) order by t.id`.execute(
      t.db.kysely,
    );
    const expected = rows.rows.map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThan(0);
    const walked = await walk('/api/site/data/v1/transactions/search', {
      filter: {
        all: [{ any: [{ type: 'sale' }, { type: 'grant' }] }, { not: { company_jurisdiction: String(first) } }],
      },
    });
    expect(sorted(walked)).toEqual(expected);
  });

  it('is in the OpenAPI document beside its GET', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(document.paths['/api/site/data/v1/transactions/search'].post.operationId).toBe('searchTransactions');
    expect(document.paths[`${DATA}/search`].post.requestBody.content['application/json'].schema).toBeDefined();
  });
});
