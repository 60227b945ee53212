import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedLegalEntityCounts } from '../../core/api/legal-entity-statistics.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import { refreshExportDocuments } from '../../core/export/export-documents.ts';
import {
  type CompanyRowJson,
  exportDocumentsQuery,
  exportDocumentVersion,
} from '../../core/export/read-company-rows.ts';
import { readDataVersion } from '../../core/imports/data-version.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import * as demoAdvance from '../../db/seed/demo-advance.ts';
import { seedCompanies } from '../../db/seed/seed-companies.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, type TestUser } from '../support/users.ts';

// What a company write changes besides the company's rows, the same after every writer (ADR 0014
// "Refresh": afterCompanyWrite, core/companies/company-writes.ts): the export documents of the
// companies written and of the boards they sit on equal what the live query reads, the search
// lexicon equals a rebuild from the visible names, this process's counts are recounted and the
// data's version moves for the others. Asserted by their effects, writer by writer: the seed, an
// import, a merge, `demo advance` and takedowns of a company and a person — and for a person taken
// down, through the real export (JSON and CSV) of the companies they sit on.

let t: TestApp;
let user: TestUser;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  user = await createSignedInUser(t.db, 'company-writes');
  await grantCredits(t.db, user.id, 100_000);
  dir = await mkdtemp(join(tmpdir(), 'registra-company-writes-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const hide = (target: 'company' | 'person', ref: number) =>
  applyTakedown(t.db, 'hide', { target, ref: String(ref), reason: 'erasure request', actor: 'test' });
const restore = (target: 'company' | 'person', ref: number) =>
  applyTakedown(t.db, 'restore', { target, ref: String(ref), reason: 'withdrawn', actor: 'test' });

/** A companies export of `ids` with their members, through the API, as text. */
async function exported(format: 'json' | 'csv', ids: number[]): Promise<string> {
  const response = await t.app.inject({
    url: `/api/export/companies?format=${format}&scope=selected&ids=${ids.join(',')}&sections=members`,
    headers: { cookie: user.cookie },
  });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The companies of `ids` whose stored export document is missing, outdated or not what the live query reads. */
async function staleDocuments(ids: number[]): Promise<number[]> {
  const live = await exportDocumentsQuery(sql`unnest(${ids}::bigint[]) with ordinality as t (id, ord)`).execute(
    t.db.kysely,
  );
  const stored = await t.db.kysely
    .selectFrom('export_documents')
    .select(['legal_entity_id', 'version', 'document'])
    .where('legal_entity_id', 'in', ids)
    .execute();
  const byId = new Map(stored.map((r) => [Number(r.legal_entity_id), r]));
  return live.rows
    .filter((row) => {
      const document = byId.get(Number(row.id));
      return (
        document?.version !== exportDocumentVersion(t.db) ||
        JSON.stringify(document.document as CompanyRowJson) !== JSON.stringify(row.document)
      );
    })
    .map((row) => Number(row.id));
}

/** Words of the lexicon whose count is not what a rebuild from the visible companies' names would give. */
async function lexiconDrift(): Promise<string[]> {
  const rows = await sql<{ word: string; stored: number | null; rebuilt: number | null }>`
    select coalesce(w.word, r.word) as word, w.documents as stored, r.ndoc as rebuilt
    from name_words w
    full join ts_stat('select name_tsv from legal_entities where taken_down_at is null') r on r.word = w.word
    where w.documents is distinct from r.ndoc`.execute(t.db.kysely);
  return rows.rows.map((r) => `${r.word}: ${r.stored} stored, ${r.rebuilt} in the names`);
}

const visibleCompanies = async () =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from legal_entities where taken_down_at is null`.execute(
        t.db.kysely,
      )
    ).rows[0].n,
  );

const lexicon = async (word: string) =>
  Number(
    (await t.db.kysely.selectFrom('name_words').select('documents').where('word', '=', word).executeTakeFirst())
      ?.documents ?? 0,
  );

const queuedReports = async () =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from jobs
        where kind = 'monitoring-reports' and status = 'queued'`.execute(t.db.kysely)
    ).rows[0].n,
  );

/**
 * Runs a writer and holds it to the one refresh: the documents of `documents()` (read after the
 * write) current, the lexicon equal to a rebuild, this process's statistics recounted, the data's
 * version moved; `reports`: whether the writer's changes were queued for monitoring.
 */
async function expectOneRefresh(
  write: () => Promise<unknown>,
  documents: () => Promise<number[]>,
  reports: boolean,
): Promise<void> {
  await sql`delete from jobs where kind = 'monitoring-reports'`.execute(t.db.kysely);
  // This process has counted the statistics (as an app serving pages has).
  await cachedLegalEntityCounts(t.db).counts;
  const version = await readDataVersion(t.db);
  await write();
  const ids = await documents();
  expect(ids.length).toBeGreaterThan(0);
  expect(await staleDocuments(ids)).toEqual([]);
  expect(await lexiconDrift()).toEqual([]);
  expect((await cachedLegalEntityCounts(t.db).counts).total).toBe(await visibleCompanies());
  expect(await readDataVersion(t.db)).not.toBe(version);
  expect(await queuedReports()).toBe(reports ? 1 : 0);
}

/** The companies on whose boards a member sits. */
const boardsOf = async (memberId: number) =>
  (
    await t.db.kysely
      .selectFrom('legal_entity_members')
      .select('legal_entity_id')
      .distinct()
      .where('member_id', '=', memberId)
      .execute()
  ).map((r) => Number(r.legal_entity_id));

/**
 * Seats `company` on the board of the first company not its own (as a member company named
 * `name`), with the board's export document built; returns the board.
 */
async function seatOnBoard(company: number, name: string): Promise<number> {
  const board = await sql<{ id: string }>`select id from legal_entities where id <> ${company} order by id limit 1`
    .execute(t.db.kysely)
    .then((r) => Number(r.rows[0].id));
  const member = await sql<{ id: string }>`insert into members (id, legal_entity_id, name, name_type)
    values ((select max(id) + 1 from members), ${company}, ${name}, 'legal_entity') returning id`
    .execute(t.db.kysely)
    .then((r) => Number(r.rows[0].id));
  await sql`insert into legal_entity_members (legal_entity_id, member_id, position_id)
    values (${board}, ${member}, (select id from positions order by id limit 1))`.execute(t.db.kysely);
  await refreshExportDocuments(t.db, [board]);
  return board;
}

describe('a person taken down', () => {
  it('leaves the export (JSON and CSV) of every company they sit on, and is back in it when restored', async () => {
    // A person whose name no other member has, sitting on a company beside others.
    const person = await sql<{ id: string; name: string }>`
      select m.id, m.name from members m
      where m.legal_entity_id is null and m.name_type = 'individual' and m.name !~ '["'',]'
        and (select count(*) from members o where o.name = m.name) = 1
        and exists (select 1 from legal_entity_members x where x.member_id = m.id)
      order by (select count(*) from legal_entity_members x where x.member_id = m.id) desc, m.id limit 1`
      .execute(t.db.kysely)
      .then((r) => ({ id: Number(r.rows[0].id), name: r.rows[0].name }));
    const boards = await boardsOf(person.id);

    for (const format of ['json', 'csv'] as const) expect(await exported(format, boards)).toContain(person.name);

    await expectOneRefresh(
      () => hide('person', person.id),
      async () => boards,
      false,
    );
    for (const format of ['json', 'csv'] as const) expect(await exported(format, boards)).not.toContain(person.name);

    await expectOneRefresh(
      () => restore('person', person.id),
      async () => boards,
      false,
    );
    for (const format of ['json', 'csv'] as const) expect(await exported(format, boards)).toContain(person.name);
  });
});

describe('a company taken down', () => {
  it('leaves the counts, the lexicon and the exports of the companies whose boards it sits on', async () => {
    // A company that sits on another company's board (a parent company, a shareholder).
    const company = await sql<{ id: string; name: string; member_id: string }>`
      select le.id, le.name, m.id as member_id from legal_entities le
      join members m on m.legal_entity_id = le.id
      where le.taken_down_at is null and exists (select 1 from legal_entity_members x where x.member_id = m.id)
      order by le.id limit 1`
      .execute(t.db.kysely)
      .then((r) => ({ id: Number(r.rows[0].id), name: r.rows[0].name, member: Number(r.rows[0].member_id) }));
    const boards = await boardsOf(company.member);
    const word = (await t.db.kysely
      .selectFrom('legal_entities')
      .select('search_name')
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow()
      .then((r) => r.search_name?.split(' ').find((w) => w.length >= 4))) as string;
    const documents = await lexicon(word);
    const total = await visibleCompanies();
    expect(await exported('json', boards)).toContain(company.name);

    await expectOneRefresh(
      () => hide('company', company.id),
      async () => boards,
      false,
    );
    expect(await exported('json', boards)).not.toContain(company.name);
    expect(await lexicon(word)).toBe(documents - 1);
    expect((await cachedLegalEntityCounts(t.db).counts).total).toBe(total - 1);

    await expectOneRefresh(
      () => restore('company', company.id),
      async () => boards,
      false,
    );
    expect(await exported('json', boards)).toContain(company.name);
    expect(await lexicon(word)).toBe(documents);
  });
});

describe('every writer ends with the same refresh', () => {
  it('the seed, topping the demo data up', async () => {
    const before = Number(
      (
        await t.db.kysely
          .selectFrom('legal_entities')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirstOrThrow()
      ).max,
    );
    await expectOneRefresh(
      () => seedCompanies(t.db, { companies: 5, seed: 99 }),
      async () =>
        (await t.db.kysely.selectFrom('legal_entities').select('id').where('id', '>', before).execute()).map((r) =>
          Number(r.id),
        ),
      false,
    );
  });

  it('an import, renaming a company, on the boards it sits on too', async () => {
    // A real day of `demo advance`'s GLEIF delta with one company given a word no name has.
    const [record] = await demoAdvance.dayRecords(t.db, '2026-10-01');
    const file = join(dir, 'renamed.xml');
    await writeFile(file, demoAdvance.leiFileXml('2026-10-01', [{ ...record, name: `Quokkavale ${record.name}` }]));
    const company = await sql<{ id: string }>`select legal_entity_id as id from legal_entity_identifiers
      where identifier = ${record.lei}`
      .execute(t.db.kysely)
      .then((r) => Number(r.rows[0].id));
    const board = await seatOnBoard(company, record.name);
    await expectOneRefresh(
      () => runImport(t.db, gleifLei, [file]),
      async () => [company, board],
      true,
    );
    expect(await lexicon('quokkavale')).toBe(1);
    // The board's members name the member company as it is called now.
    expect(await exported('json', [board])).toContain(`Quokkavale ${record.name}`);
  });

  it('a merge, on the boards the merged company sat on too', async () => {
    const lei = (n: number) => `5493001KJTIIGC8Y1R${String(n).padStart(2, '0')}`;
    const fileOf = async (name: string, records: { lei: string; name: string; number: string }[]) => {
      const [base] = await demoAdvance.dayRecords(t.db, '2026-10-02');
      const path = join(dir, name);
      await writeFile(
        path,
        demoAdvance.leiFileXml(
          '2026-10-02',
          records.map((r) => ({ ...base, ...r, createdOn: null })),
        ),
      );
      return path;
    };
    const first = { lei: lei(41), name: 'Wombatshire Alpha Limited', number: 'WRITES-1' };
    const second = { lei: lei(42), name: 'Numbatfield Beta Limited', number: 'WRITES-2' };
    expect(await runImport(t.db, gleifLei, [await fileOf('two.xml', [first, second])])).toMatchObject({ new: 2 });
    const idOf = (key: string) =>
      sql<{ id: string }>`select legal_entity_id as id from company_keys where scheme = 'lei' and key = ${key}`
        .execute(t.db.kysely)
        .then((r) => Number(r.rows[0].id));
    const [alpha, beta] = [await idOf(first.lei), await idOf(second.lei)];
    // Beta sits on a demo company's board (as a member company).
    const board = await seatOnBoard(beta, 'Beta as its register names it');
    expect(await exported('json', [board])).toContain(second.name);

    // Beta's LEI with Alpha's register number: the two are one, Beta merged into Alpha.
    await expectOneRefresh(
      async () =>
        runImport(t.db, gleifLei, [await fileOf('one.xml', [{ ...second, number: first.number, name: first.name }])]),
      async () => [alpha, board],
      true,
    );
    expect(await t.db.kysely.selectFrom('legal_entities').select('id').where('id', '=', beta).execute()).toEqual([]);
    expect(await lexicon('numbatfield')).toBe(0);
    // The board's member company is the survivor now.
    const members = await exported('json', [board]);
    expect(members).toContain(first.name);
    expect(members).not.toContain(second.name);
  });

  it('`demo advance`, through the importers', async () => {
    const days = 1;
    const today = new Date('2026-10-03T12:00:00Z');
    let importIds: number[] = [];
    await expectOneRefresh(
      () =>
        demoAdvance.advanceDemo(t.db, {
          days,
          dir,
          today,
          onImported: (_day, _file, summary) => {
            importIds = [...importIds, ...summary.importIds];
          },
        }),
      async () =>
        (
          await t.db.kysely
            .selectFrom('company_changes')
            .select('legal_entity_id')
            .distinct()
            .where('import_id', 'in', importIds)
            .execute()
        ).map((r) => Number(r.legal_entity_id)),
      true,
    );
    expect(importIds).toHaveLength(2);
    expect(await readFile(join(dir, '20261003-gleif-lei2-delta.xml'), 'utf8')).toContain(' Holding');
  });
});
