// The paywall sweep (docs/decisions/0029-what-a-purchase-unlocks.md): a rule that spans surfaces has
// one function (core/purchases/paywall.ts) and one sweep test. A company X gets known contact
// details — its own email, phone and fax (the contacts part and a Contacts record), an officer's
// email and phone (a Connections record) and a member's email and phone — and a website, which is
// never gated. Then every surface that reads them is asked as a guest, as a signed-in reader who
// did not buy X, and as the buyer: the gated values are absent for the first two, and each surface
// shows the buyer those it holds. The website is shown to everyone where it is shown at all.
//
// The surfaces are walked from their registries where they have one: every export format, every
// record section with a gated field (and every record field of a contact kind must be gated), and
// every operation of the data, change, export and reconciliation APIs and every page route of
// the company, person, search, comparison, enrichment and report pages is either walked here or
// named with the reason it holds no contact details: a new one fails this test until it is.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { refreshExportDocuments } from '../../core/export/export-documents.ts';
import { COMPANY_EXPORT_SECTIONS, EXPORT_FORMATS } from '../../core/export/export-options.ts';
import { buildMonitoringReports } from '../../core/monitoring/build-reports.ts';
import { personPath } from '../../core/people/person-path.ts';
import { GATED_RECORD_FIELDS, HIDDEN_UNTIL_BOUGHT } from '../../core/purchases/paywall.ts';
import { writeRecords } from '../../core/records/record-writes.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';
import { collectDeliveries } from '../../core/webhooks/deliveries.ts';
import { exportJob } from '../../jobs/export.job.ts';
import { drainJobs, type JobServices } from '../../jobs/worker.ts';
import { postJson } from '../support/accounts.ts';
import { bodyText } from '../support/body-text.ts';
import { quietLog, testJobServices } from '../support/job-services.ts';
import { pageRoutes } from '../support/page-routes.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

let t: TestApp;
let x: { id: number; uri: string; name: string };
let member: { id: number; name: string; path: string };
let reader: TestUser;
let buyer: TestUser;
/** Each signed-in viewer's enrichment matched to X. */
const enrichmentOf = new Map<number, number>();
let since = 0;
let extendProperties: string[] = [];

const TODAY = new Date().toISOString().slice(0, 10);
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** X's contact details, each a value no other row holds. */
const V = {
  companyEmail: 'pw-sweep-company@paywall-sweep.example',
  companyPhone: '+99 555 0100 101',
  companyFax: '+99 555 0100 102',
  recordEmail: 'pw-sweep-record@paywall-sweep.example',
  recordPhone: '+99 555 0100 201',
  recordFax: '+99 555 0100 202',
  officerEmail: 'pw-sweep-officer@paywall-sweep.example',
  officerPhone: '+99 555 0100 301',
  memberEmail: 'pw-sweep-member@paywall-sweep.example',
  memberPhone: '+99 555 0100 401',
};
const GATED = Object.values(V);
/** A website is the company's public address: never gated. */
const WEBSITE = 'www.pw-sweep-site.example';
/** The officer of the Connections record. */
const OFFICER = 'Paywall Sweep Officer';

type Who = 'guest' | 'reader' | 'buyer';
const WHO: Who[] = ['guest', 'reader', 'buyer'];
const userOf = (who: Who): TestUser | null => (who === 'reader' ? reader : who === 'buyer' ? buyer : null);

/** A surface: how each viewer asks it, and what the buyer finds there (a guest may be refused: 401/403, or sent to sign in). */
type Surface = {
  name: string;
  ask: (who: Who) => Promise<{ status: number; text: string } | null>;
  buyerSees: string[];
  /** The website shows here (to everyone who may ask). */
  website?: boolean;
};

async function request(
  who: Who,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  form = false,
): Promise<{ status: number; text: string }> {
  const user = userOf(who);
  const headers: Record<string, string> = user ? { cookie: user.cookie, 'x-csrf-token': user.csrf } : {};
  const response = await t.app.inject({
    method,
    url,
    ...(body === undefined
      ? {}
      : form
        ? {
            payload: new URLSearchParams(body as Record<string, string>).toString(),
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          }
        : { payload: body as Record<string, unknown> }),
    ...(form ? {} : { headers }),
  });
  return {
    status: response.statusCode,
    text: await bodyText(response.rawPayload, String(response.headers['content-type'] ?? '')),
  };
}

