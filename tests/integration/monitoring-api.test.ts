import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../support/accounts.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// The tracking API (spec §7 "Tracking"): existing_objects_tracking and new_objects_tracking, each
// GET and POST on a user, GET one, PATCH, DELETE and a status PATCH; 50 a page by default; a user
// reaches only their own trackings.

let t: TestApp;
let a: TestUser;
let b: TestUser;
let companies: { id: number; uri: string; name: string }[];

beforeAll(async () => {
  t = await buildTestApp();
  a = await createSignedInUser(t.db, 'track-a');
  b = await createSignedInUser(t.db, 'track-b');
  companies = await someCompanies(t.db, 60, 100);
});
afterAll(() => t?.close());

const as = (user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  postJson(t.app, method, url, body ?? {}, { cookie: user.cookie, csrf: user.csrf });
const get = (user: TestUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });

describe('existing_objects_tracking', () => {
  it('tracks a company, lists it, reads it, pauses it and stops tracking it', async () => {
    const c = companies[0];
    const created = await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c.id });
    expect(created.statusCode).toBe(201);
    const tracking = created.json().tracking;
    expect(tracking).toMatchObject({ object_id: c.id, name: c.name, status: 'active', reports: 0 });
    expect(created.json().created).toBe(true);

    const again = await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c.id });
    expect(again.json()).toMatchObject({ created: false, tracking: { id: tracking.id } });

    const list = (await get(a, `/api/existing_objects_tracking/users/${a.id}`)).json();
    expect(list.data.map((x: { id: number }) => x.id)).toContain(tracking.id);

    const one = await get(a, `/api/existing_objects_tracking/${tracking.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().tracking.company.uri).toBe(c.uri);

    const paused = await as(a, 'PATCH', `/api/existing_objects_tracking/${tracking.id}/status`, { status: 'paused' });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().tracking.status).toBe('paused');
    const onlyPaused = (await get(a, `/api/existing_objects_tracking/users/${a.id}?status=paused`)).json();
    expect(onlyPaused.data.map((x: { id: number }) => x.id)).toEqual([tracking.id]);
    const resumed = await as(a, 'PATCH', `/api/existing_objects_tracking/${tracking.id}`, { status: 'active' });
    expect(resumed.json().tracking.status).toBe('active');

    expect((await as(a, 'DELETE', `/api/existing_objects_tracking/${tracking.id}`)).json()).toEqual({ deleted: 1 });
    expect((await get(a, `/api/existing_objects_tracking/${tracking.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const unknown = await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: 999_999_999 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.parameter).toBe('object_id');
    const missing = await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, {});
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain('object_id');
    const c = companies[1];
    const tracking = (await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c.id })).json()
      .tracking;
    const badStatus = await as(a, 'PATCH', `/api/existing_objects_tracking/${tracking.id}/status`, { status: 'on' });
    expect(badStatus.statusCode).toBe(400);
    expect(JSON.stringify(badStatus.json())).toContain('status');
    const badCount = await get(a, `/api/existing_objects_tracking/users/${a.id}?count=0`);
    expect(badCount.statusCode).toBe(400);
  });

  it('pages by 50 unless asked, newest first, and the next page continues', async () => {
    const user = await createSignedInUser(t.db, 'track-paging');
    for (const c of companies.slice(0, 55)) {
      const r = await as(user, 'POST', `/api/existing_objects_tracking/users/${user.id}`, { object_id: c.id });
      expect(r.statusCode).toBe(201);
    }
    const first = (await get(user, `/api/existing_objects_tracking/users/${user.id}`)).json();
    expect(first.count).toBe(50);
    expect(first.data[0].object_id).toBe(companies[54].id);
    expect(first.next).not.toBeNull();
    const second = (await get(user, `/api/existing_objects_tracking/users/${user.id}?after=${first.next}`)).json();
    expect(second.count).toBe(5);
    expect(second.next).toBeNull();
    const ids = new Set([...first.data, ...second.data].map((x: { object_id: number }) => x.object_id));
    expect(ids.size).toBe(55);
  });

  it('serves only the owner: another user gets 403 on the user and 404 on the tracking; a guest 401', async () => {
    const c = companies[2];
    const tracking = (await as(a, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c.id })).json()
      .tracking;
    expect((await get(b, `/api/existing_objects_tracking/users/${a.id}`)).statusCode).toBe(403);
    expect((await as(b, 'POST', `/api/existing_objects_tracking/users/${a.id}`, { object_id: c.id })).statusCode).toBe(
      403,
    );
    expect((await get(b, `/api/existing_objects_tracking/${tracking.id}`)).statusCode).toBe(404);
    expect(
      (await as(b, 'PATCH', `/api/existing_objects_tracking/${tracking.id}/status`, { status: 'paused' })).statusCode,
    ).toBe(404);
    expect((await as(b, 'DELETE', `/api/existing_objects_tracking/${tracking.id}`)).statusCode).toBe(404);
    expect((await get(null, `/api/existing_objects_tracking/users/${a.id}`)).statusCode).toBe(401);
    const guestPost = await postJson(t.app, 'POST', `/api/existing_objects_tracking/users/${a.id}`, {
      object_id: c.id,
    });
    expect(guestPost.statusCode).toBe(401);
    // A's tracking is as it was.
    const still = (await get(a, `/api/existing_objects_tracking/${tracking.id}`)).json().tracking;
    expect(still.status).toBe('active');
    expect((await get(b, `/api/existing_objects_tracking/users/${b.id}`)).json().data).toEqual([]);
  });
});

