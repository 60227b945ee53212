import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../core/imports/run-import.ts';
import { chCompaniesSource } from '../../core/imports/sources/companies-house/ch-companies-source.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { groupPage, ownershipOf } from '../../core/ownership/ownership.ts';
import { BASIC_COMPANY_DATA_HEADER } from '../../db/seed/companies-house-file.ts';
import { splitLegalForm } from '../../db/seed/company-factory.ts';
import { COUNTRY_PROFILES } from '../../db/seed/country-profiles.ts';
import {
  advanceDays,
  dayRecords,
  lifeStage,
  renamed,
  writeChDayFile,
  writeDayFile,
} from '../../db/seed/demo-advance.ts';
import { seedDemoOwnership } from '../../db/seed/demo-ownership.ts';
import { openTestDatabase, TEMPLATE_SEED, type TestDatabase } from '../support/test-database.ts';

// `demo advance` (docs/decisions/0014-importers.md "Demo updates"): a GLEIF delta file per day for
// the demo companies, in the real layout, imported through the gleif-lei importer: renamed, moved
// and inactive companies and new ones appear in the change history, and the same day twice changes
// nothing; a Companies House delta moves companies into liquidation and to dissolved, never back.
// (Tracked companies, records and life cycles over many days: demo-monitoring.test.ts.)

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
    const file = await writeDayFile(t.db, day, dir);
    expect(await readFile(file, 'utf8')).toContain('<lei:FileContent>GLEIF_DELTA_PUBLISHED</lei:FileContent>');
    const first = await runImport(t.db, gleifLei, [file]);
    expect(first.rejected).toBe(0);
    expect(first.new).toBe(3);
    // Every company of the file changes (those whose status GLEIF cannot state are not in it).
    expect(first.changed).toBe(records.length - 3);
    expect(first.changed).toBeGreaterThanOrEqual(15);

    const changes = await sql<{ field: string; n: number }>`select field, count(*)::int as n from company_changes
      where import_id = ${first.importIds[0]} group by field`.execute(t.db.kysely);
    const byField = Object.fromEntries(changes.rows.map((r) => [r.field, r.n]));
    expect(byField.company).toBe(3);
    expect(byField.name).toBeGreaterThanOrEqual(5);
    expect(byField.status).toBeGreaterThanOrEqual(1);
    expect(byField['addresses.legal']).toBeGreaterThanOrEqual(1);
    // Only what the day changes: a company's jurisdiction (a state, say) stays as it was.
    expect(byField.jurisdiction ?? 0).toBe(0);
    const name = await sql<{ old_value: string; new_value: string }>`select c.old_value, c.new_value
      from company_changes c join legal_entity_identifiers i on i.legal_entity_id = c.legal_entity_id
      where i.identifier = ${renamedOne?.lei ?? ''} and c.field = 'name'`.execute(t.db.kysely);
    expect(name.rows[0].new_value).toBe(renamedOne?.name);
    expect(renamedOne?.name).toBe(renamed(name.rows[0].old_value, renamedOne?.country ?? ''));
    // GLEIF's ACTIVE is our `active`: no company past it (in liquidation, dissolved…) is in the file.
    const statuses = await sql<{ uri: string | null }>`select s.uri from legal_entity_identifiers i
      join legal_entities l on l.id = i.legal_entity_id left join statuses s on s.id = l.status_id
      where i.identifier = any(${records.filter((r) => r.active).map((r) => r.lei)}::text[])`.execute(t.db.kysely);
    expect(statuses.rows.map((r) => r.uri ?? 'active').filter((uri) => uri !== 'active')).toEqual([]);

    // The same day again: the same file, nothing changes.
    const again = await runImport(t.db, gleifLei, [await writeDayFile(t.db, day, dir)]);
    expect(again).toMatchObject({ new: 0, changed: 0, rejected: 0 });
  });

  it('names new and renamed companies with a legal form of their own country, never another’s', async () => {
    // A form of another country where the company's own has none ("Waldmann S.C." in Germany).
    const foreignForm = (name: string, country: string) =>
      splitLegalForm(name, country) === null
        ? Object.keys(COUNTRY_PROFILES).find((other) => splitLegalForm(name, other) !== null)
        : undefined;
    const days = advanceDays(12, new Date('2026-10-12T10:00:00Z'));
    const records = (await Promise.all(days.map((day) => dayRecords(t.db, day)))).flat();
    expect(records.length).toBeGreaterThan(12 * 15);
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
    const rows = text.trim().split('\n').length - 1;
    expect(rows).toBeGreaterThanOrEqual(6);
    const first = await runImport(t.db, chCompaniesSource, [file]);
    expect(first).toMatchObject({ read: rows, new: 0, changed: rows, rejected: 0 });
    const changes = await sql<{ field: string; n: number }>`select field, count(*)::int as n from company_changes
      where import_id = ${first.importIds[0]} group by field`.execute(t.db.kysely);
    const byField = Object.fromEntries(changes.rows.map((r) => [r.field, r.n]));
    expect(byField.status).toBeGreaterThanOrEqual(1);
    expect(byField['addresses.legal']).toBe(rows);
    expect(byField['dates.accounts']).toBe(rows);
    // The demo companies keep their name, jurisdiction, registration date and number.
    for (const field of ['name', 'jurisdiction', 'registered_on', 'identifiers.company_number'])
      expect(byField[field] ?? 0).toBe(0);
    // Every company the file puts in liquidation is in liquidation now; a dissolved one is
    // dissolved on the day; none is written back to active.
    const statusOf = async (companyStatus: string) => {
      const numbers = [...text.matchAll(new RegExp(`^"[^"]*","(\\d+)",.*"${companyStatus}"`, 'gm'))].map(
        (m) => m[1] as string,
      );
      const found = await sql<{ uri: string }>`select s.uri from legal_entity_identifiers i
        join legal_entities l on l.id = i.legal_entity_id join statuses s on s.id = l.status_id
        where i.identifier = any(${numbers}::text[]) and i.identifier_type_id = 2`.execute(t.db.kysely);
      return found.rows.map((r) => r.uri);
    };
    const liquidated = await statusOf('Liquidation');
    expect(liquidated.length).toBeGreaterThan(0);
    expect(new Set(liquidated)).toEqual(new Set(['in-liquidation']));
    const statusChanges = await sql<{ old_value: string | null; new_value: string }>`select old_value, new_value
      from company_changes where import_id = ${first.importIds[0]} and field = 'status'`.execute(t.db.kysely);
    for (const change of statusChanges.rows)
      expect(lifeStage(change.new_value)).toBeGreaterThanOrEqual(lifeStage(change.old_value));
    const dissolved = statusChanges.rows.filter((c) => c.new_value === 'dissolved').length;
    const dissolvedOn = await sql<{ n: number }>`select count(*)::int as n from company_changes
      where import_id = ${first.importIds[0]} and field = 'dissolved_on' and new_value = to_jsonb(${day}::text)`.execute(
      t.db.kysely,
    );
    expect(dissolvedOn.rows[0].n).toBe(dissolved);

    // The same day again: the same file, nothing changes.
    const again = await runImport(t.db, chCompaniesSource, [await writeChDayFile(t.db, day, dir)]);
    expect(again).toMatchObject({ new: 0, changed: 0, rejected: 0 });
  });
});

