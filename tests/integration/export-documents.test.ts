import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companiesWithoutExportDocuments,
  ensureExportDocuments,
  refreshExportDocuments,
} from '../../core/export/export-documents.ts';
import { COMPANY_EXPORT_SECTIONS, type ExportFormat } from '../../core/export/export-options.ts';
import {
  type CompanyRowJson,
  exportDocumentsQuery,
  exportDocumentVersion,
  readCompanyRows,
} from '../../core/export/read-company-rows.ts';
import { prepareExport } from '../../core/export/run-export.ts';
import { EVERYTHING_UNLOCKED } from '../../core/purchases/paywall.ts';
import { parseSearchState } from '../../core/search/search-state.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import { openTestDatabase, TEMPLATE_SEED, type TestDatabase } from '../support/test-database.ts';

// Export documents (docs/decisions/0008-export.md "Export documents"): the seed stores, per
// company, the export query's row with every section; the reader reads those and the live query
// for companies without a current one. The stored documents must stay what the live query reads
// (a change to the query or the seed that forgets the documents fails here), and a company
// without a document — or with an outdated one — must still export exactly as with it.

let t: TestDatabase;
let ids: number[];

beforeAll(async () => {
  t = await openTestDatabase();
  const rows = await t.db.kysely.selectFrom('legal_entities').select('id').orderBy('id').execute();
  ids = rows.map((r) => r.id);
});
afterAll(() => t?.db.close());

/** The live query's rows (every section) of `of`, by id. */
async function liveRows(of: number[]): Promise<Map<number, CompanyRowJson>> {
  const result = await exportDocumentsQuery(sql`unnest(${of}::bigint[]) with ordinality as t (id, ord)`).execute(
    t.db.kysely,
  );
  return new Map(result.rows.map((r) => [r.id, r.document]));
}

async function storedRows(): Promise<Map<number, { version: number; document: CompanyRowJson }>> {
  const rows = await t.db.kysely
    .selectFrom('export_documents')
    .select(['legal_entity_id', 'version', 'document'])
    .execute();
  return new Map(rows.map((r) => [r.legal_entity_id, { version: r.version, document: r.document as CompanyRowJson }]));
}

/** A companies export of `selected`, every section, as bytes. */
async function exportBytes(format: ExportFormat, selected: number[]): Promise<Buffer> {
  const parsed = parseSearchState(companiesSection, new URLSearchParams());
  if (!parsed.ok) throw new Error('bad state');
  const prepared = await prepareExport(t.db, t.reference, {
    section: companiesSection,
    state: parsed.state,
    choices: { format, separator: 'comma', scope: 'selected', count: 100, sections: [...COMPANY_EXPORT_SECTIONS] },
    ids: selected,
    lang: 'de',
    languageId: t.reference.languageIds.de,
    viewer: 'operator',
    now: new Date('2026-01-02T03:04:05Z'),
  });
  const chunks: Buffer[] = [];
  await prepared.write(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe('export documents', () => {
  it('exist for every company of the template, of the current version, equal to the live read', async () => {
    expect(ids).toHaveLength(TEMPLATE_SEED.companies);
    const [stored, live] = await Promise.all([storedRows(), liveRows(ids)]);
    expect(stored.size).toBe(ids.length);
    const version = exportDocumentVersion(t.db);
    let members = 0;
    let registers = 0;
    for (const id of ids) {
      const document = stored.get(id);
      expect(document?.version, `company ${id}`).toBe(version);
      expect(document?.document, `company ${id}`).toEqual(live.get(id));
      members += (document?.document.members as unknown[] | undefined)?.length ?? 0;
      registers += (document?.document.registers as unknown[] | undefined)?.length ?? 0;
    }
    // Every part is there to compare, members and their member companies included.
    expect(members).toBeGreaterThan(50);
    expect(registers).toBeGreaterThan(50);
    expect(await companiesWithoutExportDocuments(t.db)).toEqual([]);
  });

  it('a company without a document, or with an outdated one, reads and exports as with it', async () => {
    // Companies with members, addresses and registers, so the comparison covers every part.
    const sample = await sql<{ id: number }>`
      select m.legal_entity_id as id from legal_entity_members m
      where exists (select 1 from registers r where r.legal_entity_id = m.legal_entity_id)
        and exists (select 1 from legal_entity_addresses a where a.legal_entity_id = m.legal_entity_id)
      group by 1 order by 1 limit 6`.execute(t.db.kysely);
    const chosen = sample.rows.map((r) => r.id);
    expect(chosen).toHaveLength(6);
    const selected = [...chosen, ...ids.slice(0, 20)];
    const languageId = t.reference.languageIds.de;
    const withDocuments = await readCompanyRows(
      t.db,
      t.reference,
      selected,
      COMPANY_EXPORT_SECTIONS,
      languageId,
      EVERYTHING_UNLOCKED,
    );
    const before = await Promise.all((['csv', 'json', 'xml'] as const).map((f) => exportBytes(f, selected)));

    // Two companies lose their document; two keep one of another version with wrong data in it.
    const [gone1, gone2, stale1, stale2] = chosen;
    await t.db.kysely.deleteFrom('export_documents').where('legal_entity_id', 'in', [gone1, gone2]).execute();
    await sql`update export_documents set version = version + 1,
        document = json_build_object('id', legal_entity_id, 'name', 'wrong', 'jurisdiction_id', 1)
      where legal_entity_id in (${stale1}, ${stale2})`.execute(t.db.kysely);
    expect(await companiesWithoutExportDocuments(t.db)).toEqual([gone1, gone2, stale1, stale2].sort((a, b) => a - b));

    expect(
      await readCompanyRows(t.db, t.reference, selected, COMPANY_EXPORT_SECTIONS, languageId, EVERYTHING_UNLOCKED),
    ).toEqual(withDocuments);
    const after = await Promise.all((['csv', 'json', 'xml'] as const).map((f) => exportBytes(f, selected)));
    for (const [i, bytes] of after.entries()) expect(bytes.equals(before[i])).toBe(true);

    // A few missing are refreshed at start; then every company has its current document again.
    const messages: string[] = [];
    await ensureExportDocuments(t.db, (m) => messages.push(m));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Built the export documents of 4 companies in /);
    expect(await companiesWithoutExportDocuments(t.db)).toEqual([]);
    const stored = await storedRows();
    const live = await liveRows([gone1, gone2, stale1, stale2]);
    for (const id of [gone1, gone2, stale1, stale2]) expect(stored.get(id)?.document).toEqual(live.get(id));
  });

  it('refreshes every company with "all", and unknown ids are ignored', async () => {
    const result = await refreshExportDocuments(t.db, 'all');
    expect(result.companies).toBe(ids.length);
    expect((await refreshExportDocuments(t.db, [ids[0], ids[0], -5])).companies).toBe(1);
    const stored = await storedRows();
    expect(stored.size).toBe(ids.length);
    const live = await liveRows(ids);
    for (const id of ids) expect(stored.get(id)?.document).toEqual(live.get(id));
  });
});
