import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../core/accounts/sessions.ts';
import { isActive } from '../../core/companies/company-status.ts';
import { A4_LANDSCAPE } from '../../core/comparison/comparison-pdf.ts';
import { getSavedComparison } from '../../core/comparison/saved-comparison.ts';
import { formatDay } from '../../core/i18n/i18n.ts';
import { type Injected, setCookies, textOf } from '../support/accounts.ts';
import { readPdf } from '../support/read-pdf.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Company comparison through app.inject over the production build: the page,
// adding and removing by POST, the five-company limit, the guest's cookie (and bad ones), the
// signed-in user's saved set and the merge of a guest's set at sign-in, and the PDF export —
// read back with PDF.js (unpdf).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

type Who = { cookie?: string; user?: TestUser; headers?: Record<string, string> };

function cookieHeader(who: Who): string | undefined {
  const parts = [who.user?.cookie, who.cookie].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

const get = (url: string, who: Who = {}) => {
  const cookie = cookieHeader(who);
  return t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...who.headers } });
};

const post = (url: string, fields: Record<string, string | string[]>, who: Who = {}) => {
  const form = new URLSearchParams();
  if (who.user) form.append('_csrf', who.user.csrf);
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  const cookie = cookieHeader(who);
  return t.app.inject({
    method: 'POST',
    url,
    payload: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
      ...who.headers,
    },
  });
};

const PAGE = '/companies/comparison/';

/** The `comparison=…` Set-Cookie of a response, or undefined. */
function comparisonSetCookie(res: Injected): string | undefined {
  return setCookies(res).find((c) => c.startsWith('comparison='));
}

/** `comparison=…` for a Cookie header, from a response that set it. */
function guestCookie(res: Injected): string {
  const set = comparisonSetCookie(res);
  if (!set) throw new Error(`no comparison cookie in ${res.statusCode} response`);
  return set.split(';')[0];
}

/** The compared rows of a page: key → whether it is marked as differing. */
function rowsOf(html: string): Map<string, boolean> {
  return new Map(
    [...html.matchAll(/<tr (?:class="differs" )?data-row="([^"]+)"/g)].map((m) => [m[1], m[0].includes('differs')]),
  );
}

/** True when the page has a `<tag>` with all these attribute values (React writes them in its own order). */
function hasTag(html: string, tag: string, attributes: Record<string, string>): boolean {
  return [...html.matchAll(new RegExp(`<${tag}\\s([^>]*)>`, 'g'))].some((m) => {
    const found = Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    return Object.entries(attributes).every(([name, want]) => found[name] === want);
  });
}

