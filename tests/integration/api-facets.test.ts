import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// `facets=` on the companies data API (ADR 0020): the search page's facet counts in `meta.facets`.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const DATA = '/api/site/data/v1/legal_entities';
const json = async (url: string) => {
  const response = await t.app.inject({ url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('facets= on the companies data API', () => {
  it('counts the asked fields among the matches, each count what that filter finds', async () => {
    const page = await json(`${DATA}?count=1&facets=jurisdiction,status`);
    expect(Object.keys(page.meta.facets).sort()).toEqual(['jurisdiction', 'status']);
    const [top] = page.meta.facets.jurisdiction;
    expect(top.count).toBeGreaterThan(0);
    const filtered = await json(`${DATA}?count=1&jurisdiction=${top.id}`);
    expect(filtered.meta.total).toBe(top.count);
    // Facets follow the other filters: the statuses within that jurisdiction, each what both filters find.
    const within = await json(`${DATA}?count=1&jurisdiction=${top.id}&facets=status`);
    const [status] = within.meta.facets.status;
    expect(status.count).toBeLessThanOrEqual(top.count);
    const both = await json(`${DATA}?count=1&jurisdiction=${top.id}&status=${status.id}`);
    expect(both.meta.total).toBe(status.count);
  });

  it('works with a name query, and leaves meta as it was without facets=', async () => {
    const [first] = (await json(`${DATA}?count=1`)).data;
    const word = first.legal_entities.name.split(' ')[0];
    const named = await json(`${DATA}?q=${encodeURIComponent(word)}&facets=size`);
    expect(named.meta.facets.size.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBeGreaterThan(0);
    expect((await json(`${DATA}?count=1`)).meta).not.toHaveProperty('facets');
  });

  it('names a field it cannot count', async () => {
    const response = await t.app.inject({ url: `${DATA}?facets=jurisdiction,colour` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.parameter).toBe('facets');
  });
});