const get = (url: string) => (who: Who) => request(who, 'GET', url);
const signedIn = (ask: (who: Who, user: TestUser) => Promise<{ status: number; text: string }>) => (who: Who) => {
  const user = userOf(who);
  return user ? ask(who, user) : Promise.resolve(null);
};

let jobs: JobServices;

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  jobs = testJobServices(t.db, t.reference);
  const k = t.db.kysely;
  // ---- X: a company with an individual member who sits on it alone ----
  const found = await sql<{ id: string; uri: string; name: string; member_id: string; member_name: string }>`
    select le.id, le.uri, le.name, m.id as member_id, m.name as member_name
    from legal_entities le
    join legal_entity_members lem on lem.legal_entity_id = le.id
    join members m on m.id = lem.member_id
    where m.name_type = 'individual' and m.legal_entity_id is null and length(le.name) >= 8
      and (select count(*) from legal_entity_members y where y.member_id = m.id) = 1
    order by le.id limit 1`.execute(k);
  const row = found.rows[0];
  x = { id: Number(row.id), uri: row.uri, name: row.name };
  member = {
    id: Number(row.member_id),
    name: row.member_name,
    path: personPath(row.member_name, Number(row.member_id)),
  };
  // Its own contacts, and the member's (no other contact of either: the counts are known).
  await k.deleteFrom('legal_entity_contacts').where('legal_entity_id', '=', x.id).execute();
  await k
    .insertInto('legal_entity_contacts')
    .values([
      { legal_entity_id: x.id, contact_type_id: 1, position: 0, contact: V.companyEmail },
      { legal_entity_id: x.id, contact_type_id: 2, position: 0, contact: V.companyPhone },
      { legal_entity_id: x.id, contact_type_id: 3, position: 0, contact: WEBSITE },
      { legal_entity_id: x.id, contact_type_id: 4, position: 0, contact: V.companyFax },
    ])
    .execute();
  await sql`delete from member_contacts where member_id in (select member_id from legal_entity_members where legal_entity_id = ${x.id})`.execute(
    k,
  );
  await k
    .insertInto('member_contacts')
    .values([
      { member_id: member.id, contact_type_id: 1, contact: V.memberEmail },
      { member_id: member.id, contact_type_id: 2, contact: V.memberPhone },
    ])
    .execute();
  await k.deleteFrom('contacts').where('legal_entity_id', '=', x.id).execute();
  await k.deleteFrom('connections').where('legal_entity_id', '=', x.id).execute();

  // ---- the reader and the buyer: credits, a tracking and a webhook of X, a comparison and an enrichment ----
  reader = await createSignedInUser(t.db, 'paywall-reader');
  buyer = await createSignedInUser(t.db, 'paywall-buyer');
  for (const user of [reader, buyer]) {
    await grantCredits(t.db, user.id, 100);
    const tracked = await postJson(
      t.app,
      'POST',
      `/api/existing_objects_tracking/users/${user.id}`,
      { object_id: x.id },
      user,
    );
    expect(tracked.statusCode, tracked.body).toBeLessThan(300);
    await k
      .insertInto('webhooks')
      .values({ user_id: user.id, url: 'https://hooks.example.com/pw', secret: 's' })
      .execute();
    await k
      .insertInto('saved_comparisons')
      .values({ user_id: user.id, legal_entity_ids: [x.id] })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ legal_entity_ids: [x.id] }))
      .execute();
    const enrichment = await k
      .insertInto('enrichments')
      .values({
        user_id: user.id,
        file_name: 'paywall.csv',
        columns: JSON.stringify(['name']),
        mapping: JSON.stringify({ name: 'name' }),
        rows_total: 1,
        rows_done: 1,
        status: 'done',
        finished_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    enrichmentOf.set(user.id, Number(enrichment.id));
    await k
      .insertInto('enrichment_rows')
      .values({
        enrichment_id: Number(enrichment.id),
        row_number: 1,
        cells: JSON.stringify(['the row']),
        outcome: 'matched',
        score: 0.99,
        company_id: x.id,
        candidates: JSON.stringify([{ id: x.id, uri: x.uri, name: x.name, country: null, score: 0.99 }]),
      })
      .execute();
  }
  since = Number(
    (await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(k)).rows[0].id,
  );
  await sql`update webhooks set last_change_id = ${since} where user_id in (${reader.id}, ${buyer.id})`.execute(k);
  await sql`update existing_objects_tracking set last_change_id = ${since} where user_id in (${reader.id}, ${buyer.id})`.execute(
    k,
  );

  // ---- the buyer buys X's full profile (before the changes: a webhook payload is written for its owner when collected) ----
  const bought = await postJson(t.app, 'POST', `/api/purchases/users/${buyer.id}`, { object_id: x.id }, buyer);
  expect(bought.json().created, bought.body).toBe(true);
  // ---- X's records, written as an import writes them: each a change the feed, webhooks and reports tell ----
  await writeRecords(t.db, {
    companyId: x.id,
    section: 'contacts',
    added: [{ website: WEBSITE, email: V.recordEmail, phone: V.recordPhone, fax: V.recordFax, updated_on: TODAY }],
    source: 'demo',
  });
  await writeRecords(t.db, {
    companyId: x.id,
    section: 'connections',
    added: [{ name: OFFICER, position: 'director', email: V.officerEmail, phone: V.officerPhone, since: TODAY }],
    source: 'demo',
  });
  await afterCompanyWrite(t.db, { companies: [x.id], names: [] });
  await refreshExportDocuments(t.db, [x.id]);
  await buildMonitoringReports(t.db, t.reference);
  await collectDeliveries(t.db, t.reference);

  const proposed = (await t.app.inject({ url: '/api/reconcile/extend/propose?type=company' })).json();
  extendProperties = (proposed.properties as { id: string }[]).map((p) => p.id);
}, 120_000);
afterAll(async () => {
  await jobs?.mailer.close();
  await t?.close();
});