describe('new_objects_tracking', () => {
  it('creates a tracking from a companies search, renames, pauses and deletes it', async () => {
    const created = await as(a, 'POST', `/api/new_objects_tracking/users/${a.id}`, {
      name: ' German banks ',
      query: '/de/companies/search/?jurisdiction=276&q=bank',
    });
    expect(created.statusCode).toBe(201);
    const tracking = created.json().tracking;
    expect(tracking).toMatchObject({
      name: 'German banks',
      query: '/companies/search/?jurisdiction=276&q=bank',
      status: 'active',
    });
    const renamed = await as(a, 'PATCH', `/api/new_objects_tracking/${tracking.id}`, { name: 'Banks' });
    expect(renamed.json().tracking.name).toBe('Banks');
    const paused = await as(a, 'PATCH', `/api/new_objects_tracking/${tracking.id}/status`, { status: 'paused' });
    expect(paused.json().tracking.status).toBe('paused');
    expect((await get(a, `/api/new_objects_tracking/${tracking.id}`)).json().tracking.status).toBe('paused');
    expect((await get(b, `/api/new_objects_tracking/${tracking.id}`)).statusCode).toBe(404);
    expect((await as(b, 'PATCH', `/api/new_objects_tracking/${tracking.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await get(b, `/api/new_objects_tracking/users/${a.id}`)).statusCode).toBe(403);
    expect((await as(a, 'DELETE', `/api/new_objects_tracking/${tracking.id}`)).statusCode).toBe(200);
    expect((await get(a, `/api/new_objects_tracking/${tracking.id}`)).statusCode).toBe(404);
  });

  it('refuses criteria that are not a companies search, and an empty name', async () => {
    for (const query of ['https://evil.example/companies/search/', '/vessels/search/', '/companies/search/?nope=1']) {
      const r = await as(a, 'POST', `/api/new_objects_tracking/users/${a.id}`, { name: 'X', query });
      expect(r.statusCode, query).toBe(400);
      expect(r.json().error.details.parameter).toBe('query');
    }
    const noName = await as(a, 'POST', `/api/new_objects_tracking/users/${a.id}`, {
      name: '  ',
      query: '/companies/search/',
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.details.parameter).toBe('name');
  });
});
