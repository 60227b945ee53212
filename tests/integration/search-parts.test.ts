// Search pages kept (ADR 0043, "Search pages kept by data version", app/presenters/profile-parts.server.tsx): a
// repeat of a search is served from what was kept, keyed by exactly what the page depends on — a company
// write (afterCompanyWrite) and a record write show on the next search, a takedown hides the company
// at once, each language and each table view has its own page, a recount of the counts shows, and a
// section whose rows hold values a purchase unlocks is never kept.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { countCompaniesByJurisdiction, expireCachedCounts } from '../../core/companies/count-companies.ts';
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

/** A company no other test here touches, and a word of its name that finds it. */
async function company(n: number): Promise<{ id: number; uri: string; name: string; word: string }> {
  const row = await sql<{ id: string; uri: string; name: string }>`
    select id, uri, name from legal_entities where taken_down_at is null and length(name) >= 8
    order by id offset ${n} limit 1`.execute(t.db.kysely);
  const { id, uri, name } = row.rows[0];
  const word = name
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4)
    .sort((a, b) => b.length - a.length)[0];
  return { id: Number(id), uri, name, word: word.toLowerCase() };
}

const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');
const search = (word: string) => `/companies/search/?q=${encodeURIComponent(word)}`;
/** A result row's link to the company, as the table writes it. */
const rowLink = (uri: string) => `href="/companies/details/${uri}/"`;