/** Every record section with a gated field, as its data API names it. */
const GATED_SECTIONS = RECORD_SECTIONS.filter((s) => GATED_RECORD_FIELDS[s.table]);
/** What the buyer finds in each gated record section. */
const RECORD_VALUES: Record<string, string[]> = {
  connections: [V.officerEmail, V.officerPhone],
  contacts: [V.recordEmail, V.recordPhone, V.recordFax],
};
const EXPORT_SECTIONS = COMPANY_EXPORT_SECTIONS.join('|');

function surfaces(): Surface[] {
  const profile = `/companies/details/${encodeURIComponent(x.uri)}/`;
  const list: Surface[] = [
    {
      name: 'the profile page',
      ask: get(profile),
      buyerSees: [V.companyEmail, V.companyPhone, V.companyFax, V.recordEmail, V.officerEmail],
      website: true,
    },
    { name: 'the profile page in German', ask: get(`/de${profile}`), buyerSees: [V.companyEmail], website: true },
    { name: 'the person page', ask: get(member.path), buyerSees: [V.memberEmail, V.memberPhone] },
    { name: 'the History tab', ask: get(`${profile}history/`), buyerSees: [V.recordEmail, V.recordPhone] },
    {
      name: 'the compare view (as of)',
      ask: get(`${profile}compare/?from=${YESTERDAY}&to=${TODAY}`),
      buyerSees: [V.recordEmail],
    },
    {
      name: 'the comparison page',
      ask: signedIn((who) => request(who, 'GET', '/companies/comparison/')),
      buyerSees: [],
    },
    {
      name: 'the comparison PDF',
      ask: signedIn((who) => request(who, 'GET', '/companies/comparison/pdf/')),
      buyerSees: [],
    },
    {
      name: 'the update reports page',
      ask: signedIn((who) => request(who, 'GET', '/companies/monitoring/updates/reports/')),
      buyerSees: [V.recordEmail],
    },
    {
      name: 'the update reports API',
      ask: signedIn((who, user) => request(who, 'GET', `/api/existing_objects_reports/users/${user.id}`)),
      buyerSees: [V.recordEmail],
    },
    {
      name: 'the data API: a legal entity',
      ask: get(`/api/site/data/v1/legal_entities?id=${x.id}&sections=le_contacts|le_members`),
      buyerSees: [V.companyEmail, V.companyPhone, V.companyFax],
      website: true,
    },
    {
      name: 'the data API: legal entities by le_le_id',
      ask: get(`/api/site/data/v1/legal_entities?le_le_id=${x.id}&sections=le_contacts`),
      buyerSees: [V.companyEmail],
      website: true,
    },
    {
      name: 'the data API: a search',
      ask: get(`/api/site/data/v1/legal_entities?q=${encodeURIComponent(x.name)}&sections=le_contacts&count=100`),
      buyerSees: [V.companyEmail],
      website: true,
    },
    {
      name: 'the data API: a POST search',
      ask: (who) =>
        request(who, 'POST', '/api/site/data/v1/legal_entities/search', {
          q: x.name,
          sections: 'le_contacts',
          count: 100,
        }),
      buyerSees: [V.companyEmail],
      website: true,
    },
    { name: 'suggest', ask: get(`/api/suggest?q=${encodeURIComponent(x.name)}`), buyerSees: [] },
    {
      name: 'matching',
      ask: (who) => request(who, 'POST', '/api/match', { queries: [{ name: x.name, domain: WEBSITE }] }),
      buyerSees: [],
    },
    {
      name: "reconciliation's data extension",
      ask: (who) =>
        request(
          who,
          'POST',
          '/api/reconcile',
          { extend: JSON.stringify({ ids: [x.uri], properties: extendProperties.map((id) => ({ id })) }) },
          true,
        ),
      buyerSees: [],
      website: true,
    },
    {
      name: 'the change feed',
      ask: get(`/api/changes?since=${since}&company=${x.id}&count=100`),
      buyerSees: [V.recordEmail, V.recordPhone, V.recordFax],
    },
    {
      name: 'a webhook payload',
      ask: signedIn(async (_who, user) => {
        const rows = await t.db.kysely
          .selectFrom('webhook_deliveries')
          .select('payload')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows.length).toBeGreaterThan(0);
        return { status: 200, text: rows.map((r) => JSON.stringify(r.payload)).join('\n') };
      }),
      buyerSees: [V.recordEmail, V.recordPhone],
    },
  ];
  for (const section of GATED_SECTIONS) {
    const api = section.api ?? section.table;
    list.push(
      {
        name: `the ${section.id} search page`,
        ask: get(`/${section.id}/search/?company=${x.id}`),
        buyerSees: RECORD_VALUES[section.table] ?? [],
      },
      {
        name: `the data API: ${api}`,
        ask: get(`/api/site/data/v1/${api}?le_le_id=${x.id}`),
        buyerSees: RECORD_VALUES[section.table] ?? [],
      },
      {
        name: `the data API: ${api} POST search`,
        ask: (who) =>
          request(who, 'POST', `/api/site/data/v1/${api}/search`, { filter: { company: String(x.id) }, count: 100 }),
        buyerSees: RECORD_VALUES[section.table] ?? [],
      },
    );
  }
  for (const format of EXPORT_FORMATS) {
    list.push(
      {
        name: `the companies export (${format})`,
        ask: get(`/api/export/companies?format=${format}&scope=selected&ids=${x.id}&sections=${EXPORT_SECTIONS}`),
        buyerSees: [V.companyEmail, V.companyPhone, V.companyFax, V.memberEmail, V.memberPhone],
        website: true,
      },
      {
        // The background export writes its file through the same reader, as its starter sees it (ADR 0031).
        name: `the companies export job (${format})`,
        ask: signedIn(async (who) => {
          const started = await request(who, 'POST', '/api/exports', {
            section: 'companies',
            format,
            scope: 'selected',
            ids: [x.id],
            sections: [...COMPANY_EXPORT_SECTIONS],
          });
          expect(started.status, started.text).toBe(202);
          // bodyText appends a URL-decoded copy on a second line: the JSON is the first.
          const { id } = JSON.parse(started.text.split('\n')[0]) as { id: number };
          await drainJobs({
            services: jobs,
            log: quietLog,
            definitions: [exportJob as never],
            daily: false,
            retryDelay: () => 0,
          });
          const state = JSON.parse((await request(who, 'GET', `/api/exports/${id}`)).text.split('\n')[0]) as {
            status: string;
          };
          expect(state.status).toBe('done');
          return request(who, 'GET', `/api/exports/${id}/file`);
        }),
        buyerSees: [V.companyEmail, V.companyPhone, V.companyFax, V.memberEmail, V.memberPhone],
        website: true,
      },
      {
        name: `the enrichment download (${format})`,
        ask: signedIn((who, user) =>
          request(
            who,
            'GET',
            `/companies/enrichment/${enrichmentOf.get(user.id)}/download/?format=${format}&sections=${COMPANY_EXPORT_SECTIONS.join(',')}`,
          ),
        ),
        buyerSees: [V.companyEmail, V.companyPhone, V.companyFax, V.memberEmail],
        website: true,
      },
    );
    for (const section of GATED_SECTIONS) {
      list.push({
        name: `the ${section.id} export (${format})`,
        ask: get(`/api/export/${section.id}?format=${format}&company=${x.id}`),
        buyerSees: RECORD_VALUES[section.table] ?? [],
      });
    }
  }
  return list;
}

