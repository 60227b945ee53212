import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { OTHER_LISTS } from '../companies/get-company-records.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import type { LabelRef } from '../sections/section.ts';
import { MAX_COMPARED_COMPANIES } from './comparison-set.ts';

// What a comparison reads of each company, in one statement for all of them: the company row,
// its addresses and identifiers, its latest financial statement and how many records of each
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
export const FINANCIAL_FIELDS = ['report_year', 'revenue', 'profit'] as const;

const financialColumn = (key: string) => fieldColumn(FINANCIALS_SECTION.fields.find((f) => f.key === key)!);

export type ComparedAddress = Omit<Database['legal_entity_addresses'], 'legal_entity_id'>;

export type ComparedFinancials = {
  report_year: number | null;
  /** numeric as text (no float rounding). */
  revenue: string | null;
  profit: string | null;
  currency_id: number | null;
};

export type ComparedCompany = {
  id: number;
  uri: string;
  name: string;
  jurisdiction_id: number;
  size_id: number | null;
  employees_id: number | null;
  status_id: number | null;
  primary_industry_id: number | null;
  registered_on: string | null;
  addresses: ComparedAddress[];
  identifiers: { identifier_type_id: number; position: number; identifier: string }[];
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
  const result = await sql<ComparedCompany>`
    select le.id, le.uri, le.name, le.jurisdiction_id, le.size_id, le.employees_id, le.status_id,
      le.primary_industry_id, le.registered_on,
      (select coalesce(json_agg(a order by a.address_type_id, a.position), '[]')
        from legal_entity_addresses a where a.legal_entity_id = le.id) as addresses,
      (select coalesce(json_agg(json_build_object('identifier_type_id', i.identifier_type_id,
          'position', i.position, 'identifier', i.identifier) order by i.identifier_type_id, i.position), '[]')
        from legal_entity_identifiers i where i.legal_entity_id = le.id) as identifiers,
      (select json_build_object('report_year', ${col('report_year')}, 'revenue', ${col('revenue')}::text,
          'profit', ${col('profit')}::text, 'currency_id', ${col('currency')})
        from ${fs} f where f.legal_entity_id = le.id
        order by ${col('report_year')} desc nulls last, f.period_end desc, f.id desc limit 1) as financials,
      json_build_object(${sql.join(counts)}) as record_counts
    from legal_entities le
    where le.id in (${sql.join(wanted)})`.execute(db.kysely);
  const byId = new Map(result.rows.map((row) => [Number(row.id), normalise(row)]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/** Drivers differ: pg parses json and returns bigint as text; PGlite may hand json back as text. */
function normalise(row: ComparedCompany): ComparedCompany {
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  const counts = json<Record<string, number | string>>(row.record_counts);
  const financials = json<ComparedFinancials | null>(row.financials);
  return {
    ...row,
    id: Number(row.id),
    addresses: json(row.addresses),
    identifiers: json(row.identifiers),
    financials: financials
      ? {
          ...financials,
          report_year: financials.report_year === null ? null : Number(financials.report_year),
          currency_id: financials.currency_id === null ? null : Number(financials.currency_id),
        }
      : null,
    record_counts: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
  };
}
