// The profile's kept parts (ADR 0040, "Rendered parts of the profile", app/presenters/profile-parts.server.tsx):
// a second view is served from them, and they are keyed by exactly what they depend on — a company
// write (afterCompanyWrite) and a record write show on the next view, a takedown hides the company
// at once, each language has its own, and what one viewer bought never reaches another.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { writeRecords } from '../../core/records/record-writes.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());
const { post } = pageClient(() => t.app);

/** A guest's view, never from the page cache (a cookie that is not a visitor's). */
const view = async (url: string, cookie = 'test=uncached') => {
  const response = await t.app.inject({ url, headers: { cookie } });
  return { status: response.statusCode, html: response.body };
};

/** A company no other test here touches: the n-th with a name of its own. */
async function company(n: number): Promise<{ id: number; uri: string; name: string }> {
  const row = await sql<{ id: string; uri: string; name: string }>`
    select id, uri, name from legal_entities where taken_down_at is null and length(name) >= 8
    order by id offset ${n} limit 1`.execute(t.db.kysely);
  return { id: Number(row.rows[0].id), uri: row.rows[0].uri, name: row.rows[0].name };
}

const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

describe('the profile’s kept parts', () => {
  it('serve the second view; a company write shows on the next one (afterCompanyWrite)', async () => {
    const c = await company(3);
    const path = `/companies/details/${c.uri}/`;
    const first = await view(path);
    expect(first.html).toContain(escaped(c.name));
    // The flags the kept parts show are preloaded from the page's head, as before, and only there.
    const [head, body] = first.html.split('</head>');
    expect(head).toMatch(/<link rel="preload" href="\/flags\/[a-z-]+\.svg" as="image"\/>/);
    expect(body).not.toContain('<link rel="preload"');
    const renamed = `${c.name} Renamed Kept`;
    // A write that skips afterCompanyWrite moves no version: the kept parts still serve the old
    // name. This is what shows that the second view came from them, not that it is right: every
    // writer calls afterCompanyWrite once it has committed (core/companies/company-writes.ts).
    await sql`update legal_entities set name = ${renamed} where id = ${c.id}`.execute(t.db.kysely);
    const kept = await view(path);
    expect(kept.html).toContain(`<h1>${escaped(c.name)}</h1>`);
    await afterCompanyWrite(t.db, { companies: [c.id], names: [] });
    const after = await view(path);
    expect(after.status).toBe(200);
    expect(after.html).toContain(`<h1>${escaped(renamed)}</h1>`);
    // /de/ and /fr/ are kept apart, and each shows the new name too.
    for (const lang of ['de', 'fr'] as const) {
      for (const round of [1, 2]) {
        const page = await view(`/${lang}${path}`);
        expect(page.status, `${lang} round ${round}`).toBe(200);
        expect(page.html).toContain(`<h1>${escaped(renamed)}</h1>`);
        expect(page.html).toContain(`<h2 id="overview">${escaped(i18nFor(lang).t('profile.overview'))}</h2>`);
        expect(page.html).toContain(`<html lang="${lang}"`);
      }
    }
    expect((await view(path)).html).toContain(`<h2 id="overview">${escaped(i18nFor('en').t('profile.overview'))}</h2>`);
  });

  it('show a record write on the next view', async () => {
    const c = await company(4);
    const path = `/companies/details/${c.uri}/`;
    const mark = `Kept Parts Mark ${c.id}`;
    expect((await view(path)).html).not.toContain(mark);
    expect((await view(path)).html).not.toContain(mark);
    await writeRecords(t.db, {
      companyId: c.id,
      section: 'trademarks',
      added: [{ mark, filing_date: new Date().toISOString().slice(0, 10) }],
      source: 'demo',
    });
    expect((await view(path)).html).toContain(mark);
  });

  it('are not served once the company is taken down, and come back with it', async () => {
    const c = await company(5);
    const path = `/companies/details/${c.uri}/`;
    for (const lang of ['', '/de', '/fr']) expect((await view(`${lang}${path}`)).status).toBe(200);
    await applyTakedown(t.db, 'hide', { target: 'company', ref: String(c.id), reason: 'erasure', actor: 'test' });
    for (const lang of ['', '/de', '/fr']) {
      const gone = await view(`${lang}${path}`);
      expect(gone.status, lang).toBe(404);
      expect(gone.html).not.toContain(escaped(c.name));
    }
    await applyTakedown(t.db, 'restore', { target: 'company', ref: String(c.id), reason: 'erasure', actor: 'test' });
    expect((await view(path)).html).toContain(`<h1>${escaped(c.name)}</h1>`);
  });

  it('keep what a buyer unlocked from every other viewer', async () => {
    // A company with a gated contact (an email of its contacts part), bought by one user.
    const row = await sql<{ id: string; uri: string; contact: string }>`
      select le.id, le.uri, c.contact from legal_entities le
      join legal_entity_contacts c on c.legal_entity_id = le.id
      join contact_types ct on ct.id = c.contact_type_id and ct.uri = 'email'
      where le.taken_down_at is null order by le.id limit 1`.execute(t.db.kysely);
    const c = { id: Number(row.rows[0].id), uri: row.rows[0].uri, email: row.rows[0].contact };
    const path = `/companies/details/${c.uri}/`;
    const buyer = await createSignedInUser(t.db, 'kept-parts-buyer');
    const reader = await createSignedInUser(t.db, 'kept-parts-reader');
    await grantCredits(t.db, buyer.id, 100);
    const bought = await post(path, { intent: 'buy-profile' }, buyer);
    expect(bought.statusCode).toBe(303);
    // The buyer first, twice (the second from the kept parts), then everyone else, twice.
    for (const round of [1, 2]) expect((await view(path, buyer.cookie)).html, `buyer ${round}`).toContain(c.email);
    for (const round of [1, 2]) {
      expect((await view(path)).html, `guest ${round}`).not.toContain(c.email);
      expect((await view(path, reader.cookie)).html, `reader ${round}`).not.toContain(c.email);
    }
    expect((await view(path, buyer.cookie)).html).toContain(c.email);
  });
});
