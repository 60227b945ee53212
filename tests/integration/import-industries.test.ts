// An import files each source's industry codes under NACE Rev. 2 (docs/decisions/0017-industry-
// classification.md): the framework calls industryForSourceCode for every code a source gives.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyFacts, ImportSource } from '../../core/imports/company-facts.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { naceIndustryId } from '../../db/reference/nace-rev2.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const facts = (number: string, industries: CompanyFacts['industries']): CompanyFacts => ({
  keys: { register: { jurisdiction: 'GB', authority: 'RA000585', number } },
  sourceDate: null,
  name: `Industry Test ${number} Ltd`,
  jurisdiction: 'GB',
  industries,
});

/** A source that yields the given companies whatever the file holds. */
const sourceOf = (companies: CompanyFacts[]): ImportSource => ({
  name: 'ch-companies',
  expects: 'anything',
  unit: 'line',
  async *read() {
    let at = 1;
    for (const f of companies) yield { kind: 'company', at: at++, facts: f };
  },
});

describe('industries of an import', () => {
  it('are the NACE classes and divisions the source codes map to; codes naming no activity are left out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'registra-industries-'));
    const file = join(dir, 'companies.csv');
    await writeFile(file, 'x\n');
    const summary = await runImport(
      t.db,
      sourceOf([
        facts('IND00001', [
          { scheme: 'uk-sic-2007', code: '62020', primary: true },
          { scheme: 'uk-sic-2007', code: '99999', primary: false },
          { scheme: 'us-sic', code: '7374', primary: false },
        ]),
        facts('IND00002', [{ scheme: 'sn2007', code: '47.111', primary: true }]),
      ]),
      [file],
    );
    expect(summary).toMatchObject({ new: 2, rejected: 0 });
    const rows = await sql<{ number: string; industry_id: number; is_primary: boolean; primary_industry_id: number }>`
      select substr(le.name, 15, 8) as number, i.industry_id, i.is_primary, le.primary_industry_id
      from legal_entities le
      join legal_entity_industries i on i.legal_entity_id = le.id
      where le.name like 'Industry Test IND%' order by le.name, i.industry_id`.execute(t.db.kysely);
    const p62 = naceIndustryId('62.02');
    expect(rows.rows).toEqual([
      // Ordered by id: division 63 (US SIC 7374) before class 62.02 (UK SIC 62020, the primary one).
      { number: 'IND00001', industry_id: naceIndustryId('63'), is_primary: false, primary_industry_id: p62 },
      { number: 'IND00001', industry_id: p62, is_primary: true, primary_industry_id: p62 },
      {
        number: 'IND00002',
        industry_id: naceIndustryId('47.11'),
        is_primary: true,
        primary_industry_id: naceIndustryId('47.11'),
      },
    ]);
  });
});
