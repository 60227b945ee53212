import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The API of a user's data (spec §7 "Users" and "Watchlists"): every route through app.inject,
// with the session cookie and CSRF header; guests get 401 (the cross-user sweep is its own file).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: false });
});
afterAll(() => t?.close());

const get = (url: string, user?: TestUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, user?: TestUser) =>
  postJson(t.app, method, url, body, user ? { cookie: user.cookie, csrf: user.csrf } : {});

describe('watchlists', () => {
  it('creates, lists, renames, describes and deletes a user’s lists, numbered per user', async () => {
    const user = await createSignedInUser(t.db, 'lists');
    const created = await send('POST', `/api/watchlists/users/${user.id}`, { name: '  Suppliers ' }, user);
    expect(created.statusCode).toBe(201);
    const list = created.json().watchlist;
    expect(list).toMatchObject({ number: 1, name: 'Suppliers', description: '', total_objects: 0 });
    const second = (
      await send('POST', `/api/watchlists/users/${user.id}`, { name: 'Rivals', description: 'Watch' }, user)
    ).json().watchlist;
    expect(second.number).toBe(2);

    const all = await get(`/api/watchlists/users/${user.id}`, user);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ count: 2, next: null });
    expect(all.json().data.map((l: { name: string }) => l.name)).toEqual(['Rivals', 'Suppliers']);
    expect((await get(`/api/watchlists/users/${user.id}?q=riv`, user)).json().data).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/api/watchlists/users/${user.id}?from=${today}&to=${today}`, user)).json().count).toBe(2);
    expect((await get(`/api/watchlists/users/${user.id}?to=2001-01-01`, user)).json().count).toBe(0);
    expect((await get(`/api/watchlists/users/${user.id}?count=1`, user)).json()).toMatchObject({
      count: 1,
      next: second.id,
    });
    const page2 = (await get(`/api/watchlists/users/${user.id}?count=1&after=${second.id}`, user)).json();
    expect(page2.data.map((l: { id: number }) => l.id)).toEqual([list.id]);

    const renamed = await send(
      'PATCH',
      `/api/watchlists/${list.id}`,
      { name: 'Key suppliers', description: 'Tier 1' },
      user,
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().watchlist).toMatchObject({ name: 'Key suppliers', description: 'Tier 1', number: 1 });

    const bad = await send('PATCH', `/api/watchlists/${list.id}`, { name: ' ' }, user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'bad_request',
      message: 'Enter a name.',
      details: { parameter: 'name' },
    });

    expect((await send('DELETE', `/api/watchlists/${second.id}`, undefined, user)).json()).toEqual({ deleted: 1 });
    expect((await get(`/api/watchlists/${second.id}`, user)).statusCode).toBe(404);
    expect((await get(`/api/watchlists/users/${user.id}`, user)).json().count).toBe(1);
  });

  it('adds companies by id and by pasted reference, tags them, removes tags and companies', async () => {
    const user = await createSignedInUser(t.db, 'objects');
    const list = (await send('POST', `/api/watchlists/users/${user.id}`, { name: 'Targets' }, user)).json().watchlist;
    const [a, b, c] = await someCompanies(t.db, 3);
    const added = await send(
      'POST',
      `/api/watchlists/${list.id}/objects`,
      {
        object_ids: [a.id, 999_999_999],
        company_refs: [b.companyNumber, `https://x.example/companies/details/${c.uri}/`, 'no such thing'],
        tags: ['key'],
      },
      user,
    );
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ added: 3, already: 0, not_found: [999_999_999, 'no such thing'] });
    expect(added.json().watchlist.total_objects).toBe(3);

    const again = await send(
      'POST',
      `/api/watchlists/${list.id}/objects`,
      { object_ids: [a.id], tags: ['supplier'] },
      user,
    );
    expect(again.json()).toMatchObject({ added: 0, already: 1, tagged: 1 });

    const detail = await get(`/api/watchlists/${list.id}`, user);
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.tags).toEqual(['key', 'supplier']);
    expect(body.objects.count).toBe(3);
    const objectA = body.objects.data.find((o: { object_id: number }) => o.object_id === a.id);
    expect(objectA.tags).toEqual(['key', 'supplier']);
    expect(objectA.company).toMatchObject({ id: a.id, uri: a.uri, name: a.name, company_number: a.companyNumber });
    expect((await get(`/api/watchlists/${list.id}?tag=supplier`, user)).json().objects.count).toBe(1);
    expect(
      (await get(`/api/watchlists/${list.id}?q=${encodeURIComponent(b.name)}`, user)).json().objects.data[0].object_id,
    ).toBe(b.id);
    const first = (await get(`/api/watchlists/${list.id}?count=2`, user)).json().objects;
    expect(first.count).toBe(2);
    const rest = (await get(`/api/watchlists/${list.id}?count=2&after=${first.next}`, user)).json().objects;
    expect(rest).toMatchObject({ count: 1, next: null });

    const untag = await send('DELETE', '/api/watchlist_tags', { watchlist_id: list.id, tag: 'key' }, user);
    expect(untag.json()).toEqual({ updated: 3 });
    expect((await get(`/api/watchlists/${list.id}`, user)).json().tags).toEqual(['supplier']);

    const removed = await send(
      'DELETE',
      '/api/watchlist_objects',
      { watchlist_id: list.id, object_ids: [a.id, b.id] },
      user,
    );
    expect(removed.json()).toEqual({ deleted: 2 });
    expect((await get(`/api/watchlists/${list.id}`, user)).json().watchlist.total_objects).toBe(1);

    const tooLong = await send(
      'POST',
      `/api/watchlists/${list.id}/objects`,
      { object_ids: [a.id], tags: ['x'.repeat(41)] },
      user,
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details.parameter).toBe('tag');
    const nothing = await send('POST', `/api/watchlists/${list.id}/objects`, {}, user);
    expect(nothing.statusCode).toBe(400);
  });
});