/** The operations walked above, and those that hold no contact details, with the reason. */
const WALKED_OPERATIONS = new Set([
  'getLegalEntities',
  'searchLegalEntities',
  'getSuggestions',
  'matchCompanies',
  'reconcileForm',
  'listChanges',
  'exportRecords',
  'startExport',
  'getExport',
  'downloadExport',
  'listUpdateReports',
  ...GATED_SECTIONS.flatMap((s) => {
    const pascal = (s.api ?? s.table).replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
    return [`get${pascal}`, `search${pascal}`];
  }),
]);
const NO_CONTACTS: Record<string, string> = {
  getLegalEntityFilters: 'filter descriptions: names of parameters and reference values',
  getLegalEntityFiltersV2: 'filter descriptions: names of parameters and reference values',
  getLegalEntityStatistics: 'counts',
  getLegalEntityOwnership: 'ownership (ADR 0038): names, countries, LEIs, natures of control; public like GLEIF',
  getShares: 'share capital',
  reconcile: 'candidates by name (the GET twin of reconcileForm, whose extension is walked)',
  reconcileSuggestEntity: 'company names',
  reconcileSuggestProperty: 'property names',
  reconcileProposeProperties: 'property names',
  reconcilePreview: 'a company’s name, address and identifiers',
  listWebhooks: 'the user’s webhook settings',
  createWebhook: 'the user’s webhook settings',
  getWebhook: 'the user’s webhook settings',
  updateWebhook: 'the user’s webhook settings',
  deleteWebhook: 'the user’s webhook settings',
  listWebhookDeliveries: 'the deliveries’ payloads, walked as “a webhook payload” (written at collection)',
  replayWebhookDelivery: 'sends a payload written at collection (walked as “a webhook payload”)',
  listExports: 'the user’s export jobs: states and counts (their files are walked as “the companies export job”)',
  listExportViewSettings: 'the user’s export settings',
  saveExportViewSetting: 'the user’s export settings',
  updateExportViewSetting: 'the user’s export settings',
  deleteExportViewSettings: 'the user’s export settings',
};
/** Record sections' operations without a gated field. */
const UNGATED_RECORD_OPERATIONS = new Set(
  RECORD_SECTIONS.filter((s) => !GATED_RECORD_FIELDS[s.table]).flatMap((s) => {
    const pascal = (s.api ?? s.table).replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
    return [`get${pascal}`, `search${pascal}`];
  }),
);
const SWEPT_TAGS = ['Data', 'Changes and webhooks', 'Export', 'Reconciliation'];