describe('kept search pages', () => {
  it('serve the repeat; a company write shows on the next search (afterCompanyWrite), in every language', async () => {
    const c = await company(11);
    const first = await view(search(c.word));
    expect(first.status).toBe(200);
    expect(first.html).toContain(rowLink(c.uri));
    // Renamed, the word still in the name.
    const renamed = `${c.name} Renamed Kept`;
    // A write that skips afterCompanyWrite moves no version: the kept page still shows the old
    // name. This is what shows that the repeat came from what was kept, not that it is right:
    // every writer calls afterCompanyWrite once it has committed (core/companies/company-writes.ts).
    await sql`update legal_entities set name = ${renamed} where id = ${c.id}`.execute(t.db.kysely);
    expect((await view(search(c.word))).html).not.toContain('Renamed Kept');
    await afterCompanyWrite(t.db, { companies: [c.id], names: [] });
    const after = await view(search(c.word));
    expect(after.status).toBe(200);
    expect(after.html).toContain(escaped(renamed));
    // The kept page is the page: the same bytes as the view that rendered it.
    expect((await view(search(c.word))).html).toBe(after.html);
    // /de/ and /fr/ are kept apart, each in its language, each with the new name.
    for (const lang of ['de', 'fr'] as const)
      for (const round of [1, 2]) {
        const page = await view(`/${lang}${search(c.word)}`);
        expect(page.status, `${lang} round ${round}`).toBe(200);
        expect(page.html).toContain(`<html lang="${lang}"`);
        expect(page.html).toContain(`href="/${lang}/companies/details/${c.uri}/"`);
        expect(page.html).toContain(escaped(renamed));
      }
    expect((await view(search(c.word))).html).toBe(after.html);
  });

  it('keep each table view apart (the cookie’s style and columns)', async () => {
    const c = await company(12);
    const plain = await view(search(c.word));
    const cookie = `test=uncached; table_view=${encodeURIComponent(JSON.stringify({ companies: { s: 'style-1', c: ['legal_name'] } }))}`;
    for (const round of [1, 2]) {
      const narrow = await view(search(c.word), cookie);
      expect(narrow.html, `round ${round}`).toContain('class="results-table style-1"');
      expect(narrow.html).not.toContain('data-column="status"');
    }
    expect((await view(search(c.word))).html).toBe(plain.html);
    expect(plain.html).toContain('data-column="status"');
  });

  it('show a record write on the next search of its section', async () => {
    const c = await company(13);
    const mark = `Kept Search Mark ${c.id}`;
    const url = `/trademarks/search/?company=${c.id}`;
    expect((await view(url)).html).not.toContain(mark);
    expect((await view(url)).html).not.toContain(mark);
    await writeRecords(t.db, {
      companyId: c.id,
      section: 'trademarks',
      added: [{ mark, filing_date: new Date().toISOString().slice(0, 10) }],
      source: 'demo',
    });
    expect((await view(url)).html).toContain(mark);
  });

  it('are not served once the company is taken down, and come back with it', async () => {
    const c = await company(14);
    for (const lang of ['', '/de', '/fr'])
      for (const round of [1, 2])
        expect((await view(`${lang}${search(c.word)}`)).html, `${lang} ${round}`).toContain(c.uri);
    await applyTakedown(t.db, 'hide', { target: 'company', ref: String(c.id), reason: 'erasure', actor: 'test' });
    for (const lang of ['', '/de', '/fr'])
      expect((await view(`${lang}${search(c.word)}`)).html, lang).not.toContain(c.uri);
    await applyTakedown(t.db, 'restore', { target: 'company', ref: String(c.id), reason: 'erasure', actor: 'test' });
    expect((await view(search(c.word))).html).toContain(rowLink(c.uri));
  });

  it('show a recount of the counts they show on the next search', async () => {
    // The panel's jurisdictions are those with companies (counted once and kept, core/companies/count-companies.ts):
    // "All N choices" says how many.
    const c = await company(15);
    const choices = async () => {
      const page = await view(search(c.word));
      expect(page.status).toBe(200);
      const more = /data-more-choices="choices-jurisdiction">([^<]*)</.exec(page.html);
      expect(more, 'the jurisdiction list is long').not.toBeNull();
      return more![1];
    };
    const before = await choices();
    const empty = await sql<{ id: string }>`
      select l.id from locations l where l.location_type_id = 1
      and not exists (select 1 from legal_entities le where le.jurisdiction_id = l.id) order by l.id limit 1`.execute(
      t.db.kysely,
    );
    const [{ jurisdiction_id: was }] = (
      await sql<{ jurisdiction_id: number }>`select jurisdiction_id from legal_entities where id = ${c.id}`.execute(
        t.db.kysely,
      )
    ).rows;
    // Moved without afterCompanyWrite: the data's version stays, only a recount can show it.
    await sql`update legal_entities set jurisdiction_id = ${Number(empty.rows[0].id)} where id = ${c.id}`.execute(
      t.db.kysely,
    );
    expect(await choices()).toBe(before);
    // The counts go stale (as when ten minutes have passed); the next reader recounts, and once the
    // recount is in, the page says so.
    expireCachedCounts(t.db);
    await countCompaniesByJurisdiction(t.db);
    await expect.poll(choices).not.toBe(before);
    await sql`update legal_entities set jurisdiction_id = ${was} where id = ${c.id}`.execute(t.db.kysely);
    await afterCompanyWrite(t.db, { companies: [c.id], names: [] });
  });

  it('never keep a section whose rows a purchase unlocks: a buyer’s contacts never reach another viewer', async () => {
    // A company with a gated contact (an email), bought by one user.
    const row = await sql<{ id: string; uri: string; contact: string }>`
      select le.id, le.uri, c.contact from legal_entities le
      join legal_entity_contacts c on c.legal_entity_id = le.id
      join contact_types ct on ct.id = c.contact_type_id and ct.uri = 'email'
      where le.taken_down_at is null order by le.id offset 1 limit 1`.execute(t.db.kysely);
    const c = { id: Number(row.rows[0].id), uri: row.rows[0].uri, email: row.rows[0].contact };
    const buyer = await createSignedInUser(t.db, 'kept-search-buyer');
    const reader = await createSignedInUser(t.db, 'kept-search-reader');
    await grantCredits(t.db, buyer.id, 100);
    expect((await post(`/companies/details/${c.uri}/`, { intent: 'buy-profile' }, buyer)).statusCode).toBe(303);
    const url = `/contacts/search/?company=${c.id}`;
    // The buyer first, twice, then everyone else, twice.
    for (const round of [1, 2]) expect((await view(url, buyer.cookie)).html, `buyer ${round}`).toContain(c.email);
    for (const round of [1, 2]) {
      expect((await view(url)).html, `guest ${round}`).not.toContain(c.email);
      expect((await view(url, reader.cookie)).html, `reader ${round}`).not.toContain(c.email);
    }
    expect((await view(url, buyer.cookie)).html).toContain(c.email);
  });
});