describe('browsing history, search history and saved searches', () => {
  it('records, lists with filters, corrects and deletes browsing history', async () => {
    const user = await createSignedInUser(t.db, 'browsing');
    const [a, b] = await someCompanies(t.db, 2, 10);
    const first = await send('POST', `/api/browsing_history/users/${user.id}`, { object_id: a.id }, user);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ object_id: a.id, company: { id: a.id, uri: a.uri, name: a.name } });
    await send('POST', `/api/browsing_history/users/${user.id}`, { object_id: b.id }, user);
    expect(
      (await send('POST', `/api/browsing_history/users/${user.id}`, { object_id: 999_999_999 }, user)).statusCode,
    ).toBe(404);

    const list = (await get(`/api/browsing_history/users/${user.id}`, user)).json();
    expect(list.data.map((e: { object_id: number }) => e.object_id)).toEqual([b.id, a.id]);
    expect(
      (await get(`/api/browsing_history/users/${user.id}?q=${encodeURIComponent(a.name)}`, user)).json().count,
    ).toBe(1);
    expect((await get(`/api/browsing_history/users/${user.id}?from=2001-13-01`, user)).statusCode).toBe(400);

    const moved = await send('PATCH', `/api/browsing_history/${first.json().id}`, {}, user);
    expect(moved.statusCode).toBe(200);
    expect((await get(`/api/browsing_history/users/${user.id}`, user)).json().data[0].object_id).toBe(a.id);
    const future = await send(
      'PATCH',
      `/api/browsing_history/${first.json().id}`,
      { created_at: '2999-01-01T00:00:00Z' },
      user,
    );
    expect(future.statusCode).toBe(400);

    expect((await send('DELETE', `/api/browsing_history/${first.json().id}`, undefined, user)).json()).toEqual({
      deleted: 1,
    });
    expect((await send('DELETE', `/api/browsing_history/users/${user.id}`, {}, user)).json()).toEqual({ deleted: 1 });
    expect((await get(`/api/browsing_history/users/${user.id}`, user)).json().count).toBe(0);
  });

  it('pages 50 entries by default', async () => {
    const user = await createSignedInUser(t.db, 'paging');
    const companies = await someCompanies(t.db, 60);
    await t.db.kysely
      .insertInto('browsing_history')
      .values(
        companies.map((c, i) => ({
          user_id: user.id,
          legal_entity_id: c.id,
          created_at: new Date(Date.now() - i * 1000),
        })),
      )
      .execute();
    const page = (await get(`/api/browsing_history/users/${user.id}`, user)).json();
    expect(page.count).toBe(50);
    const next = (await get(`/api/browsing_history/users/${user.id}?after=${page.next}`, user)).json();
    expect(next).toMatchObject({ count: 10, next: null });
    const seen = new Set([...page.data, ...next.data].map((e: { object_id: number }) => e.object_id));
    expect(seen.size).toBe(60);
  });

  it('records searches of any section (the same one again moves the entry), corrects counts, clears', async () => {
    const user = await createSignedInUser(t.db, 'searches');
    const url = `/api/search_history/users/${user.id}`;
    const made = await send(
      'POST',
      url,
      { section: 'companies', query: '/de/companies/search/?q=bank', results: 12, summary: '“bank”' },
      user,
    );
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      section: 'companies',
      query: '/companies/search/?q=bank',
      results: 12,
      results_is_estimate: false,
      summary: '“bank”',
    });
    const again = await send(
      'POST',
      url,
      { section: 'companies', query: '/companies/search/?q=bank', results: 52_000, results_is_estimate: true },
      user,
    );
    expect(again.json()).toMatchObject({ id: made.json().id, results: 52_000, results_is_estimate: true });
    await send('POST', url, { section: 'vessels', query: '/vessels/search/f/type-tanker-3/', results: 4 }, user);
    const bad = await send('POST', url, { section: 'vessels', query: 'https://evil.example/', results: 1 }, user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.parameter).toBe('query');

    expect((await get(url, user)).json().count).toBe(2);
    expect((await get(`${url}?section=vessels`, user)).json().data[0].results).toBe(4);
    expect((await get(`${url}?q=bank`, user)).json().data[0].results).toBe(52_000);

    // A count learnt later is exact unless said otherwise.
    const fixed = await send('PATCH', `/api/search_history/${made.json().id}`, { results: 20 }, user);
    expect(fixed.json()).toMatchObject({ results: 20, results_is_estimate: false });
    expect((await send('DELETE', `/api/search_history/${made.json().id}`, undefined, user)).json()).toEqual({
      deleted: 1,
    });
    expect((await send('DELETE', url, { from: '2000-01-01' }, user)).json()).toEqual({ deleted: 1 });
  });

  it('saves searches under a name, renames, re-points and deletes them', async () => {
    const user = await createSignedInUser(t.db, 'saved');
    const url = `/api/saved_searches/users/${user.id}`;
    const saved = await send(
      'POST',
      url,
      { name: 'German banks', section: 'companies', query: '/companies/search/f/jurisdiction-germany-276/?q=bank' },
      user,
    );
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ name: 'German banks', section: 'companies' });
    const id = saved.json().id;
    expect((await get(url, user)).json().data.map((s: { id: number }) => s.id)).toEqual([id]);
    expect((await get(`${url}?q=german`, user)).json().count).toBe(1);
    expect((await get(`${url}?section=vessels`, user)).json().count).toBe(0);

    expect((await send('PATCH', `/api/saved_searches/${id}`, { name: 'Banks (DE)' }, user)).json().name).toBe(
      'Banks (DE)',
    );
    const moved = await send(
      'PATCH',
      `/api/saved_searches/${id}`,
      { section: 'vessels', query: '/vessels/search/' },
      user,
    );
    expect(moved.json()).toMatchObject({ section: 'vessels', query: '/vessels/search/' });
    const mismatch = await send('PATCH', `/api/saved_searches/${id}`, { query: '/companies/search/' }, user);
    expect(mismatch.statusCode).toBe(400);
    expect(
      (await send('POST', url, { name: '', section: 'companies', query: '/companies/search/' }, user)).statusCode,
    ).toBe(400);

    expect((await send('DELETE', `/api/saved_searches/${id}`, undefined, user)).json()).toEqual({ deleted: 1 });
    expect((await send('DELETE', `/api/saved_searches/${id}`, undefined, user)).statusCode).toBe(404);
  });
});

describe('guests and CSRF', () => {
  it('answers a guest 401 before looking at the request, and a cookie call without the CSRF header 403', async () => {
    const user = await createSignedInUser(t.db, 'csrf');
    const guest = await send('POST', `/api/watchlists/users/${user.id}`, { bogus: true });
    expect(guest.statusCode).toBe(401);
    expect(guest.json().error.code).toBe('unauthorized');
    expect((await get(`/api/search_history/users/${user.id}?count=abc`)).statusCode).toBe(401);
    const noToken = await postJson(
      t.app,
      'POST',
      `/api/watchlists/users/${user.id}`,
      { name: 'x' },
      { cookie: user.cookie },
    );
    expect(noToken.statusCode).toBe(403);
    expect((await get(`/api/watchlists/users/${user.id}`, user)).json().count).toBe(0);
  });
});
