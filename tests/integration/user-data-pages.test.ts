import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { hasPurchased, listPurchases, purchaseProfile } from '../../core/purchases/purchases.ts';
import { textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, withContactToUnlock } from '../support/users.ts';

// The pages of a user's data: company lists, browsing and search history, saved
// searches; "add to list" on profiles and search results; the sign-in gate for guests. Plain
// HTML forms through app.inject over the production build.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);
const noindex = '<meta name="robots" content="noindex, nofollow"/>';

/** The attributes of every `<tag …>` of a page (React writes them in its own order). */
function tagsNamed(html: string, tag: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${tag}\\s([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

/** True when the page has a `<tag>` with all these attribute values (a RegExp tests the value). */
function hasTag(html: string, tag: string, attributes: Record<string, string | RegExp>): boolean {
  return tagsNamed(html, tag).some((found) =>
    Object.entries(attributes).every(([name, want]) =>
      typeof want === 'string' ? found[name] === want : found[name] !== undefined && want.test(found[name]),
    ),
  );
}

async function countRows(table: 'browsing_history' | 'search_history' | 'watchlists', userId?: number) {
  let query = t.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

describe('guests', () => {
  it('see what lists are, and a "Create a list" that opens the sign-in popup (a sign-in link without JavaScript)', async () => {
    const res = await get('/companies/lists/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(noindex);
    expect(res.body).toContain('<dialog id="sign-in-gate"');
    expect(res.body).toMatch(
      /<a class="button gated" href="\/account\/login\/\?returnTo=%2Fcompanies%2Flists%2F%23pending%3Dcreate-list" data-gate="create-list"/,
    );
    // The island is inlined: no script file.
    expect(res.body).not.toMatch(/<script[^>]+src=/);
    expect(res.body).toContain('showModal');
  });

  it('are refused every user-data page and form with 401, whatever the page showed', async () => {
    const [company] = await someCompanies(t.db, 1);
    for (const path of [
      '/companies/lists/1/',
      '/companies/history/browsing/',
      '/companies/history/search/',
      '/dashboard/history/views/companies/',
      '/dashboard/history/search/companies/',
      '/dashboard/history/purchases/profiles/companies/',
      '/dashboard/saved-searches/',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(401);
      expect(textOf(res.body), path).toContain('Sign in to proceed');
    }
    const lists = await countRows('watchlists');
    for (const [path, fields] of [
      ['/companies/lists/', { intent: 'create', name: 'Mine' }],
      ['/companies/lists/add/', { ids: String(company.id), list: 'new' }],
      ['/dashboard/saved-searches/', { intent: 'save', name: 'x', section: 'companies', query: '/companies/search/' }],
      ['/companies/history/browsing/', { intent: 'clear' }],
    ] as const) {
      expect((await post(path, fields)).statusCode, path).toBe(401);
    }
    expect(await countRows('watchlists')).toBe(lists);
  });

  it('open a profile and search without any database write, and get gated "add to list" and "save search"', async () => {
    const [company] = await someCompanies(t.db, 1, 3);
    const views = await countRows('browsing_history');
    const searches = await countRows('search_history');
    const profile = await get(`/companies/details/${company.uri}/`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain(
      `href="/account/login/?returnTo=${encodeURIComponent(`/companies/details/${company.uri}/#pending=add-to-list`)}" data-gate="add-to-list"`,
    );
    const search = await get(`/companies/search/?q=${encodeURIComponent(company.name.split(' ')[0])}`);
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain('data-gate="save-search"');
    expect(
      hasTag(search.body, 'input', {
        type: 'checkbox',
        name: 'ids',
        value: /^\d+$/,
        form: 'list-add',
        'aria-label': /^Select: /,
      }),
    ).toBe(true);
    expect(await countRows('browsing_history')).toBe(views);
    expect(await countRows('search_history')).toBe(searches);
  });
});

describe('company lists', () => {
  it('creates, renames, describes and deletes lists, with the columns List, Companies, Description', async () => {
    const user = await createSignedInUser(t.db, 'pages-lists');
    const empty = await get('/companies/lists/', user);
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('private, no-store');
    expect(textOf(empty.body)).toContain('You have no lists yet');

    const created = await post(
      '/companies/lists/',
      { intent: 'create', name: 'Suppliers', description: 'Tier 1' },
      user,
    );
    expect(created.statusCode).toBe(302);
    expect(created.headers.location).toBe('/companies/lists/1/?done=created');

    const refused = await post('/companies/lists/', { intent: 'create', name: '   ' }, user);
    expect(refused.statusCode).toBe(400);
    expect(textOf(refused.body)).toContain('Enter a name.');

    const page = await get('/companies/lists/', user);
    for (const label of ['List', 'Companies', 'Description'])
      expect(page.body).toContain(`<th scope="col">${label}</th>`);
    expect(page.body).toContain('<a href="/companies/lists/1/">Suppliers</a>');
    expect(textOf(page.body)).toContain('Tier 1');
    const list = await t.db.kysely
      .selectFrom('watchlists')
      .select(['id'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();

    const renamed = await post(
      '/companies/lists/',
      { intent: 'update', id: String(list.id), name: 'Key suppliers', description: 'Tier 1 and 2' },
      user,
    );
    expect(renamed.headers.location).toBe('/companies/lists/?done=updated');
    expect(textOf((await get('/companies/lists/?done=updated', user)).body)).toContain('Key suppliers');

    // Another user's list id is not found, and changes nothing.
    const other = await createSignedInUser(t.db, 'pages-other');
    expect((await post('/companies/lists/', { intent: 'delete', id: String(list.id) }, other)).statusCode).toBe(404);
    expect((await get('/companies/lists/1/', other)).statusCode).toBe(404);

    expect((await post('/companies/lists/', { intent: 'delete', id: String(list.id) }, user)).headers.location).toBe(
      '/companies/lists/?done=deleted',
    );
    expect(await countRows('watchlists', user.id)).toBe(0);
  });

  it('refuses a form without the session’s CSRF token', async () => {
    const user = await createSignedInUser(t.db, 'pages-csrf');
    const response = await t.app.inject({
      method: 'POST',
      url: '/companies/lists/',
      payload: 'intent=create&name=Sneaky',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: user.cookie },
    });
    expect(response.statusCode).toBe(403);
    expect(await countRows('watchlists', user.id)).toBe(0);
  });

  it('shows a list with the spec columns; adds pasted companies, tags, untags and removes them', async () => {
    const user = await createSignedInUser(t.db, 'pages-detail');
    await post('/companies/lists/', { intent: 'create', name: 'Targets' }, user);
    const [a, b, c] = await someCompanies(t.db, 3, 30);
    const added = await post(
      '/companies/lists/1/',
      { intent: 'add', refs: `${a.companyNumber}\n${b.id}, /companies/details/${c.uri}/`, tags: 'prospect' },
      user,
    );
    expect(added.statusCode).toBe(302);
    expect(added.headers.location).toBe('/companies/lists/1/?done=added&count=3');

    const page = await get('/companies/lists/1/?done=added&count=3', user);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(noindex);
    for (const label of [
      'Legal name',
      'Status',
      'Jurisdiction',
      'Registration date',
      'Primary industry',
      'Employees',
    ]) {
      expect(page.body).toContain(`<th scope="col">${label}</th>`);
    }
    expect(textOf(page.body)).toContain('3 companies added.');
    for (const company of [a, b, c]) expect(page.body).toContain(`href="/companies/details/${company.uri}/"`);
    expect(hasTag(page.body, 'input', { type: 'checkbox', name: 'ids', value: /^\d+$/, form: 'list-rows' })).toBe(true);
    expect(page.body).toContain('<a href="/companies/lists/1/?tag=prospect">prospect</a>');

    const missing = await post('/companies/lists/1/', { intent: 'add', refs: 'NO-SUCH-NUMBER' }, user);
    expect(missing.statusCode).toBe(400);
    expect(textOf(missing.body)).toContain('No company found for NO-SUCH-NUMBER');

    const tagged = await post('/companies/lists/1/', { intent: 'tag', tag: 'key', ids: [String(a.id)] }, user);
    expect(tagged.headers.location).toBe('/companies/lists/1/?done=tagged&count=1');
    const byTag = await get('/companies/lists/1/?tag=key', user);
    expect(byTag.body).toContain(`/companies/details/${a.uri}/`);
    expect(byTag.body).not.toContain(`/companies/details/${b.uri}/`);
    const untagged = await post(
      '/companies/lists/1/',
      { intent: 'untag', tag: 'prospect', ids: [String(a.id), String(b.id)] },
      user,
    );
    expect(untagged.headers.location).toBe('/companies/lists/1/?done=untagged&count=2');

    const removed = await post('/companies/lists/1/', { intent: 'remove', ids: [String(b.id)] }, user);
    expect(removed.headers.location).toBe('/companies/lists/1/?done=removed&count=1');
    const after = await get('/companies/lists/1/', user);
    expect(after.body).not.toContain(`/companies/details/${b.uri}/`);
    expect(textOf(after.body)).toContain('2 companies');
    expect((await post('/companies/lists/1/', { intent: 'remove' }, user)).statusCode).toBe(400);
  });

  it('adds a company from its profile (back to the profile, which names the list) and ticked rows from search results', async () => {
    const user = await createSignedInUser(t.db, 'pages-add');
    const [company, other] = await someCompanies(t.db, 2, 40);
    const profile = await get(`/companies/details/${company.uri}/`, user);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain('action="/companies/lists/add/"');
    expect(profile.body).toContain('value="My companies"');

    const fromProfile = await post(
      '/companies/lists/add/',
      { ids: String(company.id), list: 'new', new_name: '', returnTo: `/companies/details/${company.uri}/` },
      user,
    );
    expect(fromProfile.statusCode).toBe(302);
    expect(fromProfile.headers.location).toBe(`/companies/details/${company.uri}/`);
    const back = await get(`/companies/details/${company.uri}/`, user);
    expect(textOf(back.body)).toContain('In your lists: My companies');

    const word = other.name.split(' ')[0];
    const search = await get(`/companies/search/?q=${encodeURIComponent(word)}`, user);
    expect(search.statusCode).toBe(200);
    expect(hasTag(search.body, 'form', { method: 'post', action: '/companies/lists/add/', id: 'list-add' })).toBe(true);
    expect(search.body).toMatch(/<option value="1"[^>]*>My companies<\/option>/);
    const fromSearch = await post(
      '/companies/lists/add/',
      { ids: [String(other.id), String(company.id)], list: '1' },
      user,
    );
    expect(fromSearch.headers.location).toBe('/companies/lists/1/?done=added&count=1');
    const list = await get('/companies/lists/1/', user);
    expect(list.body).toContain(`/companies/details/${other.uri}/`);
    expect((await post('/companies/lists/add/', { list: '1' }, user)).statusCode).toBe(400);
    expect((await post('/companies/lists/add/', { ids: String(other.id), list: '77' }, user)).statusCode).toBe(404);
  });
});

describe('histories', () => {
  it('records the profiles a signed-in user opens and shows them: Viewed on, Legal name, Jurisdiction', async () => {
    const user = await createSignedInUser(t.db, 'pages-views');
    const [a, b] = await someCompanies(t.db, 2, 50);
    await get(`/companies/details/${a.uri}/`, user);
    await get(`/companies/details/${b.uri}/`, user);
    await get(`/companies/details/${a.uri}/`, user);
    expect(await countRows('browsing_history', user.id)).toBe(2);
    for (const path of ['/companies/history/browsing/', '/dashboard/history/views/companies/']) {
      const page = await get(path, user);
      expect(page.statusCode, path).toBe(200);
      expect(page.body).toContain(noindex);
      for (const label of ['Viewed on', 'Legal name', 'Jurisdiction'])
        expect(page.body).toContain(`<th scope="col">${label}</th>`);
      const names = [...page.body.matchAll(/<a href="\/companies\/details\/([^/"]+)\/">/g)].map((m) => m[1]);
      expect(names).toEqual([a.uri, b.uri]);
    }
    const filtered = await get(`/companies/history/browsing/?q=${encodeURIComponent(b.name)}`, user);
    expect(filtered.body).toContain(`/companies/details/${b.uri}/`);
    expect(filtered.body).not.toContain(`/companies/details/${a.uri}/`);

    const cleared = await post('/companies/history/browsing/', { intent: 'clear' }, user);
    expect(cleared.headers.location).toBe('/companies/history/browsing/?done=cleared&count=2');
    expect(textOf((await get('/companies/history/browsing/', user)).body)).toContain('No companies yet');
  });

  it('records searches of any section with their result count: Date (Searched on), Query, Results', async () => {
    const user = await createSignedInUser(t.db, 'pages-searches');
    const [company] = await someCompanies(t.db, 1, 60);
    const word = company.name.split(' ')[0];
    await get(`/companies/search/?q=${encodeURIComponent(word)}`, user);
    await get('/vessels/search/', user); // nothing searched for: not kept
    await get('/companies/search/?status=1', user);
    const entries = await t.db.kysely
      .selectFrom('search_history')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [e.section, e.query])).toEqual([
      ['companies', `/companies/search/?q=${encodeURIComponent(word).replace(/%20/g, '+')}`],
      ['companies', '/companies/search/?status=1'],
    ]);
    expect(entries[0].results).toBeGreaterThan(0);
    expect(entries[0].summary).toBe(`“${word}”`);

    const page = await get('/companies/history/search/', user);
    for (const label of ['Date', 'Query', 'Results']) expect(page.body).toContain(`<th scope="col">${label}</th>`);
    expect(page.body).toContain(`href="/companies/search/?status=1"`);
    expect(textOf(page.body)).toContain(`Companies: “${word}”`);
    const dashboard = await get('/de/dashboard/history/search/companies/', user);
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain('<th scope="col">Gesucht am</th>');
    expect(dashboard.body).toContain('href="/de/companies/search/?status=1"');

    // Summaries read in the reader's language, whatever language the search was made in (the
    // path is kept, not English text): the chip labels of the search page.
    await get('/fr/companies/search/?jurisdiction=276', user);
    for (const [lang, summary] of [
      ['', 'Companies: Jurisdiction: Germany'],
      ['/de', 'Unternehmen: Rechtsraum: Deutschland'],
      ['/fr', 'Entreprises: Juridiction: Allemagne'],
    ]) {
      for (const path of ['/companies/history/search/', '/dashboard/']) {
        expect(textOf((await get(`${lang}${path}`, user)).body), `${lang}${path}`).toContain(summary);
      }
    }

    const id = entries[0].id;
    expect(
      (await post('/companies/history/search/', { intent: 'delete', id: String(id) }, user)).headers.location,
    ).toBe('/companies/history/search/?done=deleted');
    expect(await countRows('search_history', user.id)).toBe(2);
  });

  it('shows purchased profiles: Company, Jurisdiction, Purchased on; removing one hides it, the profile stays bought', async () => {
    const user = await createSignedInUser(t.db, 'pages-purchases');
    const path = '/dashboard/history/purchases/profiles/companies/';
    expect(textOf((await get(path, user)).body)).toContain('You have not bought any company profiles yet.');
    const [a, b] = await someCompanies(t.db, 2, 70);
    await withContactToUnlock(t.db, [a.id, b.id]);
    const other = await createSignedInUser(t.db, 'pages-purchases-other');
    await grantCredits(t.db, user.id, 10);
    await grantCredits(t.db, other.id, 10);
    await purchaseProfile(t.db, user.id, a.id);
    await purchaseProfile(t.db, user.id, b.id);
    await purchaseProfile(t.db, other.id, a.id);

    const page = await get(path, user);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(noindex);
    for (const label of ['Company', 'Jurisdiction', 'Purchased on'])
      expect(page.body).toContain(`<th scope="col">${label}</th>`);
    const uris = (body: string) => [...body.matchAll(/<a href="\/companies\/details\/([^/"]+)\/">/g)].map((m) => m[1]);
    expect(uris(page.body)).toEqual([b.uri, a.uri]);
    expect(uris((await get(`${path}?q=${encodeURIComponent(a.name)}`, user)).body)).toEqual([a.uri]);
    expect((await get(`/de${path}`, user)).body).toContain('<th scope="col">Gekauft am</th>');

    const [bought] = (await listPurchases(t.db, user.id, { q: b.name })).data;
    const removed = await post(path, { intent: 'delete', id: String(bought.id) }, user);
    expect(removed.headers.location).toBe(`${path}?done=deleted`);
    expect(uris((await get(path, user)).body)).toEqual([a.uri]);
    expect(await hasPurchased(t.db, user.id, b.id)).toBe(true);
    // Another user's purchase is not theirs to remove.
    const [theirs] = (await listPurchases(t.db, other.id)).data;
    expect((await post(path, { intent: 'delete', id: String(theirs.id) }, user)).statusCode).toBe(404);

    const cleared = await post(path, { intent: 'clear' }, user);
    expect(cleared.headers.location).toBe(`${path}?done=cleared&count=1`);
    expect(textOf((await get(path, user)).body)).toContain('You have not bought any company profiles yet.');
    expect(uris((await get(path, other)).body)).toEqual([a.uri]);
  });
});

describe('saved searches', () => {
  it('saves the search of a page under a name, lists it with a link that runs it, renames and deletes it', async () => {
    const user = await createSignedInUser(t.db, 'pages-saved');
    const page = await get('/companies/search/?status=1', user);
    expect(
      hasTag(page.body, 'form', { method: 'post', action: '/dashboard/saved-searches/', class: 'save-search' }),
    ).toBe(true);
    expect(hasTag(page.body, 'input', { type: 'hidden', name: 'query', value: '/companies/search/?status=1' })).toBe(
      true,
    );

    const saved = await post(
      '/dashboard/saved-searches/',
      { intent: 'save', name: 'Active companies', section: 'companies', query: '/companies/search/?status=1' },
      user,
    );
    expect(saved.headers.location).toBe('/dashboard/saved-searches/?done=saved');
    const list = await get('/dashboard/saved-searches/', user);
    expect(list.body).toContain(noindex);
    expect(list.body).toContain('<a href="/companies/search/?status=1">Active companies</a>');
    expect((await get('/companies/search/?status=1', user)).statusCode).toBe(200);

    const bad = await post(
      '/dashboard/saved-searches/',
      { intent: 'save', name: 'Evil', section: 'companies', query: 'https://evil.example/' },
      user,
    );
    expect(bad.statusCode).toBe(400);
    const row = await t.db.kysely
      .selectFrom('saved_searches')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    await post('/dashboard/saved-searches/', { intent: 'rename', id: String(row.id), name: 'Active' }, user);
    expect((await get('/dashboard/saved-searches/', user)).body).toContain('>Active</a>');
    await post('/dashboard/saved-searches/', { intent: 'delete', id: String(row.id) }, user);
    expect(textOf((await get('/dashboard/saved-searches/', user)).body)).toContain('No saved searches yet');
  });
});
