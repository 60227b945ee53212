import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { OTHER_LISTS } from '../companies/get-company-records.ts';
import { type AddressRow, addressesPart } from '../companies/parts/addresses.ts';
import { type CompanyWith, companySelect, parseCompany, parseJson } from '../companies/parts/company-part.ts';
import { identifiersPart } from '../companies/parts/identifiers.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import type { LabelRef } from '../sections/section.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { MAX_COMPARED_COMPANIES } from './comparison-set.ts';

// What a comparison reads of each company, in one statement for all of them: the company row,
// its addresses and identifiers (their parts, core/companies/parts/), its latest financial statement and how many records of each
// related type it has. The record types come from the declarations (records.ts, and the profile's
// other lists), so a section added there is compared without a change here.

/** A related-record type whose count is compared: a search section, or a profile list without one. */
export type ComparedRecordType = { key: string; table: string; label: LabelRef };

export const COMPARED_RECORD_TYPES: ComparedRecordType[] = [
  ...RECORD_SECTIONS.map((s) => ({ key: s.id, table: s.table, label: s.title })),
  ...OTHER_LISTS.map((l) => ({ key: l.key, table: l.table, label: `profile.${l.key}` })),
];

/** The section whose latest record gives the key financials (revenue, profit, currency, report year). */
export const FINANCIALS_SECTION = RECORD_SECTIONS.find((s) => s.id === 'financial-statements')!;

/** The financial fields compared, in order (keys of FINANCIALS_SECTION's fields). */
export const FINANCIAL_FIELDS = [
  'report_year',
  'revenue',
  'gross_profit',
  'operating_profit',
  'profit_before_tax',
  'profit',
  'total_assets',
  'current_assets',
  'cash',
  'total_liabilities',
  'equity',
  'average_employees',
] as const;

/** The amounts among them (the rest: the year, and average employees, a count). */
export const FINANCIAL_AMOUNTS = FINANCIAL_FIELDS.filter(
  (key): key is Exclude<(typeof FINANCIAL_FIELDS)[number], 'report_year' | 'average_employees'> =>
    key !== 'report_year' && key !== 'average_employees',
);

const financialColumn = (key: string) => fieldColumn(FINANCIALS_SECTION.fields.find((f) => f.key === key)!);

export type ComparedAddress = AddressRow;

export type ComparedFinancials = {
  report_year: number | null;
  /** numeric as text (no float rounding). */
  revenue: string | null;
  profit: string | null;
  currency_id: number | null;
  /** The rest of filed accounts' figures (ADR 0037); absent or null when the statement has none. */
  average_employees?: number | null;
} & {
  [key in Exclude<(typeof FINANCIAL_AMOUNTS)[number], 'revenue' | 'profit'>]?: string | null;
};

/** The parts of a company a comparison reads. */
const COMPARED_PARTS = [addressesPart, identifiersPart] as const;

export type ComparedCompany = CompanyWith<typeof COMPARED_PARTS> & {
  /** The statement of the latest report year (then latest period end); null when there is none. */
  financials: ComparedFinancials | null;
  /** How many records of each type (keys of COMPARED_RECORD_TYPES). */
  record_counts: Record<string, number>;
};

/**
 * The companies of a comparison, in the order of `ids`; ids that name no company (deleted since)
 * are skipped.
 */
export async function loadComparison(db: Db, ids: readonly number[]): Promise<ComparedCompany[]> {
  const wanted = [...new Set(ids)].slice(0, MAX_COMPARED_COMPANIES);
  if (wanted.length === 0) return [];
  const counts = COMPARED_RECORD_TYPES.map(
    (r) => sql`${r.key}::text, (select count(*) from ${sql.table(r.table)} r where r.legal_entity_id = le.id)`,
  );
  const fs = sql.table(FINANCIALS_SECTION.table);
  const col = (key: string) => sql.ref(`f.${financialColumn(key)}`);
  const result = await sql<Record<string, unknown>>`
    select ${companySelect(COMPARED_PARTS)},
      (select json_build_object('report_year', ${col('report_year')},
          ${sql.join(FINANCIAL_AMOUNTS.map((key) => sql`${key}::text, ${col(key)}::text`))},
          'average_employees', ${col('average_employees')}, 'currency_id', ${col('currency')})
        from ${fs} f where f.legal_entity_id = le.id
        -- Filed accounts (ADR 0037): the group's statement of a period before the company-only one.
        order by ${col('report_year')} desc nulls last, f.period_end desc, coalesce(f.scope_id, 0) desc, f.id desc
        limit 1) as financials,
      json_build_object(${sql.join(counts)}) as record_counts
    from legal_entities le
    where le.id in (${sql.join(wanted)}) and ${visibleCompany('le')}`.execute(db.kysely);
  const byId = new Map(result.rows.map((row) => [Number(row.id), normalise(row)]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/** Drivers differ: pg parses json and returns bigint as text; PGlite may hand json back as text. */
function normalise(row: Record<string, unknown>): ComparedCompany {
  const counts = parseJson<Record<string, number | string>>(row.record_counts);
  const financials = parseJson<ComparedFinancials | null>(row.financials);
  return {
    ...parseCompany(row, COMPARED_PARTS),
    financials: financials
      ? {
          ...financials,
          report_year: financials.report_year === null ? null : Number(financials.report_year),
          average_employees:
            financials.average_employees === null || financials.average_employees === undefined
              ? null
              : Number(financials.average_employees),
          currency_id: financials.currency_id === null ? null : Number(financials.currency_id),
        }
      : null,
    record_counts: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
  };
}
