import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ADVANCED_PROFILE_THRESHOLD } from '../limits.ts';
import { RECORD_SECTIONS } from '../sections/records.ts';
import type { CompanyProfile } from './get-company.ts';
import { OTHER_LISTS, type RecordList } from './get-company-records.ts';
import { PROFILE_LIST_PARTS } from './parts/company-parts.ts';

// Spec §3, §9: a profile is "advanced" when any of the company's related lists holds 10 items or
// more; it costs more credits and shows a badge. The lists are the company's own parts (names,
// addresses, members, …: PROFILE_LIST_PARTS), its records of every section, and its documents, events and products:
// the same lists the profile page shows, whether it reads them (profileListSizes) or the price
// counts them (isAdvancedCompany).

export { ADVANCED_PROFILE_THRESHOLD };

/** Every table holding one of a company's related lists. */
const LIST_TABLES = [
  ...PROFILE_LIST_PARTS.map((p) => p.table),
  ...RECORD_SECTIONS.map((s) => s.table),
  ...OTHER_LISTS.map((l) => l.table),
];

/** The rule: advanced when any related list holds ADVANCED_PROFILE_THRESHOLD items or more. */
export function isAdvancedProfile(listSizes: Iterable<number>): boolean {
  for (const size of listSizes) if (size >= ADVANCED_PROFILE_THRESHOLD) return true;
  return false;
}

/** The sizes of a company's related lists as a profile reads them: its parts and its record lists' totals. */
export function profileListSizes(company: CompanyProfile, records: Iterable<RecordList>): number[] {
  const parts = PROFILE_LIST_PARTS.map((part) => company[part.key].length);
  return [...parts, ...[...records].map((list) => list.total)];
}

/** Whether a company's profile is advanced, counted in the database (each list up to the threshold). */
export async function isAdvancedCompany(db: Db, companyId: number): Promise<boolean> {
  const sizes = LIST_TABLES.map(
    (table) =>
      sql<number>`(select count(*)::int from (select 1 from ${sql.table(table)} x where x.legal_entity_id = ${companyId} limit ${ADVANCED_PROFILE_THRESHOLD}) c)`,
  );
  const result = await sql<{ sizes: number[] }>`select array[${sql.join(sizes)}] as sizes`.execute(db.kysely);
  return isAdvancedProfile(result.rows[0]?.sizes ?? []);
}
