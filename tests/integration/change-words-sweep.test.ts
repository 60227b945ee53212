// Every field a source can change, in words on every surface (docs/decisions/0026-changes-in-words.md):
// the update report page, the History tab, the digest's line, the change feed's and a webhook's
// `display`, in English, German and French — no raw code (an ELF code, a GLEIF word, a status uri,
// an industry scheme, a bare ISO 3166 code) and no ISO date anywhere. The values are shaped as the
// real imports write them (tests/fixtures and ../shared/fixtures: GLEIF's LEI-CDF, Companies House's
// basic company data and PSC snapshot, Brønnøysund, SEC submissions).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLineText, loadChangeWords } from '../../core/changes/change-words.ts';
import { formatDay } from '../../core/i18n/i18n.ts';
import { IMPORT_FIELD_NAMES, type ImportField, importFieldLabel } from '../../core/imports/fields.ts';
import { buildMonitoringReports } from '../../core/monitoring/build-reports.ts';
import { trackCompany } from '../../core/monitoring/existing-trackings.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { collectDeliveries } from '../../core/webhooks/deliveries.ts';
import { RAW_CODES } from '../support/change-words.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  // The ELF code the sample's legal form moves to, as the ELF list import writes it.
  await t.db.kysely
    .insertInto('legal_forms')
    .values({
      code: 'H0PO',
      country_code: 'GB',
      subdivision_code: null,
      jurisdiction_id: null,
      status: 'ACTV',
    } as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
  await t.db.kysely
    .insertInto('legal_form_names')
    .values({ code: 'H0PO', language_code: 'en', name: 'Private Limited Company', abbreviations: ['Ltd'] } as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
});
afterAll(() => t?.close());

const { get } = pageClient(() => t.app);

const LANGS: Lang[] = ['en', 'de', 'fr'];

const sheffield = {
  lines: ['UNIT 3 NEWTON BUSINESS CENTRE', 'NEWTON CHAMBERS ROAD'],
  city: 'SHEFFIELD',
  region: null,
  postCode: 'S35 2PH',
  country: 'GB',
};
const austin = { lines: ['1 Tesla Road'], city: 'Austin', region: 'US-TX', postCode: '78725', country: 'US' };
const registration = {
  lei: '54930043XZGB27CTOV49',
  entityStatus: 'ACTIVE',
  registrationStatus: 'ISSUED',
  initialRegistrationDate: '2012-06-06T15:53:00.000Z',
  lastUpdateDate: '2023-06-01T08:00:00.000Z',
  nextRenewalDate: '2024-06-01T00:00:00.000Z',
  managingLou: '5493001KJTIIGC8Y1R12',
  validationSources: 'FULLY_CORROBORATED',
};