/** The page routes that may show a company's contact details, walked above; the others of their kind, with the reason. */
const WALKED_PAGES = [
  '/companies/details/:uri/',
  '/companies/details/:uri/history/',
  '/companies/details/:uri/compare/',
  '/members/details/:name/:id/',
  '/:section/search/',
  '/companies/comparison/',
  '/companies/comparison/pdf/',
  '/companies/monitoring/updates/reports/',
  '/companies/enrichment/:id/download/',
];
const PAGES_WITHOUT_CONTACTS: Record<string, string> = {
  '/:section/search/advanced/': 'the advanced search form: parameters, no rows',
  '/companies/history/search/': 'the user’s searches',
  '/dashboard/history/search/companies/': 'the user’s searches',
  '/dashboard/saved-searches/': 'the user’s saved searches',
  '/:section/search/f/*/': 'the same search page as /:section/search/ (path filters)',
  '/:section/search/choices/:field/': 'a filter’s whole list of values (places, forms, industries): no rows',
  '/companies/enrichment/': 'the list of the user’s files',
  '/companies/enrichment/:id/': 'the review: candidates’ names and countries',
  '/companies/enrichment/:id/review/': 'a review decision’s outcome and counts (JSON)',
  '/companies/monitoring/new/reports/': 'new companies: names',
  '/members/search/': 'people: names, positions and companies',
};
const PAGE_KINDS = /details|search|comparison|enrichment|reports|members/;

