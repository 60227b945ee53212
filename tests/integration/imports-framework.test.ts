import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyFacts, ImportItem, ImportSource } from '../../core/imports/company-facts.ts';
import { loadImportReference } from '../../core/imports/import-reference.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { alignIdSequences, writeCompanyBatch } from '../../core/imports/write-companies.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

// The framework with a source of its own (one JSON record a line): what every national-register
// source relies on — register keys, industries, members scoped to the source's positions,
// documents, and a record the schema refuses.

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'registra-framework-'));
});
afterAll(async () => {
  await t?.db.close();
  await rm(dir, { recursive: true, force: true });
});

const jsonLines: ImportSource = {
  name: 'test-lines',
  expects: 'JSON lines of CompanyFacts',
  unit: 'line',
  memberPositions: ['shareholder'],
  async *read(input): AsyncIterable<ImportItem> {
    let at = 0;
    let rest = '';
    for await (const chunk of input) {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        at += 1;
        yield { kind: 'company', at, facts: JSON.parse(line) as CompanyFacts };
      }
    }
  },
};

async function importLines(facts: unknown[]) {
  const file = join(dir, `facts-${Math.random()}.jsonl`);
  await writeFile(file, `${facts.map((f) => JSON.stringify(f)).join('\n')}\n`);
  return runImport(t.db, jsonLines, [file]);
}

const base = {
  keys: { register: { jurisdiction: 'GB', authority: 'RA000585', number: '00000001' } },
  sourceDate: '2024-05-05T00:00:00Z',
  name: 'Framework Test Limited',
  jurisdiction: 'GB',
  status: 'active',
  registeredOn: '2001-02-03',
};

