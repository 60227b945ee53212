import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cachedLegalEntityCounts } from '../../core/api/legal-entity-statistics.ts';
import { countCompaniesByJurisdiction } from '../../core/companies/count-companies.ts';
import { findCompanies } from '../../core/companies/find-companies.ts';
import { getCompany } from '../../core/companies/get-company.ts';
import { getCompanyRecords } from '../../core/companies/get-company-records.ts';
import { loadComparison } from '../../core/comparison/load-comparison.ts';
import { COMPANY_EXPORT_SECTIONS } from '../../core/export/export-options.ts';
import { readCompanyRows } from '../../core/export/read-company-rows.ts';
import { matchCompanies } from '../../core/matching/match-companies.ts';
import { findPeople } from '../../core/people/find-people.ts';
import { getPerson } from '../../core/people/get-person.ts';
import { EVERYTHING_UNLOCKED } from '../../core/purchases/paywall.ts';
import { reconcile, suggestEntities } from '../../core/reconciliation/reconcile.ts';
import { facetCounts, sectionTotal } from '../../core/search/facets.ts';
import { findRecords } from '../../core/search/find-records.ts';
import { parseSearchState, type SearchState } from '../../core/search/search-state.ts';
import { suggest } from '../../core/search/suggest.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import { sectionById } from '../../core/sections/sections.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import type { Db } from '../../db/client.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

// Takedowns everywhere public (ADR 0021): a company taken down counts nowhere — search totals,
// facets and their cubes, directories, statistics, suggest, reconciliation, match, comparison and
// exports — and leaves the search lexicon; a person taken down leaves the record sections of the
// companies they sit on (connections), people search, suggest and the pages of their co-members.
// Each assertion is made before the takedown too, so that it would fail if the filter went.

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t?.db.close());

const state = (section: Parameters<typeof parseSearchState>[0], query = ''): SearchState => {
  const parsed = parseSearchState(section, new URLSearchParams(query));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.state;
};

