import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { chCompaniesSource } from '../../core/imports/sources/companies-house/ch-companies-source.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { trackCompany } from '../../core/monitoring/existing-trackings.ts';
import { listUpdateReports } from '../../core/monitoring/reports.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { BASIC_COMPANY_DATA_HEADER } from '../../db/seed/companies-house-file.ts';
import { splitLegalForm } from '../../db/seed/company-factory.ts';
import { COUNTRY_PROFILES } from '../../db/seed/country-profiles.ts';
import { advanceDays, dayRecords, renamed, writeChDayFile, writeDayFile } from '../../db/seed/demo-advance.ts';
import { drainJobs } from '../../jobs/worker.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createSignedInUser } from '../support/users.ts';

// `demo advance` (docs/decisions/0014-importers.md "Demo updates"): a GLEIF delta file per day for
// the demo companies, in the real layout, imported through the gleif-lei importer: renamed, moved
// and inactive companies and new ones appear in the change history, the same day twice changes
// nothing, and a tracked company's change reaches its update report.

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'registra-demo-advance-'));
});
afterAll(async () => {
  await t?.db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('demo advance', () => {
  it('puts " Holding" before the legal form, kept whole, once', () => {
    expect(renamed('Acme Bau GmbH', 'DE')).toBe('Acme Bau Holding GmbH');
    expect(renamed('Acme Bau Holding GmbH', 'DE')).toBe('Acme Bau Holding GmbH');
    expect(renamed('Schwäbische Wohnbau UG (haftungsbeschränkt)', 'DE')).toBe(
      'Schwäbische Wohnbau Holding UG (haftungsbeschränkt)',
    );
    expect(renamed('Gauder Software GmbH & Co. KG', 'DE')).toBe('Gauder Software Holding GmbH & Co. KG');
    expect(renamed('Motor Padrón S.A. de C.V.', 'MX')).toBe('Motor Padrón Holding S.A. de C.V.');
    expect(renamed('Sparkasse Köln', 'DE')).toBe('Sparkasse Köln Holding');
    expect(advanceDays(3, new Date('2026-11-27T10:00:00Z'))).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
  });

  it('imports a day of renamed, moved, inactive and new companies, and the same day again changes nothing', async () => {
    const day = '2026-11-20';
    const records = await dayRecords(t.db, day);
    const renamedOne = records.find((r) => r.name.includes(' Holding '));
    const tracked = await sql<{ id: string }>`select legal_entity_id as id from legal_entity_identifiers
      where identifier = ${renamedOne?.lei ?? ''}`.execute(t.db.kysely);
    const companyId = Number(tracked.rows[0].id);
    const user = await createSignedInUser(t.db, 'demo-advance');
    await trackCompany(t.db, user.id, companyId);

    const file = await writeDayFile(t.db, day, dir);
    expect(await readFile(file, 'utf8')).toContain('<lei:FileContent>GLEIF_DELTA_PUBLISHED</lei:FileContent>');
    const first = await runImport(t.db, gleifLei, [file]);
    expect(first.rejected).toBe(0);
    expect(first.new).toBe(3);
    expect(first.changed).toBe(25);

    const changes = await sql<{ field: string; n: number }>`select field, count(*)::int as n from company_changes
      where import_id = ${first.importIds[0]} group by field`.execute(t.db.kysely);
    const byField = Object.fromEntries(changes.rows.map((r) => [r.field, r.n]));
    expect(byField.company).toBe(3);
    expect(byField.name).toBeGreaterThanOrEqual(5);
    expect(byField.status).toBeGreaterThanOrEqual(1);
    expect(byField['addresses.legal']).toBeGreaterThanOrEqual(1);
    // Only what the day changes: a company's jurisdiction (a state, say) stays as it was.
    expect(byField.jurisdiction ?? 0).toBe(0);
    const name = await sql<{ old_value: string; new_value: string }>`select old_value, new_value from company_changes
      where legal_entity_id = ${companyId} and field = 'name'`.execute(t.db.kysely);
    expect(name.rows[0].new_value).toBe(renamedOne?.name);
    expect(renamedOne?.name).toBe(renamed(name.rows[0].old_value, renamedOne?.country ?? ''));

    // The same day again: the same file, nothing changes.
    const again = await runImport(t.db, gleifLei, [await writeDayFile(t.db, day, dir)]);
    expect(again).toMatchObject({ new: 0, changed: 0, rejected: 0 });

    // The tracked company's rename reaches its update report (built by the job the import enqueued).
    const quiet = { info: () => {}, error: () => {} };
    const translate = (lang: Lang) => {
      const { t: tr } = i18nFor(lang);
      return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
    };
    const mailer = createMailer({
      db: t.db,
      settings: { from: 'Registra <no-reply@localhost>' },
      log: quiet,
      translate,
    });
    try {
      await drainJobs({
        services: { db: t.db, reference: t.reference, mailer, siteUrl: 'http://localhost', translate },
        log: quiet,
        daily: false,
      });
    } finally {
      await mailer.close();
    }
    const reports = await listUpdateReports(t.db, user.id, {});
    expect(reports.data).toHaveLength(1);
    expect(JSON.stringify(reports.data[0].changes)).toContain(renamedOne?.name);
  });

  it('names new and renamed companies with a legal form of their own country, never another’s', async () => {
    // A form of another country where the company's own has none ("Waldmann S.C." in Germany).
    const foreignForm = (name: string, country: string) =>
      splitLegalForm(name, country) === null
        ? Object.keys(COUNTRY_PROFILES).find((other) => splitLegalForm(name, other) !== null)
        : undefined;
    const days = advanceDays(12, new Date('2026-10-12T10:00:00Z'));
    const records = (await Promise.all(days.map((day) => dayRecords(t.db, day)))).flat();
    expect(records.length).toBeGreaterThan(12 * 25);
    const wrong = records
      .map((r) => ({ name: r.name, country: r.country, form: foreignForm(r.name, r.country) }))
      .filter((r) => r.form !== undefined);
    expect(wrong).toEqual([]);
  });

  it('imports a Companies House delta of demo companies (real layout) through ch-companies, once', async () => {
    const day = '2026-11-21';
    const file = await writeChDayFile(t.db, day, dir);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe(BASIC_COMPANY_DATA_HEADER);
    const first = await runImport(t.db, chCompaniesSource, [file]);
    expect(first).toMatchObject({ read: 12, new: 0, changed: 12, rejected: 0 });
    const changes = await sql<{ field: string; n: number }>`select field, count(*)::int as n from company_changes
      where import_id = ${first.importIds[0]} group by field`.execute(t.db.kysely);
    const byField = Object.fromEntries(changes.rows.map((r) => [r.field, r.n]));
    expect(byField.status).toBeGreaterThanOrEqual(3);
    expect(byField['addresses.legal']).toBe(12);
    expect(byField['dates.accounts']).toBe(12);
    // The demo companies keep their name, jurisdiction, registration date and number.
    for (const field of ['name', 'jurisdiction', 'registered_on', 'identifiers.company_number'])
      expect(byField[field] ?? 0).toBe(0);
    // Every company the file puts in liquidation is in liquidation now.
    const numbers = [...text.matchAll(/^"[^"]*","(\d+)",.*"Liquidation"/gm)].map((m) => m[1] as string);
    expect(numbers).toHaveLength(4);
    const statuses = await sql<{ uri: string }>`select s.uri from legal_entity_identifiers i
      join legal_entities l on l.id = i.legal_entity_id join statuses s on s.id = l.status_id
      where i.identifier = any(${numbers}::text[]) and i.identifier_type_id = 2`.execute(t.db.kysely);
    expect(statuses.rows.map((r) => r.uri)).toEqual(Array(4).fill('in-liquidation'));

    // The same day again: the same file, nothing changes.
    const again = await runImport(t.db, chCompaniesSource, [await writeChDayFile(t.db, day, dir)]);
    expect(again).toMatchObject({ read: 12, new: 0, changed: 0, unchanged: 12, rejected: 0 });
  });
});
