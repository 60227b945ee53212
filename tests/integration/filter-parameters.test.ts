// Every filter parameter of every section: the grammar accepts it, prints it back
// identically, and its SQL runs against the database.
import { type Expression, type SqlBool, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printParams } from '../../core/filters/grammar.ts';
import { filterConditions } from '../../core/search/filter-sql.ts';
import { type ParameterInfo, sectionParameters } from '../../core/search/parameters.ts';
import { parseSearchState } from '../../core/search/search-state.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.db.close());

describe('the filter language across all 22 sections', () => {
  it('has 22 sections', () => {
    expect(SECTIONS).toHaveLength(22);
  });

  it('accepts more than 4,000 distinct parameters', () => {
    const distinct = new Set(
      SECTIONS.flatMap((s) => sectionParameters(s, t.reference).map((p) => `${s.id} ${p.name}`)),
    );
    expect(distinct.size).toBeGreaterThan(4000);
  });

  for (const section of SECTIONS) {
    it(`${section.id}: every parameter parses, prints back identically and maps to valid SQL`, async () => {
      const parameters = sectionParameters(section, t.reference);
      expect(parameters.length).toBeGreaterThan(0);
      const conditions: { parameter: ParameterInfo; condition: Expression<SqlBool> }[] = [];
      for (const parameter of parameters) {
        const query = new URLSearchParams([[parameter.name, parameter.sample]]);
        const parsed = parseSearchState(section, query);
        if (!parsed.ok)
          throw new Error(`${section.id} ${parameter.name}=${parameter.sample}: ${parsed.errors[0].message}`);
        expect(printParams(parsed.state.filters), parameter.name).toEqual([[parameter.name, parameter.sample]]);
        const [condition] = filterConditions(section, parsed.state.filters, t.reference);
        conditions.push({ parameter, condition });
      }
      // One statement per 200 parameters; each condition is a column of its own.
      for (let i = 0; i < conditions.length; i += 200) {
        const batch = conditions.slice(i, i + 200);
        const columns = batch.map(
          ({ condition }, j) =>
            sql`exists (select 1 from ${sql.table(section.baseTable)} b where ${condition}) as ${sql.ref(`c${j}`)}`,
        );
        const result = await sql<Record<string, boolean>>`select ${sql.join(columns)}`.execute(t.db.kysely);
        expect(Object.keys(result.rows[0])).toHaveLength(batch.length);
      }
    });
  }

  it('refuses malformed values of each kind with a message naming the parameter', () => {
    const cases: [string, string, string][] = [
      ['vessels', 'gross_tonnage:from', 'lots'],
      ['vessels', 'year_built:to', '19x0'],
      ['vessels', 'vessel_type', 'submarine'],
      ['vessels', 'registration_date:from', '2020-02-30'],
      ['real-estate', 'sale_amount:from', '1e9'],
      ['contacts', 'type', 'pigeon'],
      ['patents', 'company_addresses[registered][planet]', 'Mars'],
      ['patents', 'company_indicators[bankrupt]', 'maybe'],
      ['permits', 'status:from', 'approved'],
      ['companies', 'addresses[registered]', 'Berlin'],
      ['taxes', 'company', 'abc'],
      ['permits', 'description', 'x'.repeat(201)],
    ];
    for (const [id, name, value] of cases) {
      const section = SECTIONS.find((s) => s.id === id)!;
      const parsed = parseSearchState(section, new URLSearchParams([[name, value]]));
      expect(parsed.ok, `${id} ${name}=${value}`).toBe(false);
      if (!parsed.ok) expect(parsed.errors[0].parameter).toBe(name);
    }
  });
});