describe('the demo ownership groups (server/main.ts writes them once after the demo seed)', () => {
  it('give a freshly seeded demo database a chain, a group page and beneficial owners, the same each time', async () => {
    const [a, b] = [await openTestDatabase(), await openTestDatabase()];
    try {
      const demo = await seedDemoOwnership(a.db, TEMPLATE_SEED.seed);
      if (!demo) throw new Error('no demo ownership written');
      // Deterministic: another fresh copy gets the same groups; written once.
      expect(await seedDemoOwnership(b.db, TEMPLATE_SEED.seed)).toEqual(demo);
      expect(await seedDemoOwnership(a.db, TEMPLATE_SEED.seed)).toBeNull();

      const { top, group, owned, owners } = demo;
      // The deepest company: four steps up to the top, where a reporting exception ends the chain.
      const deepest = await ownershipOf(a.db, group[6] as number);
      expect(deepest.chain.map((l) => (l.owner.kind === 'company' ? l.owner.id : null))).toEqual([
        group[5],
        group[3],
        group[0],
        top,
      ]);
      expect(deepest.chain[0]?.sources).toEqual([expect.objectContaining({ source: 'gleif' })]);
      expect(deepest.chainEnd).toBe('exception');
      expect(deepest.ultimateParent?.owner).toMatchObject({ kind: 'company', id: top });
      expect(deepest.ultimateParentDiffers).toBe(false);
      const topOwnership = await ownershipOf(a.db, top);
      expect(topOwnership).toMatchObject({ chain: [], chainEnd: 'exception', directSubsidiaries: 3, groupSize: 8 });
      expect(topOwnership.exceptions.map((e) => e.reasons)).toEqual([['NATURAL_PERSONS'], ['NATURAL_PERSONS']]);
      const page = await groupPage(a.db, top, { limit: 20 });
      expect(page.total).toBe(3);
      expect(page.nodes.map((n) => n.childCount).sort()).toEqual([0, 1, 2]);

      // Persons with significant control: the majority corporate owner is the parent; all three are owners.
      const psc = await ownershipOf(a.db, owned);
      expect(psc.chain.map((l) => (l.owner.kind === 'company' ? l.owner.id : null))).toEqual([owners[0]]);
      expect(psc.beneficialOwners.map((l) => l.owner.kind).sort()).toEqual(['company', 'company', 'person']);
      expect((await groupPage(a.db, owners[0] as number, { limit: 20 })).nodes.map((n) => n.company.id)).toEqual([
        owned,
      ]);
    } finally {
      await a.db.close();
      await b.db.close();
    }
    // Two database copies, each written through the import writers and afterCompanyWrite.
  }, 120_000);
});