/** Waits for a cached whole-table count to be recounted (the takedown expires it; readers get the last count meanwhile). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => void): Promise<void> {
  await vi.waitFor(
    async () => {
      check(await read());
    },
    { timeout: 20_000, interval: 50 },
  );
}

const hide = (db: Db, target: 'company' | 'person', ref: string) =>
  applyTakedown(db, 'hide', { target, ref, reason: 'erasure request', actor: 'test' });
const restore = (db: Db, target: 'company' | 'person', ref: string) =>
  applyTakedown(db, 'restore', { target, ref, reason: 'withdrawn', actor: 'test' });

describe('a company taken down', () => {
  it('counts nowhere public and comes back when restored', async () => {
    const { db, reference } = t;
    // A company with connections (a record section) and a word of its name of its own.
    const company = await sql<{ id: string; uri: string; name: string; search_name: string; jurisdiction_id: number }>`
      select le.id, le.uri, le.name, le.search_name, le.jurisdiction_id from legal_entities le
      where exists (select 1 from connections c where c.legal_entity_id = le.id)
      order by le.id limit 1 offset 3`
      .execute(db.kysely)
      .then((r) => ({ ...r.rows[0], id: Number(r.rows[0].id) }));
    const word = company.search_name.split(' ').find((w) => w.length >= 4) ?? company.search_name.split(' ')[0];
    const documents = async () =>
      Number(
        (await db.kysely.selectFrom('name_words').select('documents').where('word', '=', word).executeTakeFirst())
          ?.documents ?? 0,
      );
    const connections = sectionById('connections');
    if (!connections) throw new Error('no connections section');
    const companyFilter = `company=${company.id}`;

    const total = await sectionTotal(db, reference, companiesSection);
    const byJurisdiction = (await countCompaniesByJurisdiction(db)).get(company.jurisdiction_id) ?? 0;
    const statistics = (await cachedLegalEntityCounts(db).counts).total;
    const facet = async (query = '') =>
      (await facetCounts(db, reference, companiesSection, state(companiesSection, query)))
        .find((f) => f.field === 'jurisdiction')
        ?.values.find((v) => v.id === company.jurisdiction_id)?.count ?? 0;
    const jurisdictionFacet = await facet();
    const sampledFacet = await facet(`q=${encodeURIComponent(company.name)}`);
    const connectionsTotal = (await findRecords(db, reference, connections, state(connections))).total;
    const ofCompany = await findRecords(db, reference, connections, state(connections, companyFilter));
    expect(ofCompany.total).toBeGreaterThan(0);
    const wordDocuments = await documents();
    expect(wordDocuments).toBeGreaterThan(0);
    const suggested = async () =>
      (await suggest(db, reference, 41, company.name)).companies.map((c) => c.path).join(' ');
    expect(await suggested()).toContain(company.uri);
    const reconciled = async () =>
      JSON.stringify(await reconcile(db, reference, { q0: { query: company.name } })) +
      JSON.stringify(await suggestEntities(db, reference, company.name));
    expect(await reconciled()).toContain(company.uri);
    const matched = async () =>
      (await matchCompanies(db, reference, [{ name: company.name }]))[0].candidates.map((c) => c.id);
    expect(await matched()).toContain(company.id);
    expect((await loadComparison(db, [company.id])).map((c) => Number(c.id))).toEqual([company.id]);
    const exported = async () =>
      (await readCompanyRows(db, reference, [company.id], COMPANY_EXPORT_SECTIONS, 41, EVERYTHING_UNLOCKED)).map(
        (c) => c.id,
      );
    expect(await exported()).toEqual([company.id]);
    const found = await findCompanies(db, reference, state(companiesSection, `q=${encodeURIComponent(company.name)}`));
    expect(found.rows.map((r) => Number(r.id))).toContain(company.id);

    await hide(db, 'company', company.uri);

    expect(await getCompany(db, company.uri)).toBeNull();
    // The cubes, directories and statistics are recounted (at once for the statistics).
    await eventually(
      () => sectionTotal(db, reference, companiesSection),
      (n) => expect(n).toBe(total - 1),
    );
    await eventually(facet, (n) => expect(n).toBe(jurisdictionFacet - 1));
    await eventually(
      async () => (await countCompaniesByJurisdiction(db)).get(company.jurisdiction_id) ?? 0,
      (n) => expect(n).toBe(byJurisdiction - 1),
    );
    expect((await cachedLegalEntityCounts(db).counts).total).toBe(statistics - 1);
    // Counts from a sample (a name search) and of a record section.
    expect(await facet(`q=${encodeURIComponent(company.name)}`)).toBe(sampledFacet - 1);
    const after = await findCompanies(db, reference, state(companiesSection, `q=${encodeURIComponent(company.name)}`));
    expect(after.rows.map((r) => Number(r.id))).not.toContain(company.id);
    expect(after.total).toBe(found.total - 1);
    const hiddenRecords = await findRecords(db, reference, connections, state(connections, companyFilter));
    expect(hiddenRecords.rows).toHaveLength(0);
    expect(hiddenRecords.total).toBe(0);
    await eventually(
      async () => (await findRecords(db, reference, connections, state(connections))).total,
      (n) => expect(n).toBe(connectionsTotal - ofCompany.total),
    );
    // The lexicon forgot the name's words (a did-you-mean must not spell it).
    expect(await documents()).toBe(wordDocuments - 1);
    expect(await suggested()).not.toContain(company.uri);
    expect(await reconciled()).not.toContain(company.uri);
    expect(await matched()).not.toContain(company.id);
    expect(await loadComparison(db, [company.id])).toEqual([]);
    expect(await exported()).toEqual([]);

    // Hiding twice changes nothing more; restoring brings everything back.
    await hide(db, 'company', String(company.id));
    expect(await documents()).toBe(wordDocuments - 1);
    await restore(db, 'company', company.uri);
    expect(await documents()).toBe(wordDocuments);
    await eventually(
      () => sectionTotal(db, reference, companiesSection),
      (n) => expect(n).toBe(total),
    );
    expect(await suggested()).toContain(company.uri);
    expect(await exported()).toEqual([company.id]);
  });
});

describe('a person taken down', () => {
  it('leaves connections, people search, suggest and co-members; their own page is gone', async () => {
    const { db, reference } = t;
    // A person (not a company) sitting on a company, with that company's connection row of their name.
    const person = await sql<{ id: string; name: string; legal_entity_id: string }>`
      select m.id, m.name, x.legal_entity_id from members m
      join legal_entity_members x on x.member_id = m.id
      join connections c on c.legal_entity_id = x.legal_entity_id and c.name = m.name
      where m.legal_entity_id is null and m.name_type = 'individual'
        and exists (select 1 from legal_entity_members y where y.legal_entity_id = x.legal_entity_id and y.member_id <> m.id)
      order by m.id limit 1`
      .execute(db.kysely)
      .then((r) => ({ id: Number(r.rows[0].id), name: r.rows[0].name, company: Number(r.rows[0].legal_entity_id) }));
    const connections = sectionById('connections');
    if (!connections) throw new Error('no connections section');
    const byName = state(connections, `company=${person.company}`);
    const names = async () => (await findRecords(db, reference, connections, byName)).rows.map((r) => r.name);
    const listed = async () =>
      ((await getCompanyRecords(db, person.company))?.get('connections')?.rows ?? []).map((r) => r.name);
    const people = async () => (await findPeople(db, person.name)).map((p) => p.id);
    const suggested = async () => (await suggest(db, reference, 41, person.name)).people.map((p) => p.label);
    const coMember = await sql<{ id: string }>`
      select member_id as id from legal_entity_members where legal_entity_id = ${person.company} and member_id <> ${person.id} limit 1`
      .execute(db.kysely)
      .then((r) => Number(r.rows[0].id));
    const coMembers = async () => ((await getPerson(db, coMember))?.coMembers ?? []).map((c) => c.member_id);

    expect(await names()).toContain(person.name);
    expect(await listed()).toContain(person.name);
    expect(await people()).toContain(person.id);
    expect(await suggested()).toContain(person.name);
    expect(await coMembers()).toContain(person.id);
    expect(await getPerson(db, person.id)).not.toBeNull();
    const before = (await findRecords(db, reference, connections, byName)).total;

    await hide(db, 'person', String(person.id));

    expect(await names()).not.toContain(person.name);
    expect((await findRecords(db, reference, connections, byName)).total).toBe(before - 1);
    expect(await listed()).not.toContain(person.name);
    expect(await people()).not.toContain(person.id);
    expect(await suggested()).not.toContain(person.name);
    expect(await coMembers()).not.toContain(person.id);
    expect(await getPerson(db, person.id)).toBeNull();
    // The profile and its graph: not a member, no other companies drawn for them.
    const uri = await sql<{ uri: string }>`select uri from legal_entities where id = ${person.company}`
      .execute(db.kysely)
      .then((r) => r.rows[0].uri);
    const profile = await getCompany(db, uri);
    expect(profile?.members.map((m) => Number(m.member_id))).not.toContain(person.id);
    expect(profile?.member_companies.map((m) => Number(m.member_id))).not.toContain(person.id);

    await restore(db, 'person', String(person.id));
    expect(await names()).toContain(person.name);
    expect(await getPerson(db, person.id)).not.toBeNull();
  });
});
