import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackCompany } from '../../core/monitoring/existing-trackings.ts';
import { textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The monitoring pages (spec §2): the spec's columns, empty states, the Track buttons on profiles,
// search results and lists, pause/resume/stop, defining a new-company tracking; guests get the
// sign-in gate and the server refuses them with 401. Plain HTML forms over the production build.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);

function headers(html: string): string[] {
  return [...html.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
}

describe('guests', () => {
  it('get a gated "Track updates" on a profile and are refused the pages and the form with 401', async () => {
    const [company] = await someCompanies(t.db, 1, 5);
    const profile = await get(`/companies/details/${company.uri}/`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toMatch(/<a class="button gated" href="[^"]*pending%3Dtrack" data-gate="track"/);
    expect(profile.body).toContain('<dialog id="sign-in-gate"');
    for (const path of [
      '/companies/monitoring/updates/',
      '/companies/monitoring/updates/reports/',
      '/companies/monitoring/updates/sections/?tracking=1',
      '/companies/monitoring/new/',
      '/companies/monitoring/new/reports/',
      '/companies/monitoring/new/add/',
    ]) {
      expect((await get(path)).statusCode, path).toBe(401);
    }
    const tracked = await post('/companies/monitoring/track/', { ids: String(company.id) });
    expect(tracked.statusCode).toBe(401);
  });
});

describe('signed-in users', () => {
  it('see empty states with the spec’s columns once there is something to show', async () => {
    const user = await createSignedInUser(t.db, 'monitor-empty');
    const updates = await get('/companies/monitoring/updates/', user);
    expect(updates.statusCode).toBe(200);
    expect(updates.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(textOf(updates.body)).toContain('You track no companies yet');
    expect(textOf((await get('/de/companies/monitoring/new/', user)).body)).toContain(
      'Sie beobachten noch keine Suchen',
    );
    expect(textOf((await get('/fr/companies/monitoring/updates/reports/', user)).body)).toContain(
      'Aucun rapport pour l’instant',
    );
  });

  it('track a company from its profile, see it listed, pause it and stop tracking it', async () => {
    const user = await createSignedInUser(t.db, 'monitor-profile');
    const [company] = await someCompanies(t.db, 1, 7);
    const profilePath = `/companies/details/${company.uri}/`;
    const before = await get(profilePath, user);
    expect(before.body).toContain('action="/companies/monitoring/track/"');
    const tracked = await post(
      '/companies/monitoring/track/',
      { ids: String(company.id), returnTo: profilePath },
      user,
    );
    expect(tracked.statusCode).toBe(302);
    expect(tracked.headers.location).toBe(profilePath);
    expect(textOf((await get(profilePath, user)).body)).toContain('You track this company’s updates.');

    const page = await get('/companies/monitoring/updates/', user);
    expect(headers(page.body)).toEqual(['Legal name', 'Jurisdiction', 'Monitoring status', 'Told about', 'Reports']);
    const text = textOf(page.body);
    expect(text).toContain(company.name);
    expect(text).toContain('Active');
    expect(text).toContain('None yet');

    const [row] = await t.db.kysely
      .selectFrom('existing_objects_tracking')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    const paused = await post(
      '/companies/monitoring/updates/',
      { intent: 'status', id: String(row.id), status: 'paused' },
      user,
    );
    expect(paused.statusCode).toBe(302);
    expect(textOf((await get('/companies/monitoring/updates/', user)).body)).toContain('Paused');
    // Another user cannot touch it: the page's 404.
    const other = await createSignedInUser(t.db, 'monitor-other');
    const refused = await post('/companies/monitoring/updates/', { intent: 'delete', id: String(row.id) }, other);
    expect(refused.statusCode).toBe(404);
    await post('/companies/monitoring/updates/', { intent: 'delete', id: String(row.id) }, user);
    expect(textOf((await get('/companies/monitoring/updates/', user)).body)).toContain('You track no companies yet');
  });

  it('choose what a tracking tells them about: the company’s details and record sections', async () => {
    const user = await createSignedInUser(t.db, 'monitor-sections');
    const [company] = await someCompanies(t.db, 1, 9);
    const { tracking } = await trackCompany(t.db, user.id, company.id);
    const sectionsPath = `/companies/monitoring/updates/sections/?tracking=${tracking.id}`;
    const list = await get('/companies/monitoring/updates/', user);
    expect(list.body).toContain(`href="${sectionsPath.replace('&', '&amp;')}">Everything</a>`);

    const form = await get(sectionsPath, user);
    expect(form.statusCode).toBe(200);
    // Everything is ticked: the company's details and each of the 21 record sections.
    expect(form.body.match(/<input type="checkbox"[^>]*name="sections"[^>]*checked/g)).toHaveLength(22);
    expect(textOf(form.body)).toContain('Company details (name, status, addresses, identifiers, …)');
    expect(textOf((await get(`/de${sectionsPath}`, user)).body)).toContain('Verstöße');

    // The form posts to its own address.
    const chosen = await post(sectionsPath, { id: String(tracking.id), sections: ['violations', 'company'] }, user);
    expect(chosen.statusCode).toBe(302);
    expect(chosen.headers.location).toBe('/companies/monitoring/updates/?done=sections');
    const after = textOf((await get(chosen.headers.location as string, user)).body);
    expect(after).toContain('The tracking now tells you about what you chose.');
    expect(after).toContain('Company details, Violations');
    const [row] = await t.db.kysely
      .selectFrom('existing_objects_tracking')
      .select('sections')
      .where('id', '=', tracking.id)
      .where('user_id', '=', user.id)
      .execute();
    expect(row.sections).toEqual(['company', 'violations']);
    const again = await get(sectionsPath, user);
    expect(again.body.match(/<input type="checkbox"[^>]*name="sections"[^>]*checked/g)).toHaveLength(2);

    // Nothing ticked is refused, in the reader's language; another user's tracking is not found.
    const none = await post(`/fr${sectionsPath}`, { id: String(tracking.id) }, user);
    expect(none.statusCode).toBe(400);
    expect(textOf(none.body)).toContain('Cochez au moins une partie.');
    const other = await createSignedInUser(t.db, 'monitor-sections-other');
    expect((await get(sectionsPath, other)).statusCode).toBe(404);
    const refused = await post(sectionsPath, { id: String(tracking.id), sections: ['trademarks'] }, other);
    expect(refused.statusCode).toBe(404);
  });

  it('track the ticked rows of search results, and find "Track new companies of this search" there', async () => {
    const user = await createSignedInUser(t.db, 'monitor-search');
    const search = await get('/companies/search/?jurisdiction=276', user);
    expect(search.body).toContain('formAction="/companies/monitoring/track/"');
    expect(search.body).toContain('/companies/monitoring/new/add/?query=%2Fcompanies%2Fsearch%2F');
    const companies = await someCompanies(t.db, 2, 11);
    const res = await post('/companies/monitoring/track/', { ids: companies.map((c) => String(c.id)) }, user);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/companies/monitoring/updates/?done=trackedMany&count=2');
    expect(textOf((await get(res.headers.location as string, user)).body)).toContain('2 companies are now tracked.');
  });

  it('define a new-company tracking from filters, a saved search or the search they came from', async () => {
    const user = await createSignedInUser(t.db, 'monitor-new');
    const form = await get('/companies/monitoring/new/add/?query=%2Fcompanies%2Fsearch%2F%3Fq%3Dbank', user);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('value="/companies/search/?q=bank"');
    const fromCurrent = await post(
      '/companies/monitoring/new/add/',
      { name: 'Banks', source: 'current', query: '/companies/search/?q=bank' },
      user,
    );
    expect(fromCurrent.statusCode).toBe(302);
    const fromFilters = await post(
      '/companies/monitoring/new/add/',
      { name: 'German', source: 'filters', q: '', jurisdiction: '276', industry: '' },
      user,
    );
    expect(fromFilters.statusCode).toBe(302);
    const saved = await t.db.kysely
      .insertInto('saved_searches')
      .values({ user_id: user.id, name: 'Mine', section: 'companies', query: '/companies/search/?status=1' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fromSaved = await post(
      '/companies/monitoring/new/add/',
      { name: 'Saved', source: 'saved', saved: String(saved.id) },
      user,
    );
    expect(fromSaved.statusCode).toBe(302);
    const rows = await t.db.kysely
      .selectFrom('new_objects_tracking')
      .select(['name', 'query'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { name: 'Banks', query: '/companies/search/?q=bank' },
      { name: 'German', query: '/companies/search/?jurisdiction=276' },
      { name: 'Saved', query: '/companies/search/?status=1' },
    ]);
    const page = await get('/companies/monitoring/new/', user);
    expect(headers(page.body)).toEqual(['Name', 'Monitoring status', 'Reports']);
    const bad = await post('/companies/monitoring/new/add/', { name: '', source: 'filters' }, user);
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toContain('Enter a name.');
  });

  it('keeps one tracking’s reports on the next page', async () => {
    const user = await createSignedInUser(t.db, 'monitor-paging');
    const [company] = await someCompanies(t.db, 1, 17);
    const { tracking } = await trackCompany(t.db, user.id, company.id);
    const change = [
      { change_id: 1, field: 'status', old: 'active', new: 'inactive', source: 'gleif-lei', source_date: null },
    ];
    for (let i = 0; i < 51; i++)
      await t.db.kysely
        .insertInto('existing_objects_reports')
        .values({
          user_id: user.id,
          tracking_id: tracking.id,
          legal_entity_id: company.id,
          updates: 1,
          changes: sql`${JSON.stringify(change)}::jsonb`,
        })
        .execute();
    const first = await get(`/companies/monitoring/updates/reports/?tracking=${tracking.id}`, user);
    const next = /href="([^"]*after=[^"]*)"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toContain(`tracking=${tracking.id}`);
  });

  it('read update and new-company reports with their columns and contents', async () => {
    const user = await createSignedInUser(t.db, 'monitor-reports');
    const [company] = await someCompanies(t.db, 1, 13);
    const { tracking } = await trackCompany(t.db, user.id, company.id);
    await t.db.kysely
      .insertInto('existing_objects_reports')
      .values({
        user_id: user.id,
        tracking_id: tracking.id,
        legal_entity_id: company.id,
        updates: 1,
        changes: sql`${JSON.stringify([
          {
            change_id: 1,
            field: 'name',
            old: 'Old Name Ltd',
            new: 'New Name Ltd',
            source: 'ch-companies',
            source_date: null,
          },
        ])}::jsonb`,
      })
      .execute();
    const reports = await get('/companies/monitoring/updates/reports/', user);
    expect(headers(reports.body)).toEqual(['Created on', 'Legal name', 'Jurisdiction', 'Updates']);
    const text = textOf(reports.body);
    expect(text).toMatch(/Legal name ?: Old Name Ltd → New Name Ltd/);
    // Who said so and when (a report built before changes carried observed_at: its own day).
    expect(text).toMatch(/Stated by Companies House; seen by Registra \d{1,2} [A-Z][a-z]{2} \d{4}/);
    // The field links to the company's history at that field.
    expect(reports.body).toContain(`href="/companies/details/${encodeURIComponent(company.uri)}/history/?field=name"`);
    const german = await get('/de/companies/monitoring/updates/reports/', user);
    expect(textOf(german.body)).toMatch(/Firmenname ?: Old Name Ltd → New Name Ltd/);
    expect(german.body).toContain(
      `href="/de/companies/details/${encodeURIComponent(company.uri)}/history/?field=name"`,
    );
    const newTracking = await t.db.kysely
      .insertInto('new_objects_tracking')
      .values({ user_id: user.id, name: 'All new', query: '/companies/search/' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('new_objects_reports')
      .values({ user_id: user.id, tracking_id: newTracking.id, legal_entity_ids: [company.id], companies: 1 })
      .execute();
    const newReports = await get('/companies/monitoring/new/reports/', user);
    expect(headers(newReports.body)).toEqual(['Created on', 'Tracking', 'New companies']);
    expect(textOf(newReports.body)).toContain('All new');
    expect(newReports.body).toContain(`/companies/details/${company.uri}/`);
  });
});
