import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../core/accounts/password-hash.ts';
import { countUnread, notify } from '../../core/notifications/notifications.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { createWatchlist } from '../../core/watchlists/watchlists.ts';
import {
  freshIp,
  GOOD_PASSWORD,
  linkPath,
  outbox,
  postJson,
  sessionCookieOf,
  textOf,
  waitForEmail,
} from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The dashboard, notifications and settings pages: plain HTML forms
// through app.inject over the production build, checked against the database.

let t: TestApp;
let passwordHash: string;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  passwordHash = await hashPassword(GOOD_PASSWORD);
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);
const noindex = '<meta name="robots" content="noindex, nofollow"/>';
const withPassword = (label: string) => createSignedInUser(t.db, label, { name: `User ${label}`, passwordHash });

async function userRow(id: number) {
  return t.db.kysely
    .selectFrom('users')
    .select(['email', 'name', 'language', 'table_style', 'email_notifications'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Signs in through the API from a browser named by its user agent; the session's cookie. */
async function signInFrom(email: string, userAgent: string): Promise<string> {
  const res = await postJson(
    t.app,
    'POST',
    '/api/authentication',
    { email, password: GOOD_PASSWORD },
    { ip: freshIp(), headers: { 'user-agent': userAgent } },
  );
  expect(res.statusCode).toBe(200);
  return sessionCookieOf(res);
}

const PAGES = [
  '/dashboard/',
  '/dashboard/notifications/',
  '/dashboard/settings/profile/',
  '/dashboard/settings/security/',
  '/dashboard/settings/interface/',
  '/dashboard/settings/notifications/',
  '/dashboard/settings/contacts/',
  '/companies/settings/',
];

describe('guests', () => {
  it.each(PAGES)('get 401 from %s, with a way to sign in', async (path) => {
    const res = await get(path);
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('/account/login/');
  });

  it('cannot post to a settings page', async () => {
    const res = await post('/dashboard/settings/interface/', { language: 'de', tableStyle: 'style-1' });
    expect([401, 403]).toContain(res.statusCode);
  });
});

describe('every page', () => {
  it.each(PAGES)('%s is personal: noindex, never cached, in every language', async (path) => {
    const user = await createSignedInUser(t.db, 'pages');
    for (const prefix of ['', '/de', '/fr']) {
      const res = await get(`${prefix}${path}`, user);
      expect(res.statusCode, `${prefix}${path}`).toBe(200);
      expect(res.body).toContain(noindex);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('the dashboard', () => {
  it('shows the user’s lists, recent views and searches and the unread notifications, nobody else’s', async () => {
    const user = await createSignedInUser(t.db, 'dash');
    const other = await createSignedInUser(t.db, 'dash-other');
    const [company] = await someCompanies(t.db, 1, 7);
    await createWatchlist(t.db, user.id, { name: 'Suppliers to watch', description: '' });
    await createWatchlist(t.db, other.id, { name: 'Someone else’s list', description: '' });
    await postJson(
      t.app,
      'POST',
      `/api/browsing_history/users/${user.id}`,
      { object_id: company.id },
      { cookie: user.cookie, csrf: user.csrf },
    );
    await postJson(
      t.app,
      'POST',
      `/api/search_history/users/${user.id}`,
      { section: 'vessels', query: '/vessels/search/?name=aurora', results: 1822 },
      { cookie: user.cookie, csrf: user.csrf },
    );
    await notify(t.db, user.id, 'password_changed');
    await notify(t.db, user.id, 'email_changed', { email: 'new@example.com' });

    const text = textOf((await get('/dashboard/', user)).body);
    expect(text).toContain('Suppliers to watch');
    expect(text).not.toContain('Someone else’s list');
    expect(text).toContain(company.name);
    // The count reads as the search page says it (vessels are records).
    expect(text).toContain('1,822 records');
    expect(text).toContain('2 unread notifications');
    expect(text).toContain('Your account’s email address is now new@example.com.');
  });

  it('says what is empty for a new user', async () => {
    const user = await createSignedInUser(t.db, 'dash-empty');
    const text = textOf((await get('/dashboard/', user)).body);
    expect(text).toContain('No lists yet.');
    expect(text).toContain('No company profiles opened yet.');
    expect(text).toContain('No searches yet.');
    expect(text).toContain('No unread notifications.');
  });
});

describe('notifications', () => {
  it('lists them newest first, marks one and then all read, and leaves other users’ alone', async () => {
    const user = await createSignedInUser(t.db, 'notes');
    const other = await createSignedInUser(t.db, 'notes-other');
    await notify(t.db, user.id, 'welcome');
    await notify(t.db, user.id, 'new_sign_in', { device: 'Firefox on Linux', ip: '203.0.113.9' });
    await notify(t.db, user.id, 'password_changed');
    await notify(t.db, other.id, 'welcome');

    const page = await get('/dashboard/notifications/', user);
    const text = textOf(page.body);
    expect(text.indexOf('Your password was changed')).toBeLessThan(text.indexOf('Welcome to Registra'));
    expect(text).toContain('Your account was signed in from a new browser: Firefox on Linux (203.0.113.9).');

    const otherId = (
      await t.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', other.id)
        .executeTakeFirstOrThrow()
    ).id;
    // Another user's id in the form changes nothing.
    const foreign = await post('/dashboard/notifications/', { intent: 'read', id: String(otherId) }, user);
    expect(foreign.headers.location).toContain('count=0');
    expect(await countUnread(t.db, other.id)).toBe(1);

    const one = (
      await t.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', user.id)
        .where('kind', '=', 'welcome')
        .executeTakeFirstOrThrow()
    ).id;
    const read = await post('/dashboard/notifications/', { intent: 'read', id: String(one) }, user);
    expect(read.statusCode).toBe(302);
    expect(await countUnread(t.db, user.id)).toBe(2);
    const all = await post('/dashboard/notifications/', { intent: 'read-all' }, user);
    expect(all.headers.location).toBe('/dashboard/notifications/?done=read&count=2');
    expect(await countUnread(t.db, user.id)).toBe(0);
    expect(textOf((await get(all.headers.location as string, user)).body)).toContain('2 notifications marked as read.');
  });

  it('refuses a form without the session’s CSRF token', async () => {
    const user = await createSignedInUser(t.db, 'notes-csrf');
    await notify(t.db, user.id, 'welcome');
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/notifications/',
      payload: 'intent=read-all',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: user.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(await countUnread(t.db, user.id)).toBe(1);
  });
});

describe('settings → profile', () => {
  it('saves the name, and keeps what was typed with a translated problem when it is empty', async () => {
    const user = await createSignedInUser(t.db, 'profile');
    const saved = await post('/dashboard/settings/profile/', { intent: 'name', name: '  Ada   Lovelace ' }, user);
    expect(saved.headers.location).toBe('/dashboard/settings/profile/?done=name');
    expect((await userRow(user.id)).name).toBe('Ada Lovelace');

    const bad = await post('/de/dashboard/settings/profile/', { intent: 'name', name: '   ' }, user);
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toContain('Geben Sie Ihren Namen ein.');
    expect((await userRow(user.id)).name).toBe('Ada Lovelace');
  });

  it('changes the email only once the new address confirms it, and tells the old address', async () => {
    const user = await withPassword('email-change');
    const newEmail = `moved.${user.id}@example.org`;

    const wrong = await post(
      '/dashboard/settings/profile/',
      { intent: 'email', email: newEmail, currentPassword: 'not my password at all' },
      user,
    );
    expect(wrong.statusCode).toBe(400);
    expect(textOf(wrong.body)).toContain('Your current password is not right.');
    expect(wrong.body).toContain(`value="${newEmail}"`);
    expect(await outbox(t.db, newEmail)).toHaveLength(0);

    const asked = await post(
      '/dashboard/settings/profile/',
      { intent: 'email', email: newEmail.toUpperCase(), currentPassword: GOOD_PASSWORD },
      user,
    );
    expect(asked.headers.location).toBe('/dashboard/settings/profile/?done=email');
    expect((await userRow(user.id)).email).toBe(user.email);

    const mail = await waitForEmail(t.db, newEmail, 'email_change');
    const link = linkPath(mail.text_body, /\/account\/email\/confirm\//);
    const confirmed = await get(link);
    expect(confirmed.statusCode).toBe(200);
    expect(textOf(confirmed.body)).toContain('Your account now uses this email address.');
    expect(confirmed.body).toContain(noindex);
    expect((await userRow(user.id)).email).toBe(newEmail);
    await waitForEmail(t.db, user.email, 'email_changed');
    expect((await get(link)).body).toContain('This link has expired or has already been used.');
  });

  it('answers alike when another account has the address, and sends it nothing', async () => {
    const user = await withPassword('email-taken');
    const owner = await createSignedInUser(t.db, 'email-owner');
    const res = await post(
      '/dashboard/settings/profile/',
      { intent: 'email', email: owner.email, currentPassword: GOOD_PASSWORD },
      user,
    );
    expect(res.headers.location).toBe('/dashboard/settings/profile/?done=email');
    expect((await outbox(t.db, owner.email)).filter((m) => m.kind === 'email_change')).toHaveLength(0);
    expect((await userRow(user.id)).email).toBe(user.email);
  });
});

describe('settings → security', () => {
  it('changes the password and signs out every other session', async () => {
    const user = await withPassword('security');
    const elsewhere = await signInFrom(user.email, 'Other browser 1.0');
    expect((await get('/dashboard/', { ...user, cookie: elsewhere })).statusCode).toBe(200);

    const weak = await post(
      '/dashboard/settings/security/',
      { intent: 'password', currentPassword: GOOD_PASSWORD, password: 'short' },
      user,
    );
    expect(weak.statusCode).toBe(400);
    expect(textOf(weak.body)).toContain('Use at least 10 characters.');

    const done = await post(
      '/dashboard/settings/security/',
      { intent: 'password', currentPassword: GOOD_PASSWORD, password: 'a much better passphrase 2026' },
      user,
    );
    expect(done.headers.location).toBe('/dashboard/settings/security/?done=password&count=1');
    expect((await get('/dashboard/', { ...user, cookie: elsewhere })).statusCode).toBe(401);
    expect((await get('/dashboard/', user)).statusCode).toBe(200);
    await waitForEmail(t.db, user.email, 'password_changed');
  });

  it('lists the sessions, marks this one, and signs out one of the user’s own — never another user’s', async () => {
    const user = await withPassword('sessions');
    const other = await withPassword('sessions-other');
    const phone = await signInFrom(user.email, 'Phone browser 9');
    const foreign = await signInFrom(other.email, 'Foreign browser 3');

    const page = await get('/dashboard/settings/security/', user);
    const text = textOf(page.body);
    expect(text).toContain('Phone browser 9');
    expect(text).toContain('This browser');
    expect(text).not.toContain('Foreign browser 3');
    const handles = [...page.body.matchAll(/name="session" value="([0-9a-f]{16})"/g)].map((m) => m[1]);
    expect(handles).toHaveLength(1);

    const otherPage = await get('/dashboard/settings/security/', { ...other, cookie: foreign });
    const foreignHandle = /name="session" value="([0-9a-f]{16})"/.exec(otherPage.body)?.[1];
    expect(foreignHandle).toBeDefined();
    const refused = await post('/dashboard/settings/security/', { intent: 'revoke', session: foreignHandle! }, user);
    expect(refused.headers.location).toBe('/dashboard/settings/security/?done=gone');
    expect((await get('/dashboard/', { ...other, cookie: other.cookie })).statusCode).toBe(200);

    const revoked = await post('/dashboard/settings/security/', { intent: 'revoke', session: handles[0] }, user);
    expect(revoked.headers.location).toBe('/dashboard/settings/security/?done=revoked');
    expect((await get('/dashboard/', { ...user, cookie: phone })).statusCode).toBe(401);
    expect((await get('/dashboard/', user)).statusCode).toBe(200);
  });

  it('signs out every other browser at once', async () => {
    const user = await withPassword('sessions-all');
    const a = await signInFrom(user.email, 'Browser A');
    const b = await signInFrom(user.email, 'Browser B');
    const res = await post('/dashboard/settings/security/', { intent: 'revoke-others' }, user);
    expect(res.headers.location).toBe('/dashboard/settings/security/?done=revokedOthers&count=2');
    for (const cookie of [a, b]) expect((await get('/dashboard/', { ...user, cookie })).statusCode).toBe(401);
  });
});

describe('settings → interface', () => {
  it('switches the language (the answer comes in it) and the table style every results table starts with', async () => {
    const user = await createSignedInUser(t.db, 'interface');
    const res = await post('/dashboard/settings/interface/', { language: 'de', tableStyle: 'style-3' }, user);
    expect(res.headers.location).toBe('/de/dashboard/settings/interface/?done=saved');
    expect(await userRow(user.id)).toMatchObject({ language: 'de', table_style: 'style-3' });
    const page = await get(res.headers.location as string, user);
    expect(page.body).toContain('<html lang="de"');
    expect(textOf(page.body)).toContain('Ihre Oberflächeneinstellungen wurden gespeichert.');

    const search = await get('/companies/search/', user);
    expect(search.body).toMatch(/class="results-table style-3/);
    // A page's own choice (its cookie) still wins.
    const cookie = `${user.cookie}; table_view=${encodeURIComponent(JSON.stringify({ companies: { s: 'style-1' } }))}`;
    const own = await get('/companies/search/', { ...user, cookie });
    expect(own.body).toMatch(/class="results-table style-1/);
    // Guests keep the default.
    expect((await get('/companies/search/')).body).toMatch(/class="results-table style-2/);
  });

  it('refuses an unknown language or style, naming it, and changes nothing', async () => {
    const user = await createSignedInUser(t.db, 'interface-bad');
    const res = await post('/dashboard/settings/interface/', { language: 'xx', tableStyle: 'style-9' }, user);
    expect(res.statusCode).toBe(400);
    const text = textOf(res.body);
    expect(text).toContain('Please correct the fields marked below.');
    expect(await userRow(user.id)).toMatchObject({ language: 'en', table_style: 'style-2' });
  });
});

describe('company settings (/companies/settings/)', () => {
  it('keeps the table view and the export settings for companies in one place', async () => {
    const user = await createSignedInUser(t.db, 'company-settings');
    const table = await post(
      '/companies/settings/',
      { intent: 'table', style: 'style-3', columns: ['legal_name', 'jurisdiction'] },
      user,
    );
    expect(table.statusCode).toBe(302);
    expect(table.headers.location).toBe('/companies/settings/?done=table');
    const page = await get(table.headers.location as string, user);
    expect(textOf(page.body)).toContain('Your table view was saved.');
    expect(page.body).toContain('name="style" checked="" value="style-3"');
    expect(page.body).toContain('name="columns" checked="" value="legal_name"');
    expect(page.body).toContain('name="columns" value="status"/>');
    // The companies search starts with it.
    const search = await get('/companies/search/', user);
    expect(search.body).toMatch(/class="results-table style-3/);

    const exported = await post(
      '/de/companies/settings/',
      {
        intent: 'export',
        format: 'xlsx',
        separator: 'semicolon',
        scope: 'first',
        count: '250',
        sections: ['members'],
      },
      user,
    );
    expect(exported.headers.location).toBe('/de/companies/settings/?done=export');
    const saved = await t.db.kysely
      .selectFrom('export_view_settings')
      .select(['format', 'separator', 'scope', 'row_count', 'sections'])
      .where('user_id', '=', user.id)
      .where('section', '=', 'companies')
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({
      format: 'xlsx',
      separator: 'semicolon',
      scope: 'first',
      row_count: 250,
      sections: ['members'],
    });
    const german = await get(exported.headers.location as string, user);
    expect(textOf(german.body)).toContain('Ihre Exporteinstellungen wurden gespeichert.');
    expect(german.body).toContain('value="250"');
    // The export choices are the export page's own form (app/components/export-choices.tsx): the
    // count sits beside "the first N", labelled for screen readers.
    expect(german.body).toContain('<label for="company-settings-count" class="visually-hidden">');
    // The export page starts with them.
    const exportPage = await get('/companies/export/', user);
    expect(exportPage.body).toContain('name="format" checked="" value="xlsx"');
  });

  it('refuses no columns or a count out of range with a translated problem, and changes nothing', async () => {
    const user = await createSignedInUser(t.db, 'company-settings-bad');
    const table = await post('/fr/companies/settings/', { intent: 'table', style: 'style-1' }, user);
    expect(table.statusCode).toBe(400);
    expect(textOf(table.body)).toContain('Choisissez au moins une colonne.');
    const count = await post(
      '/companies/settings/',
      {
        intent: 'export',
        format: 'csv',
        separator: 'comma',
        scope: 'first',
        count: '0',
        sections: ['identifiers', 'members'],
      },
      user,
    );
    expect(count.statusCode).toBe(400);
    expect(textOf(count.body)).toContain('Enter a whole number from 1 to 10,000.');
    for (const table of ['table_view_settings', 'export_view_settings'] as const) {
      const rows = await t.db.kysely.selectFrom(table).select('id').where('user_id', '=', user.id).execute();
      expect(rows, table).toEqual([]);
    }
  });
});

describe('settings → notifications', () => {
  it('saves which emails the user wants, and a sign-in from a new browser follows that choice', async () => {
    const user = await withPassword('emails');
    await signInFrom(user.email, 'First browser');
    await signInFrom(user.email, 'Second browser');
    await waitForEmail(t.db, user.email, 'new_sign_in');
    const before = (await outbox(t.db, user.email)).filter((m) => m.kind === 'new_sign_in').length;

    const res = await post(
      '/dashboard/settings/notifications/',
      { emails: ['tracking_updates', 'product_news'] },
      user,
    );
    expect(res.headers.location).toBe('/dashboard/settings/notifications/?done=saved');
    expect((await userRow(user.id)).email_notifications).toEqual(['tracking_updates', 'product_news']);
    const page = await get('/dashboard/settings/notifications/', user);
    const box = (value: string) => new RegExp(`<input[^>]*value="${value}"[^>]*>`).exec(page.body)?.[0] ?? '';
    expect(box('product_news')).toContain('checked=""');
    expect(box('new_sign_in')).not.toContain('checked=""');

    await signInFrom(user.email, 'Third browser');
    expect((await outbox(t.db, user.email)).filter((m) => m.kind === 'new_sign_in')).toHaveLength(before);
    // The notification is still written: it is the account's own record.
    const kinds = await t.db.kysely
      .selectFrom('notifications')
      .select('kind')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'new_sign_in')
      .execute();
    expect(kinds.length).toBe(3);
  });

  it('refuses an unknown kind of email', async () => {
    const user = await createSignedInUser(t.db, 'emails-bad');
    const res = await post('/dashboard/settings/notifications/', { emails: ['spam'] }, user);
    expect(res.statusCode).toBe(400);
    expect((await userRow(user.id)).email_notifications).toEqual([
      'new_sign_in',
      'tracking_updates',
      'new_companies',
      'support_replies',
    ]);
  });
});

describe('settings → contacts', () => {
  it('adds contacts checked for their type, shows them with their type, and deletes them', async () => {
    const user = await createSignedInUser(t.db, 'contacts');
    const other = await createSignedInUser(t.db, 'contacts-other');
    const added = await post(
      '/dashboard/settings/contacts/',
      { intent: 'add', type: 'phone', contact: '+49 30 1234567' },
      user,
    );
    expect(added.headers.location).toBe('/dashboard/settings/contacts/?done=added');
    await post('/dashboard/settings/contacts/', { intent: 'add', type: 'website', contact: 'example.org' }, user);
    await post('/dashboard/settings/contacts/', { intent: 'add', type: 'email', contact: 'theirs@example.net' }, other);

    const page = await get('/fr/dashboard/settings/contacts/', user);
    const text = textOf(page.body);
    expect(text).toContain('Contact Type');
    expect(text).toContain('+49 30 1234567 Téléphone');
    expect(text).toContain('https://example.org Site web');
    expect(text).not.toContain('theirs@example.net');

    const bad = await post(
      '/de/dashboard/settings/contacts/',
      { intent: 'add', type: 'email', contact: 'not an email' },
      user,
    );
    expect(bad.statusCode).toBe(400);
    expect(textOf(bad.body)).toContain('Geben Sie eine E-Mail-Adresse wie name@example.com ein.');
    expect(bad.body).toContain('value="not an email"');

    const again = await post(
      '/dashboard/settings/contacts/',
      { intent: 'add', type: 'phone', contact: '0049 30 123 4567' },
      user,
    );
    expect(again.statusCode).toBe(409);
    expect(textOf(again.body)).toContain('You already have this contact.');

    const ids = [...page.body.matchAll(/name="id" value="(\d+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const theirs = await t.db.kysely.selectFrom('user_contacts').select('id').where('user_id', '=', other.id).execute();
    const foreign = await post('/dashboard/settings/contacts/', { intent: 'delete', id: String(theirs[0].id) }, user);
    expect(foreign.statusCode).toBe(404);
    expect(
      await t.db.kysely.selectFrom('user_contacts').select('id').where('user_id', '=', other.id).execute(),
    ).toHaveLength(1);

    const deleted = await post('/dashboard/settings/contacts/', { intent: 'delete', id: ids[0] }, user);
    expect(deleted.headers.location).toBe('/dashboard/settings/contacts/?done=deleted');
    const left = await t.db.kysely.selectFrom('user_contacts').select('id').where('user_id', '=', user.id).execute();
    expect(left.map((r) => String(r.id))).toEqual([ids[1]]);
  });
});

describe('saved table views (search pages)', () => {
  const vessels = sectionById('vessels')!;
  const [first, second] = vessels.columns.map((c) => c.key);

  it('a user saves a section’s view as their default; it applies wherever that page has no choice of its own', async () => {
    const user = await createSignedInUser(t.db, 'table-view');
    const saved = await post(
      '/dashboard/settings/table-views/',
      { section: 'vessels', style: 'style-1', columns: [first, second], returnTo: '/vessels/search/?sort=name' },
      user,
    );
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe('/vessels/search/?sort=name&view=saved');
    const row = await t.db.kysely
      .selectFrom('table_view_settings')
      .select(['style', 'columns'])
      .where('user_id', '=', user.id)
      .where('section', '=', 'vessels')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ style: 'style-1', columns: [first, second] });

    // `view=saved` forgets the page's own choice (its cookie entry) and comes back without the parameter.
    const cookie = `${user.cookie}; table_view=${encodeURIComponent(JSON.stringify({ vessels: { s: 'style-3' } }))}`;
    const back = await get(saved.headers.location as string, { ...user, cookie });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/vessels/search/?sort=name');
    expect(String(back.headers['set-cookie'])).toMatch(/^table_view=\{\}; /);

    const page = await get('/vessels/search/', user);
    expect(page.body).toMatch(/class="results-table style-1/);
    // The first row's cells: only the saved columns.
    const cells = [...page.body.matchAll(/<td[^>]*data-column="([^"]+)"/g)].map((m) => m[1]);
    expect(cells.slice(0, 3)).toEqual([first, second, first]);
    expect(page.body).toContain('Use my saved view');
    // Another section is untouched; another user sees the defaults.
    expect((await get('/permits/search/', user)).body).toMatch(/class="results-table style-2/);
    const other = await createSignedInUser(t.db, 'table-view-other');
    expect((await get('/vessels/search/', other)).body).toMatch(/class="results-table style-2/);
  });

  it('refuses an unknown section or column, and never goes back to another site', async () => {
    const user = await createSignedInUser(t.db, 'table-view-bad');
    const bad = await post('/dashboard/settings/table-views/', { section: 'nope', style: 'style-1' }, user);
    expect(bad.statusCode).toBe(400);
    const badColumn = await post(
      '/dashboard/settings/table-views/',
      { section: 'vessels', style: 'style-1', columns: ['no_such_column'] },
      user,
    );
    expect(badColumn.statusCode).toBe(400);
    const away = await post(
      '/dashboard/settings/table-views/',
      { section: 'vessels', style: 'style-2', returnTo: 'https://evil.example/' },
      user,
    );
    expect(away.headers.location).toBe('/vessels/search/?view=saved');
  });

  it('guests get the sign-in popup for saving and loading, and the server refuses them', async () => {
    const page = await get('/vessels/search/');
    expect(page.body).toContain('data-gate="save-table-view"');
    expect(page.body).toContain('data-gate="load-table-view"');
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('table_view_settings')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const res = await post('/dashboard/settings/table-views/', { section: 'vessels', style: 'style-1' });
    expect([401, 403]).toContain(res.statusCode);
    expect(await count()).toBe(before);
  });
});
