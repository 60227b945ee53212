// The record sections (core/sections/records.ts) and the schema (db/migrations) cannot drift: every
// declared field has its column, of the type its field type maps to, in its section's table, with
// the company columns beside them; and the test template holds rows in every table.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldType, fieldColumn } from '../../core/sections/record-fields.ts';
import { COMPANY_COLUMNS, RECORD_SECTIONS } from '../../core/sections/records.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
});

afterAll(async () => {
  await t?.db.close();
});

/** information_schema data types (numeric with its precision and scale). */
const COLUMN_TYPE: Record<FieldType, string> = {
  text: 'text',
  code: 'text',
  date: 'date',
  amount: 'numeric(18,2)',
  number: 'integer',
  year: 'smallint',
  enum: 'smallint',
  location: 'integer',
  currency: 'integer',
};

type Column = { table_name: string; column_name: string; type: string; is_nullable: 'YES' | 'NO' };

async function columnsOf(tables: string[]): Promise<Map<string, Map<string, Column>>> {
  const { rows } = await sql<Column>`
    select table_name, column_name, is_nullable,
           case when data_type = 'numeric' then format('numeric(%s,%s)', numeric_precision, numeric_scale)
                else data_type end as type
      from information_schema.columns
     where table_schema = 'public' and table_name in (${sql.join(tables)})`.execute(t.db.kysely);
  const byTable = new Map<string, Map<string, Column>>();
  for (const row of rows) {
    const columns = byTable.get(row.table_name) ?? new Map<string, Column>();
    columns.set(row.column_name, row);
    byTable.set(row.table_name, columns);
  }
  return byTable;
}

describe('record tables', () => {
  it('have a column of the declared type for every field, and the company columns', async () => {
    const tables = await columnsOf(RECORD_SECTIONS.map((s) => s.table));
    for (const section of RECORD_SECTIONS) {
      const columns = tables.get(section.table);
      expect(columns, `table ${section.table}`).toBeDefined();
      if (!columns) continue;
      const expected: Record<string, string> = {
        legal_entity_id: 'bigint',
        id: 'bigint',
        [COMPANY_COLUMNS.jurisdiction]: 'integer',
        [COMPANY_COLUMNS.industry]: 'integer',
        [COMPANY_COLUMNS.status]: 'integer',
        [COMPANY_COLUMNS.size]: 'integer',
        [COMPANY_COLUMNS.employees]: 'integer',
      };
      for (const field of section.fields) expected[fieldColumn(field)] = COLUMN_TYPE[field.type];
      // Where a record came from, when it is a row of its own rather than a field: the filing a
      // statement's figures were read from (ADR 0037).
      if (section.table === 'financial_statements') expected.filing_id = 'bigint';
      const actual = Object.fromEntries([...columns.values()].map((c) => [c.column_name, c.type]));
      expect([section.table, actual]).toEqual([section.table, expected]);
      const sortColumn = fieldColumn(
        section.fields.find((f) => f.key === section.sortField) ?? { key: '', type: 'text' },
      );
      expect([section.table, sortColumn, columns.get(sortColumn)?.is_nullable]).toEqual([
        section.table,
        sortColumn,
        'NO',
      ]);
    }
  });

  it('have the keyset index on the sort field and one per filterable reference column', async () => {
    const { rows } = await sql<{ tablename: string; indexdef: string }>`
      select tablename, indexdef from pg_indexes
       where schemaname = 'public' and tablename in (${sql.join(RECORD_SECTIONS.map((s) => s.table))})`.execute(
      t.db.kysely,
    );
    for (const section of RECORD_SECTIONS) {
      const definitions = rows.filter((r) => r.tablename === section.table).map((r) => r.indexdef);
      const sort = fieldColumn(section.fields.find((f) => f.key === section.sortField) ?? { key: '', type: 'text' });
      const keyed = (lead: string) => definitions.some((d) => d.endsWith(`(${lead}${sort} DESC, id DESC)`));
      expect([section.table, 'sort', keyed('')]).toEqual([section.table, 'sort', true]);
      const filtered = section.fields.filter(
        (f) => f.type === 'enum' || f.type === 'location' || f.type === 'currency',
      );
      for (const column of [COMPANY_COLUMNS.jurisdiction, COMPANY_COLUMNS.industry, ...filtered.map(fieldColumn)])
        expect([section.table, column, keyed(`${column}, `)]).toEqual([section.table, column, true]);
    }
  });

  it('hold rows in every table of the test template, with sort dates in the companies’ lifetimes', async () => {
    for (const section of RECORD_SECTIONS) {
      const sort = sql.ref(
        fieldColumn(section.fields.find((f) => f.key === section.sortField) ?? { key: '', type: 'text' }),
      );
      const row = await sql<{ n: number; outside: number }>`
        select count(*)::int as n,
               count(*) filter (where r.${sort} < e.registered_on or r.${sort} > date '2026-11-01')::int as outside
          from ${sql.table(section.table)} r join legal_entities e on e.id = r.legal_entity_id`.execute(t.db.kysely);
      expect([section.table, row.rows[0].n >= 20, row.rows[0].outside]).toEqual([section.table, true, 0]);
    }
  });

  it('copy the company’s reference values onto every row', async () => {
    for (const section of RECORD_SECTIONS) {
      const row = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(section.table)} r join legal_entities e on e.id = r.legal_entity_id
         where r.company_jurisdiction_id <> e.jurisdiction_id
            or r.company_industry_id is distinct from e.primary_industry_id
            or r.company_status_id is distinct from e.status_id
            or r.company_size_id is distinct from e.size_id
            or r.company_employees_id is distinct from e.employees_id`.execute(t.db.kysely);
      expect([section.table, row.rows[0].n]).toEqual([section.table, 0]);
    }
  });

  it('pair both sides of every merger or acquisition under the real names of the companies', async () => {
    const { rows } = await sql<{ deals: number; unpaired: number; misnamed: number }>`
      with sides as (
        select m.deal_number, m.role_id, m.participant_name, e.name
          from mergers_and_acquisitions m join legal_entities e on e.id = m.legal_entity_id)
      select count(*) filter (where a.role_id = 1)::int as deals,
             count(*) filter (where a.role_id = 1 and b.deal_number is null)::int as unpaired,
             count(*) filter (where b.deal_number is not null and (a.participant_name <> b.name or b.participant_name <> a.name))::int as misnamed
        from sides a left join sides b on b.deal_number = a.deal_number and b.role_id <> a.role_id`.execute(
      t.db.kysely,
    );
    expect(rows[0].deals).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ unpaired: 0, misnamed: 0 });
  });

  it('give statements their accounting lines, from revenue to equity', async () => {
    const { rows } = await sql<{ statements: number; complete: number; consistent: number }>`
      select count(*)::int as statements,
             count(*) filter (where l.lines = 8)::int as complete,
             count(*) filter (where l.revenue = s.revenue and l.net = s.profit and l.gross = l.revenue - l.cost)::int as consistent
        from financial_statements s
        join lateral (
          select count(*) as lines,
                 max(amount) filter (where line_no = 1) as revenue, max(amount) filter (where line_no = 2) as cost,
                 max(amount) filter (where line_no = 3) as gross, max(amount) filter (where line_no = 6) as net
            from financial_statement_lines x where x.legal_entity_id = s.legal_entity_id and x.statement_id = s.id) l on true`.execute(
      t.db.kysely,
    );
    expect(rows[0].statements).toBeGreaterThan(0);
    expect(rows[0]).toEqual({
      statements: rows[0].statements,
      complete: rows[0].statements,
      consistent: rows[0].statements,
    });
  });
});