describe('what a purchase unlocks, on every surface', () => {
  it('gates every record field of a contact kind, and every walked list is complete', async () => {
    for (const section of RECORD_SECTIONS) {
      const contactFields = section.fields
        .filter((f) => /email|phone|fax/.test(f.key))
        .map((f) => f.key)
        .sort();
      expect([...(GATED_RECORD_FIELDS[section.table] ?? [])].sort(), section.id).toEqual(contactFields);
    }
    const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; tags?: string[] }>>;
    };
    const operations = Object.values(document.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => (op.tags ?? []).some((tag) => SWEPT_TAGS.includes(tag)))
      .map((op) => op.operationId);
    const unlisted = operations.filter(
      (id) => !WALKED_OPERATIONS.has(id) && !NO_CONTACTS[id] && !UNGATED_RECORD_OPERATIONS.has(id),
    );
    expect(unlisted, 'operations the paywall sweep neither walks nor names').toEqual([]);
    const pages = (await pageRoutes()).map((r) => r.pattern).filter((p) => PAGE_KINDS.test(p));
    const unlistedPages = pages.filter((p) => !WALKED_PAGES.includes(p) && !PAGES_WITHOUT_CONTACTS[p]);
    expect(unlistedPages, 'page routes the paywall sweep neither walks nor names').toEqual([]);
  });

  it('hides the gated values from a guest and from a reader who did not buy, and shows them to the buyer', async () => {
    const failures: string[] = [];
    // Twice in one process: the second pass meets the profile's kept parts (ADR 0040, "Rendered
    // parts of the profile"), the buyer's now asked first, so that what the buyer's view kept would
    // reach the others if its key did not hold the paywall state.
    for (const [pass, order] of [
      [1, WHO],
      [2, [...WHO].reverse()],
    ] as const)
      for (const surface of surfaces()) {
        for (const who of order) {
          const answer = await surface.ask(who);
          if (answer === null) continue;
          const where = `pass ${pass}: ${surface.name} as the ${who} (${answer.status})`;
          if (who !== 'buyer') {
            for (const value of GATED) if (answer.text.includes(value)) failures.push(`${where}: shows ${value}`);
            // A guest may be refused or sent to sign in; a reader is served.
            if (who === 'reader' && answer.status !== 200) failures.push(`${where}: not served`);
            if (who === 'reader' && surface.website && !answer.text.includes(WEBSITE))
              failures.push(`${where}: hides the website`);
            continue;
          }
          if (answer.status !== 200) failures.push(`${where}: not served`);
          for (const value of surface.buyerSees)
            if (!answer.text.includes(value)) failures.push(`${where}: does not show ${value}`);
          if (surface.website && !answer.text.includes(WEBSITE)) failures.push(`${where}: hides the website`);
        }
      }
    expect(failures).toEqual([]);
  }, 300_000);

  it('says a change of a gated value was made without its value, in the reader’s language', async () => {
    const feed = await t.app.inject({
      url: `/api/changes?since=${since}&company=${x.id}&count=100&lang=de`,
      headers: { cookie: reader.cookie },
    });
    const items = feed.json().data as {
      field: string;
      new_value: Record<string, unknown>;
      display: { new: string };
    }[];
    const contacts = items.find((i) => i.field === 'records.contacts');
    expect(contacts?.new_value.email).toBe(HIDDEN_UNTIL_BOUGHT);
    expect(contacts?.new_value.website).toBe(WEBSITE);
    expect(contacts?.display.new).toContain('nach dem Kauf sichtbar');
  });
});