/** An old and a new value of each field, shaped as the imports write them (a `null` old: first recorded). */
const SAMPLES = {
  company: { old: null, new: { name: 'ACME WIDGETS LIMITED', jurisdiction: 'GB' } },
  merged: { old: { id: 123, uri: 'widget-co-limited-123', name: 'WIDGET CO LIMITED' }, new: null },
  name: { old: 'ACME WIDGETS LIMITED', new: 'ACME WIDGETS HOLDINGS LIMITED' },
  other_names: {
    old: [{ name: 'WIDGET CO LIMITED', type: 'previous', language: null, until: '2019-03-31' }],
    new: [
      { name: 'WIDGET CO LIMITED', type: 'previous', language: null, until: '2019-03-31' },
      { name: 'ACME', type: 'trade', language: null },
    ],
  },
  'addresses.legal': { old: sheffield, new: { ...austin, lines: ['13101 Harold Green Road'] } },
  'addresses.headquarters': { old: null, new: austin },
  'addresses.postal': { old: sheffield, new: null },
  jurisdiction: { old: 'US-DE', new: 'US-TX' },
  legal_form: { old: { elfCode: '8888', other: 'LIMITED' }, new: { elfCode: 'H0PO', other: null } },
  status: { old: 'active', new: 'in-liquidation' },
  registered_on: { old: null, new: '2020-07-29' },
  dissolved_on: { old: null, new: '2024-03-31' },
  'dates.accounts': { old: '2022-04-29', new: '2023-04-29T00:00:00.000Z' },
  'dates.annual_report': { old: '2021-08-26', new: '2022-08-26' },
  'identifiers.company_number': { old: null, new: '12778855' },
  'identifiers.lei': { old: null, new: '54930043XZGB27CTOV49' },
  'identifiers.tax_number': { old: '88-0287652', new: '91-2197729' },
  'identifiers.vat': { old: null, new: 'GB123456789' },
  'identifiers.business_number': { old: null, new: '923609016' },
  registration_authority: { old: null, new: { id: 'RA000585', number: '12778855' } },
  lei_registration: {
    old: registration,
    new: { ...registration, registrationStatus: 'LAPSED', validationSources: 'ENTITY_SUPPLIED_ONLY' },
  },
  industries: {
    old: [{ scheme: 'uk-sic-2007', code: '78300', primary: true }],
    new: [
      { scheme: 'uk-sic-2007', code: '62020', primary: true },
      { scheme: 'nace-2', code: '70.22', primary: false },
    ],
  },
  members: {
    old: [],
    new: [
      {
        name: 'Jane DOE',
        kind: 'individual',
        position: 'director',
        since: '2020-07-29',
        country: 'GB',
        born: { month: 12, year: 1961 },
      },
      {
        name: 'HOLDCO LIMITED',
        kind: 'legal_entity',
        position: 'shareholder',
        since: '2021-01-01',
        country: 'GB',
        natures: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
      },
    ],
  },
  documents: {
    old: null,
    new: [{ id: 'MzMxNjQ', title: 'Confirmation statement', type: 'annual_return', filedOn: '2021-08-26' }],
  },
  tickers: { old: ['TSLA'], new: ['TSLA', 'TL0'] },
  employees: { old: '1-10', new: '11-50' },
  reporting_exceptions: {
    old: null,
    new: { category: 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', reasons: ['NATURAL_PERSONS'], reference: null },
  },
} satisfies Record<ImportField, { old: unknown; new: unknown }>;

/** What must never reach a reader: the raw codes of every import, and those of this sample. */
const RAW = [...RAW_CODES, /H0PO/, /RA000585/, /annual_return/, /\bACTIVE\b/, /\b(GB|US|US-DE|US-TX)\b/];

function expectWords(text: string, where: string) {
  for (const raw of RAW) expect(text, `${where}: ${raw} in “${text}”`).not.toMatch(raw);
}

/** A `display`'s texts (null: no value), one after the other. */
const displayText = (display: Record<string, unknown>) =>
  [display.field, display.old, display.new].map((v) => (v === null ? '' : String(v))).join(' | ');

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

async function recordSamples(companyId: number): Promise<number> {
  const before = await sql<{ id: string }>`select coalesce(max(id), 0) as id from company_changes`.execute(t.db.kysely);
  for (const field of IMPORT_FIELD_NAMES) {
    const sample = SAMPLES[field];
    await sql`insert into company_changes (legal_entity_id, field, old_value, new_value, source, source_date, observed_at)
      values (${companyId}, ${field}, ${sample.old === null ? null : JSON.stringify(sample.old)}::jsonb,
        ${sample.new === null ? null : JSON.stringify(sample.new)}::jsonb, 'gleif-lei', '2024-05-05T00:00:00Z',
        '2024-05-06T08:00:00Z')`.execute(t.db.kysely);
  }
  return Number(before.rows[0].id);
}

describe('every field a source can change, in words', () => {
  it('has a sample here (a new field joins the sweep)', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...IMPORT_FIELD_NAMES].sort());
  });

  for (const lang of LANGS) {
    const prefix = lang === 'en' ? '' : `/${lang}`;

    it(`reads as words in ${lang}: report lines, history lines, the digest's lines, the feed's and a webhook's display`, async () => {
      const [company] = await someCompanies(t.db, 1, 50 + LANGS.indexOf(lang));
      const user = await createSignedInUser(t.db, `words-${lang}`);
      await t.db.kysely.updateTable('users').set({ language: lang }).where('id', '=', user.id).execute();
      await trackCompany(t.db, user.id, company.id);
      await t.db.kysely
        .insertInto('webhooks')
        .values({ user_id: user.id, url: 'https://hooks.example.com/registra', secret: 'whsec_test' })
        .execute();
      // Cursors start now: only the sample's changes are reported and pushed.
      await sql`update existing_objects_tracking set last_change_id = (select coalesce(max(id), 0) from company_changes)
        where user_id = ${user.id}`.execute(t.db.kysely);
      await sql`update webhooks set last_change_id = (select coalesce(max(id), 0) from company_changes)
        where user_id = ${user.id}`.execute(t.db.kysely);
      const since = await recordSamples(company.id);
      await buildMonitoringReports(t.db, t.reference);

      // ---- the update report page ----
      const page = await get(`${prefix}/companies/monitoring/updates/reports/`, user);
      expect(page.statusCode).toBe(200);
      const changes = /<ul class="cell-lines change-lines">.*<\/details>/s.exec(page.body)?.[0] ?? '';
      expect(changes).not.toBe('');
      const reportText = textOf(changes);
      expectWords(reportText, `${lang} report`);
      // A field filled for the first time is never a change from nothing (a removed one may well be one to nothing).
      const none = lang === 'en' ? '(none)' : lang === 'de' ? '(keine Angabe)' : '(aucune valeur)';
      expect(reportText).not.toContain(`${none} →`);
      // Labels in the page's language, the source's date and Registra's, each line linked to the history at its field.
      expect(reportText).toContain(importFieldLabel('legal_form', lang));
      expect(reportText).toContain(formatDay(lang, '2024-05-05'));
      expect(reportText).toContain(formatDay(lang, '2024-05-06'));
      expect(reportText).toContain('GLEIF');
      expect(page.body).toContain(
        `href="${prefix}/companies/details/${encodeURIComponent(company.uri)}/history/?field=legal_form"`,
      );
      // The fields filled for the first time, in one folded group after the changed ones.
      const firstFields = IMPORT_FIELD_NAMES.filter(
        (f) =>
          f !== 'company' &&
          (SAMPLES[f].old === null || (Array.isArray(SAMPLES[f].old) && SAMPLES[f].old.length === 0)),
      );
      const folded = /<details class="first-recorded"><summary>([^<]*)<\/summary>(.*?)<\/details>/s.exec(page.body);
      expect(folded?.[1]).toContain(String(firstFields.length));
      const foldedFields = [...(folded?.[2] ?? '').matchAll(/data-field="([^"]+)"/g)].map((m) => m[1]);
      expect(foldedFields.sort()).toEqual([...firstFields].sort());
      const changedFields = [...changes.slice(0, changes.indexOf('<details')).matchAll(/data-field="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(changedFields).toContain('legal_form');
      expect(changedFields).not.toContain('registered_on');

      // ---- the History tab ----
      const history = await get(`${prefix}/companies/details/${company.uri}/history/`);
      expect(history.statusCode).toBe(200);
      const table = /<tbody>(.*?)<\/tbody>/s.exec(history.body)?.[1] ?? '';
      const historyText = textOf(table);
      expectWords(historyText, `${lang} history`);
      expect(historyText).toContain(formatDay(lang, '2024-05-05'));
      expect(historyText).toContain('GLEIF');

      // ---- the digest's lines (core/monitoring/tell-users.ts writes each change with changeLineText) ----
      const sampleChanges = IMPORT_FIELD_NAMES.map((field) => ({ field, ...SAMPLES[field] }));
      const words = await loadChangeWords(t.db.kysely, t.reference, lang, sampleChanges);
      for (const change of sampleChanges) expectWords(changeLineText(change, words), `${lang} digest ${change.field}`);

      // ---- the change feed, by `lang` and by Accept-Language ----
      const feedUrl = `/api/changes?since=${since}&company=${company.id}&count=100`;
      const byParam = await t.app.inject({
        method: 'GET',
        url: `${feedUrl}&lang=${lang}`,
        headers: { cookie: user.cookie },
      });
      expect(byParam.statusCode).toBe(200);
      const items = byParam.json().data as { field: string; new_value: unknown; display: Record<string, unknown> }[];
      expect(items.map((i) => i.field)).toEqual(IMPORT_FIELD_NAMES);
      for (const item of items) expectWords(displayText(item.display), `${lang} feed ${item.field}`);
      // The raw value stays beside the words.
      expect(items.find((i) => i.field === 'legal_form')?.new_value).toEqual({ elfCode: 'H0PO', other: null });
      expect(items.find((i) => i.field === 'legal_form')?.display.field).toBe(importFieldLabel('legal_form', lang));
      const byHeader = await t.app.inject({
        method: 'GET',
        url: feedUrl,
        headers: { cookie: user.cookie, 'accept-language': `${lang}-XX,${lang};q=0.9` },
      });
      expect(byHeader.json().data).toEqual(items);

      // ---- a webhook's payload, in its owner's language ----
      await collectDeliveries(t.db, t.reference);
      const deliveries = await t.db.kysely
        .selectFrom('webhook_deliveries')
        .select('payload')
        .where('user_id', '=', user.id)
        .execute();
      const pushed = deliveries.flatMap(
        (d) =>
          (typeof d.payload === 'string' ? JSON.parse(d.payload) : d.payload).changes as {
            field: string;
            display: Record<string, unknown>;
          }[],
      );
      expect(pushed.map((c) => c.field)).toEqual(IMPORT_FIELD_NAMES);
      for (const change of pushed) expectWords(displayText(change.display), `${lang} webhook ${change.field}`);
      expect(pushed.find((c) => c.field === 'status')?.display).toEqual(
        items.find((i) => i.field === 'status')?.display,
      );
    });
  }

  it('names codes as the profile does, and the German report page is German', async () => {
    const en = await loadChangeWords(t.db.kysely, t.reference, 'en', [{ field: 'legal_form', ...SAMPLES.legal_form }]);
    const line = (field: ImportField, words = en) => changeLineText({ field, ...SAMPLES[field] }, words);
    expect(line('legal_form')).toBe('Legal form: LIMITED → Private Limited Company · Ltd');
    expect(line('status')).toBe('Status: Active → In liquidation');
    expect(line('jurisdiction')).toBe('Jurisdiction: Delaware → Texas');
    expect(line('registered_on')).toBe('Registration date: 29 Jul 2020 (first recorded)');
    expect(line('addresses.postal')).toBe(
      'Postal address: UNIT 3 NEWTON BUSINESS CENTRE, NEWTON CHAMBERS ROAD, S35 2PH SHEFFIELD, United Kingdom → (none)',
    );
    expect(line('lei_registration')).toContain('Lapsed (not renewed)');
    expect(line('lei_registration')).toContain('supplied by the entity only');
    const de = await loadChangeWords(t.db.kysely, t.reference, 'de', []);
    expect(line('status', de)).toBe('Status: Aktiv → In Liquidation');
    expect(line('members', de)).toContain('Jane DOE (Geschäftsführer, seit 29. Juli 2020');

    const [company] = await someCompanies(t.db, 1, 60);
    const user = await createSignedInUser(t.db, 'words-german-page');
    await trackCompany(t.db, user.id, company.id);
    await sql`update existing_objects_tracking set last_change_id = (select coalesce(max(id), 0) from company_changes)
      where user_id = ${user.id}`.execute(t.db.kysely);
    await recordSamples(company.id);
    await buildMonitoringReports(t.db, t.reference);
    const page = await get('/de/companies/monitoring/updates/reports/', user);
    const text = textOf(page.body);
    expect(page.body).toContain('<html lang="de"');
    for (const english of ['Legal form', 'Status: Active', 'First recorded', 'seen by Registra', 'Dated '])
      expect(text).not.toContain(english);
    expect(text).toContain('Rechtsform');
    expect(text).toContain('Erstmals erfasst');
    expect(text).toContain('von Registra erfasst am');
  });
});