/** Company names heading the page's columns, in order. */
function columnsOf(html: string): string[] {
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(html)?.[1] ?? '';
  return [...head.matchAll(/<th scope="col"><a href="[^"]+">([^<]*)<\/a>/g)].map((m) => textOf(m[1]).trim());
}

async function companiesAlike() {
  // Two companies in one jurisdiction, one active and one not.
  const pair = await sql<{ a: number; b: number }>`
    select a.id as a, b.id as b from legal_entities a
    join legal_entities b on b.jurisdiction_id = a.jurisdiction_id and b.id > a.id
    where a.status_id = 1 and coalesce(b.status_id, 0) <> 1
    order by a.id, b.id limit 1`.execute(t.db.kysely);
  const ids = [Number(pair.rows[0].a), Number(pair.rows[0].b)];
  return t.db.kysely
    .selectFrom('legal_entities')
    .select([
      'id',
      'uri',
      'name',
      'jurisdiction_id',
      'size_id',
      'status_id',
      'registered_on',
      'primary_industry_id',
      'employees_id',
    ])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

describe('the comparison page for guests', () => {
  it('explains how to add companies when empty, and is never cached for others', async () => {
    const res = await get(PAGE);
    expect(res.statusCode).toBe(200);
    const text = textOf(res.body);
    expect(text).toContain('Company comparison');
    expect(text).toContain('No companies to compare yet');
    expect(text).toContain('tick them in the search results');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('name="refs"');
    expect(res.body).toContain('href="/companies/search/"');
  });

  it('adds companies by POST into a cookie (SameSite=Lax, path /), shows them side by side with the differences marked', async () => {
    const [a, b] = await companiesAlike();
    const added = await post(PAGE, { intent: 'add', ids: [String(a.id), String(b.id)] });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe('/companies/comparison/?done=added&count=2');
    const set = comparisonSetCookie(added)!;
    expect(set).toBe(`comparison=${a.id}.${b.id}; Max-Age=86400; Path=/; HttpOnly; SameSite=Lax`);

    const page = await get(added.headers.location as string, { cookie: guestCookie(added) });
    expect(page.statusCode).toBe(200);
    expect(columnsOf(page.body)).toEqual([a.name, b.name]);
    const text = textOf(page.body);
    expect(text).toContain('2 companies added to the comparison.');
    expect(text).toContain('2 of 5 companies');
    // The spec §7 headers lead the rows, labelled as the spec says.
    const labels = [...page.body.matchAll(/<th scope="row">([^<]*)/g)].map((m) => m[1]);
    expect(labels.slice(0, 4)).toEqual(['Jurisdiction', 'Size', 'Status', 'Registration date']);
    // Exactly the overview rows whose values differ are marked, in words as well as colour.
    const rows = rowsOf(page.body);
    expect(rows.get('jurisdiction')).toBe(false);
    expect(rows.get('status')).toBe(true);
    expect(rows.get('size')).toBe(a.size_id !== b.size_id);
    expect(rows.get('registration_date')).toBe(a.registered_on !== b.registered_on);
    expect(rows.get('primary_industry')).toBe(a.primary_industry_id !== b.primary_industry_id);
    expect(rows.get('employees')).toBe(a.employees_id !== b.employees_id);
    expect(isActive(a.status_id)).toBe(true);
    expect(page.body).toMatch(
      /<tr class="differs" data-row="status"><th scope="row">Status<span class="differs-mark">/,
    );
    expect(text).toMatch(/Status ≠ Differs Active Inactive/);
    // Every related-record type somebody has is counted; the rest are named below.
    expect([...rows.keys()].some((k) => k.startsWith('records-'))).toBe(true);
    // Remove buttons name their company; the export is gated for guests.
    expect(page.body).toContain(
      `aria-label="Remove ${a.name.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')} from the comparison"`,
    );
    expect(page.body).toContain('data-gate="export-comparison"');
    expect(page.body).toContain('id="sign-in-gate"');
  });

  it('adds by company number and by profile address, says which references found nothing', async () => {
    const [c1, c2] = await someCompanies(t.db, 2, 60);
    const res = await post(PAGE, {
      intent: 'add',
      refs: `${c1.companyNumber}, http://localhost:3000/companies/details/${c2.uri}/, no-such-company-zz`,
    });
    expect(res.statusCode).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/done=added&count=2/);
    const page = await get(location, { cookie: guestCookie(res) });
    expect(columnsOf(page.body)).toEqual([c1.name, c2.name]);
    expect(textOf(page.body)).toContain('No company found for: no-such-company-zz.');

    const nothing = await post(PAGE, { intent: 'add', refs: 'no-such-company-zz' });
    expect(nothing.statusCode).toBe(400);
    expect(textOf(nothing.body)).toContain('No company found for: no-such-company-zz.');
    expect((await post(PAGE, { intent: 'add' })).statusCode).toBe(400);
  });

  it('refuses a sixth company with a clear message and keeps the five', async () => {
    const six = await someCompanies(t.db, 6, 100);
    const five = six.slice(0, 5).map((c) => c.id);
    const cookie = `comparison=${five.join('.')}`;
    const page = await get(PAGE, { cookie });
    expect(columnsOf(page.body)).toHaveLength(5);
    expect(textOf(page.body)).toContain('The comparison is full (5 companies): remove one to add another.');

    const refused = await post(PAGE, { intent: 'add', ids: String(six[5].id) }, { cookie });
    expect(refused.statusCode).toBe(409);
    expect(textOf(refused.body)).toContain(
      '1 company was not added: a comparison holds at most 5 companies. Remove one to add another.',
    );
    expect(refused.body).toMatch(/role="alert"/);
    expect(columnsOf(refused.body)).toEqual(six.slice(0, 5).map((c) => c.name));

    // Four in, two more: one fits, one is refused — and the page says both.
    const four = `comparison=${five.slice(0, 4).join('.')}`;
    const partly = await post(PAGE, { intent: 'add', ids: [String(six[4].id), String(six[5].id)] }, { cookie: four });
    expect(partly.statusCode).toBe(303);
    expect(partly.headers.location).toBe('/companies/comparison/?done=added&count=1&refused=1');
    const after = await get(partly.headers.location as string, { cookie: guestCookie(partly) });
    expect(columnsOf(after.body)).toEqual(six.slice(0, 5).map((c) => c.name));
    expect(textOf(after.body)).toContain('1 company was not added');
  });

  it('removes a company and clears the comparison', async () => {
    const [c1, c2, c3] = await someCompanies(t.db, 3, 120);
    const cookie = `comparison=${c1.id}.${c2.id}.${c3.id}`;
    const removed = await post(PAGE, { intent: 'remove', id: String(c2.id) }, { cookie });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/companies/comparison/?done=removed');
    expect(guestCookie(removed)).toBe(`comparison=${c1.id}.${c3.id}`);
    const cleared = await post(PAGE, { intent: 'clear' }, { cookie });
    expect(comparisonSetCookie(cleared)).toMatch(/^comparison=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await post(PAGE, { intent: 'explode' }, { cookie })).statusCode).toBe(400);
  });

  it('ignores a bad cookie (and clears it) instead of failing', async () => {
    for (const bad of ['garbage', '1.2.3.4.5.6', '%E0%A4%A', '-5', '{"ids":[1]}', '1,2']) {
      const res = await get(PAGE, { cookie: `comparison=${bad}` });
      expect(res.statusCode, bad).toBe(200);
      expect(textOf(res.body), bad).toContain('No companies to compare yet');
    }
    const cleared = await get(PAGE, { cookie: 'comparison=garbage' });
    expect(comparisonSetCookie(cleared)).toMatch(/^comparison=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    // Ids that name no company (deleted since) are skipped.
    const [c] = await someCompanies(t.db, 1, 130);
    const stale = await get(PAGE, { cookie: `comparison=987654321.${c.id}` });
    expect(columnsOf(stale.body)).toEqual([c.name]);
  });

  it('refuses posts from other sites', async () => {
    const [c] = await someCompanies(t.db, 1, 140);
    const res = await post(PAGE, { intent: 'add', ids: String(c.id) }, { headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    expect(comparisonSetCookie(res)).toBeUndefined();
    const fetchSite = await post(
      PAGE,
      { intent: 'add', ids: String(c.id) },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(fetchSite.statusCode).toBe(403);
  });

  it('speaks German and French under their prefix', async () => {
    const [c1, c2] = await someCompanies(t.db, 2, 150);
    const cookie = `comparison=${c1.id}.${c2.id}`;
    const de = await get(`/de${PAGE}`, { cookie });
    expect(de.statusCode).toBe(200);
    expect(de.body).toContain('<html lang="de">');
    expect(textOf(de.body)).toContain('Firmenvergleich');
    expect(de.body).toContain('<th scope="row">Rechtsraum');
    const fr = await get(`/fr${PAGE}`);
    expect(textOf(fr.body)).toContain('Comparaison d’entreprises');
  });
});

describe('adding from search results and profiles', () => {
  it('offers "Add selected to comparison" for ticked search rows and "Add to comparison" on a profile', async () => {
    const [c] = await someCompanies(t.db, 1, 160);
    const user = await createSignedInUser(t.db, 'cmp-search');
    const guestSearch = await get('/companies/search/');
    // A guest's ticked rows (form="list-add") belong to the comparison form.
    expect(hasTag(guestSearch.body, 'form', { id: 'list-add', method: 'post', action: '/companies/comparison/' })).toBe(
      true,
    );
    expect(textOf(guestSearch.body)).toContain('Add selected to comparison');
    // A signed-in user's rows belong to "add to list": the button sends that form here.
    const userSearch = await get('/companies/search/', { user });
    expect(
      hasTag(userSearch.body, 'button', {
        type: 'submit',
        form: 'list-add',
        formAction: '/companies/comparison/',
        formMethod: 'post',
        name: 'intent',
        value: 'add',
      }),
    ).toBe(true);
    expect(hasTag(userSearch.body, 'form', { id: 'list-add', action: '/companies/lists/add/' })).toBe(true);
    const profile = await get(`/companies/details/${c.uri}/`);
    expect(profile.body).toContain(`<input type="hidden" name="ids" value="${c.id}"/>`);
    expect(textOf(profile.body)).toContain('Add to comparison');
    const de = await get(`/de/companies/details/${c.uri}/`);
    expect(de.body).toContain('action="/de/companies/comparison/"');
  });
});

describe('the comparison of a signed-in user', () => {
  it('is saved in the account (no cookie), restored in another session, and needs the CSRF token', async () => {
    const user = await createSignedInUser(t.db, 'cmp-saved');
    const [c1, c2] = await someCompanies(t.db, 2, 170);
    const added = await post(PAGE, { intent: 'add', ids: [String(c1.id), String(c2.id)] }, { user });
    expect(added.statusCode).toBe(303);
    expect(comparisonSetCookie(added)).toBeUndefined();
    expect(await getSavedComparison(t.db, user.id)).toEqual([c1.id, c2.id]);

    // Another browser of the same user.
    const token = await createSession(t.db, user.id, { ip: '127.0.0.1', userAgent: 'other browser' });
    const elsewhere = await get(PAGE, { cookie: `token=${token}` });
    expect(columnsOf(elsewhere.body)).toEqual([c1.name, c2.name]);
    expect(elsewhere.body).toContain('data-pending="export-comparison"');
    expect(elsewhere.body).not.toContain('data-gate="export-comparison"');

    const noToken = await t.app.inject({
      method: 'POST',
      url: PAGE,
      payload: `intent=remove&id=${c1.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: user.cookie },
    });
    expect(noToken.statusCode).toBe(403);
    expect(await getSavedComparison(t.db, user.id)).toEqual([c1.id, c2.id]);

    const removed = await post(PAGE, { intent: 'remove', id: String(c1.id) }, { user });
    expect(removed.statusCode).toBe(303);
    expect(await getSavedComparison(t.db, user.id)).toEqual([c2.id]);
    // Someone else sees their own (empty) comparison.
    const other = await createSignedInUser(t.db, 'cmp-other');
    expect(textOf((await get(PAGE, { user: other })).body)).toContain('No companies to compare yet');
  });

  it('merges a guest’s comparison on the next comparison page after signing in, once', async () => {
    const user = await createSignedInUser(t.db, 'cmp-merge');
    const [a, b, c] = await someCompanies(t.db, 3, 180);
    await post(PAGE, { intent: 'add', ids: String(a.id) }, { user });
    const guest = `comparison=${b.id}.${a.id}.${c.id}`;
    const merged = await get(PAGE, { user, cookie: guest });
    expect(merged.statusCode).toBe(200);
    expect(columnsOf(merged.body)).toEqual([a.name, b.name, c.name]);
    expect(textOf(merged.body)).toContain('2 companies you compared before signing in were added to your comparison.');
    expect(comparisonSetCookie(merged)).toMatch(/^comparison=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await getSavedComparison(t.db, user.id)).toEqual([a.id, b.id, c.id]);
    // Without the cookie it stays as merged.
    expect(columnsOf((await get(PAGE, { user })).body)).toEqual([a.name, b.name, c.name]);
  });

  it('keeps the user’s own five when a guest set does not fit, and says so', async () => {
    const user = await createSignedInUser(t.db, 'cmp-merge-full');
    const seven = await someCompanies(t.db, 7, 190);
    await post(PAGE, { intent: 'add', ids: seven.slice(0, 4).map((c) => String(c.id)) }, { user });
    const res = await get(PAGE, { user, cookie: `comparison=${seven[4].id}.${seven[5].id}.${seven[6].id}` });
    expect(columnsOf(res.body)).toEqual(seven.slice(0, 5).map((c) => c.name));
    expect(textOf(res.body)).toContain('2 companies you compared before signing in did not fit');
  });
});

describe('the PDF export', () => {
  it('is refused to guests with 401 (the page shows them the sign-in popup instead)', async () => {
    const [c] = await someCompanies(t.db, 1, 200);
    const res = await get(`${PAGE}pdf/`, { cookie: `comparison=${c.id}` });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).not.toContain('pdf');
    expect(res.body).toContain('Sign in to export the comparison as PDF.');
  });

  it('gives a signed-in user an A4 landscape PDF with the spec headers, the companies and the product name', async () => {
    const user = await createSignedInUser(t.db, 'cmp-pdf');
    // Companies with financial statements, so that the key financials are in it too.
    const withFinancials = await sql<{ id: number }>`
      select distinct legal_entity_id as id from financial_statements order by 1 limit 2`.execute(t.db.kysely);
    const [other] = await someCompanies(t.db, 1, 210);
    const ids = [...withFinancials.rows.map((r) => Number(r.id)), other.id];
    await post(PAGE, { intent: 'add', ids: ids.map(String) }, { user });
    const names = (
      await t.db.kysely.selectFrom('legal_entities').select(['id', 'name']).where('id', 'in', ids).execute()
    ).map((r) => r.name);

    const before = new Date();
    const res = await t.app.inject({ method: 'GET', url: `${PAGE}pdf/`, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const disposition = String(res.headers['content-disposition']);
    // Named after the product, never the host it was made on (here a test app on localhost).
    expect(disposition).toMatch(/^attachment; filename="registra_comparison_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}\.pdf"$/);
    expect(disposition).not.toContain('localhost');
    expect(disposition).toContain(before.toISOString().slice(0, 10));
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const pdf = await readPdf(new Uint8Array(bytes));
    for (const page of pdf.pages) {
      expect(page.width).toBeCloseTo(A4_LANDSCAPE.width, 1);
      expect(page.height).toBeCloseTo(A4_LANDSCAPE.height, 1);
      expect(page.width).toBeGreaterThan(page.height);
    }
    const text = pdf.pages.map((p) => p.text).join('\n');
    for (const header of ['Jurisdiction', 'Size', 'Status', 'Registration date', 'Registra', 'Revenue', 'Profit']) {
      expect(text, header).toContain(header);
    }
    expect(text.indexOf('Jurisdiction')).toBeLessThan(text.indexOf('Registration date'));
    const flat = text.replace(/\s+/g, '');
    for (const name of names) expect(flat, name).toContain(name.replace(/\s+/g, ''));
    // Made on the day, as the reader's language writes it ("3 Dec 2026").
    expect(text).toContain(formatDay('en', before));
  });

  it('answers in the page’s language, and says when there is nothing to export', async () => {
    const user = await createSignedInUser(t.db, 'cmp-pdf-de');
    const empty = await get(`${PAGE}pdf/`, { user });
    expect(empty.statusCode).toBe(409);
    expect(empty.body).toContain('The comparison is empty');
    const [c] = await someCompanies(t.db, 1, 220);
    await post(PAGE, { intent: 'add', ids: String(c.id) }, { user });
    const res = await t.app.inject({ method: 'GET', url: `/de${PAGE}pdf/`, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    const text = (await readPdf(new Uint8Array(res.rawPayload))).pages.map((p) => p.text).join('\n');
    for (const header of ['Rechtsraum', 'Größe', 'Status', 'Eintragungsdatum', 'Firmenvergleich']) {
      expect(text, header).toContain(header);
    }
  });
});