describe('the purchase box', () => {
  it('counts what the purchase shows, and offers nothing where there is nothing', async () => {
    const page = await request('reader', 'GET', `/companies/details/${encodeURIComponent(x.uri)}/`);
    // 2 emails (the part's and the record's), 2 phones, 2 faxes; the officers': 2 emails, 2 phones.
    expect(page.text).toContain(
      "Buying it shows: 2 emails, 2 phone numbers, 2 fax numbers, 2 officers' emails, 2 officers' phone numbers.",
    );
    const fr = await request('reader', 'GET', `/fr/companies/details/${encodeURIComponent(x.uri)}/`);
    expect(fr.text).toContain('2 e-mails, 2 numéros de téléphone');

    // A company with no contact details: no price, no button, and the API sells nothing (409).
    const bare = await sql<{ id: string; uri: string }>`select le.id, le.uri from legal_entities le
      where not exists (select 1 from legal_entity_contacts c where c.legal_entity_id = le.id)
        and not exists (select 1 from contacts r where r.legal_entity_id = le.id and (r.email is not null or r.phone is not null or r.fax is not null))
        and not exists (select 1 from connections r where r.legal_entity_id = le.id and (r.email is not null or r.phone is not null))
        and not exists (select 1 from legal_entity_members lem join member_contacts mc on mc.member_id = lem.member_id
          where lem.legal_entity_id = le.id)
      order by le.id limit 1`.execute(t.db.kysely);
    const none = bare.rows[0];
    expect(none).toBeDefined();
    const nonePage = await request('reader', 'GET', `/companies/details/${encodeURIComponent(none.uri)}/`);
    expect(nonePage.text).toContain('This company has no emails or phone numbers on record: there is nothing to buy.');
    expect(nonePage.text).not.toContain('Open the full profile');
    const before = await t.db.kysely
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.sum<number>('delta').as('sum'))
      .where('user_id', '=', reader.id)
      .executeTakeFirstOrThrow();
    const refused = await postJson(
      t.app,
      'POST',
      `/api/purchases/users/${reader.id}`,
      { object_id: Number(none.id) },
      reader,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('nothing to buy');
    expect(refused.json().error.details.reason).toBe('nothing_to_unlock');
    const after = await t.db.kysely
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.sum<number>('delta').as('sum'))
      .where('user_id', '=', reader.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.sum)).toBe(Number(before.sum));
    // The page's own form buys nothing either: back to the page, nothing charged.
    const form = await t.app.inject({
      method: 'POST',
      url: `/companies/details/${encodeURIComponent(none.uri)}/`,
      payload: new URLSearchParams({ _csrf: reader.csrf, intent: 'buy-profile' }).toString(),
      headers: { cookie: reader.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(303);
    expect(await t.db.kysely.selectFrom('purchases').select('id').where('user_id', '=', reader.id).execute()).toEqual(
      [],
    );
  });

  it('refuses a purchase of an unknown or malformed company with a 4xx naming object_id', async () => {
    for (const object_id of [999_999_999_999, -1, 'x']) {
      const answer = await postJson(t.app, 'POST', `/api/purchases/users/${reader.id}`, { object_id }, reader);
      expect(answer.statusCode, String(object_id)).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
      expect(answer.body).toContain('object_id');
    }
  });
});