describe('the import framework', () => {
  it('writes industries our tree knows, members of its positions and documents; keeps unknown codes aside', async () => {
    // A NACE class (the deepest level of our tree, ADR 0017).
    const group = await t.db.kysely
      .selectFrom('industries')
      .select(['id', 'code'])
      .where('level', '=', 4)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const summary = await importLines([
      {
        ...base,
        industries: [
          { scheme: 'nace-2', code: group.code, primary: true },
          { scheme: 'uk-sic-2007', code: '62090', primary: false },
        ],
        members: [
          {
            name: 'Jane Holder',
            kind: 'individual',
            position: 'shareholder',
            since: '2020-01-01',
            natures: ['ownership-of-shares-75-to-100-percent'],
          },
        ],
        documents: [{ id: 'd1', title: 'Annual accounts', type: 'AA', filedOn: '2023-04-01' }],
      },
    ]);
    expect(summary).toMatchObject({ read: 1, new: 1, rejected: 0 });
    const company = await t.db.kysely
      .selectFrom('company_keys')
      .innerJoin('legal_entities', 'legal_entities.id', 'company_keys.legal_entity_id')
      .select(['legal_entities.id', 'primary_industry_id', 'registered_on', 'status_id'])
      .where('scheme', '=', 'register')
      .where('key', '=', 'GB/RA000585/00000001')
      .executeTakeFirstOrThrow();
    expect(company).toMatchObject({ primary_industry_id: group.id, registered_on: '2001-02-03', status_id: 1 });
    const members = await t.db.kysely
      .selectFrom('legal_entity_members')
      .innerJoin('members', 'members.id', 'legal_entity_members.member_id')
      .select(['name', 'position_id', 'since'])
      .where('legal_entity_members.legal_entity_id', '=', company.id)
      .execute();
    expect(members).toEqual([{ name: 'Jane Holder', position_id: 4, since: '2020-01-01' }]);
    const documents = await t.db.kysely
      .selectFrom('documents')
      .select(['title', 'filed_on'])
      .where('legal_entity_id', '=', company.id)
      .execute();
    expect(documents).toEqual([{ title: 'Annual accounts', filed_on: '2023-04-01' }]);

    // The next file: the shareholder changes, the industries are codes we cannot place yet.
    const next = await importLines([
      {
        ...base,
        industries: [{ scheme: 'naics-2017', code: '541511', primary: true }],
        members: [{ name: 'John Holder', kind: 'individual', position: 'shareholder', since: '2024-01-01' }],
        documents: [{ id: 'd1', title: 'Annual accounts', type: 'AA', filedOn: '2023-04-01' }],
      },
    ]);
    expect(next).toMatchObject({ changed: 1 });
    const after = await t.db.kysely
      .selectFrom('legal_entities')
      .select('primary_industry_id')
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(after.primary_industry_id).toBe(group.id);
    const changes = await t.db.kysely
      .selectFrom('company_changes')
      .select(['field', 'old_value', 'new_value'])
      .where('legal_entity_id', '=', company.id)
      .where('field', '<>', 'company')
      .orderBy('field')
      .execute();
    expect(changes.map((c) => c.field)).toEqual(['industries', 'members']);
    expect(changes[1]?.old_value).toEqual([expect.objectContaining({ name: 'Jane Holder' })]);
    expect(changes[1]?.new_value).toEqual([expect.objectContaining({ name: 'John Holder' })]);
    const holders = await t.db.kysely
      .selectFrom('legal_entity_members')
      .innerJoin('members', 'members.id', 'legal_entity_members.member_id')
      .select('name')
      .where('legal_entity_members.legal_entity_id', '=', company.id)
      .execute();
    expect(holders).toEqual([{ name: 'John Holder' }]);
    // The replaced member row is gone, not left behind.
    expect(await t.db.kysely.selectFrom('members').select('id').where('name', '=', 'Jane Holder').execute()).toEqual(
      [],
    );
  });

  it('rejects a record the schema refuses, naming the field, and imports the rest', async () => {
    const summary = await importLines([
      { ...base, keys: { register: { ...base.keys.register, number: '00000002' } }, registeredOn: '03/02/2001' },
      { ...base, keys: { register: { ...base.keys.register, number: '00000003' } }, name: 'Third Limited' },
      { ...base, keys: {}, name: 'No Key Limited' },
    ]);
    expect(summary).toMatchObject({ read: 3, new: 1, rejected: 2 });
    expect(summary.rejects.map((r) => [r.at, r.reason])).toEqual([
      [1, expect.stringContaining('registeredOn')],
      [3, expect.stringContaining('a record needs a key to match on')],
    ]);
  });

  it('rejects only the record the database refuses when a batch fails, with a plain reason, and writes the rest', async () => {
    // The safety net behind the schemas: records handed to the batch writer unvalidated, one with
    // a NUL character the database refuses (the schema would have refused it first).
    await alignIdSequences(t.db);
    const { id: importId } = await t.db.kysely
      .insertInto('imports')
      .values({ source: 'test-lines', file_name: 'safety-net.jsonl', file_sha256: '-', status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const record = (at: number, name: string) => ({
      at,
      facts: { ...base, keys: { register: { ...base.keys.register, number: `0000010${at}` } }, name } as CompanyFacts,
    });
    const result = await writeCompanyBatch(
      t.db,
      { source: 'test-lines', importId, reference: await loadImportReference(t.db), memberPositions: ['shareholder'] },
      [1, 2, 3, 4, 5].map((at) => record(at, at === 4 ? 'Safety\u0000Net Four Limited' : `Safety Net ${at} Limited`)),
    );
    expect(result).toMatchObject({
      new: 4,
      rejects: [
        {
          at: 4,
          reason: 'a character the database cannot store (a NUL character, U+0000, or bytes that are not UTF-8)',
        },
      ],
    });
    const names = await t.db.kysely
      .selectFrom('legal_entities')
      .select('name')
      .where('name', 'like', 'Safety Net %')
      .orderBy('name')
      .execute();
    expect(names.map((n) => n.name)).toEqual([
      'Safety Net 1 Limited',
      'Safety Net 2 Limited',
      'Safety Net 3 Limited',
      'Safety Net 5 Limited',
    ]);

    // A batch the database refuses record after record is not the records' fault: the import stops.
    await expect(
      writeCompanyBatch(
        t.db,
        {
          source: 'test-lines',
          importId,
          reference: await loadImportReference(t.db),
          memberPositions: ['shareholder'],
        },
        Array.from({ length: 101 }, (_, i) => record(100 + i, `Refused\u0000${i}`)),
      ),
    ).rejects.toThrow(
      /^The database refused more than 100 records of one batch \(the last being number 200 in the file\): a character/,
    );
  });
});
