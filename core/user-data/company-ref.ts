// A company a user's record refers to (a view, a purchase), as it is now: records keep the id
// without a foreign key (ADR 0007), so a company that is gone reads as null — and so does a company
// taken down (ADR 0021): the record stays the user's, the company is no longer shown.

import { sql } from 'kysely';
import { visibleCompany } from '../takedowns/visible.ts';

export type CompanyRef = { id: number; uri: string; name: string; jurisdiction_id: number };

/** The columns of the company, left-joined as `b` on the record's legal_entity_id. */
export const COMPANY_REF_COLUMNS = [
  sql<number | null>`case when ${visibleCompany('b')} then b.id end`.as('company_id'),
  'b.uri',
  'b.name',
  'b.jurisdiction_id',
] as const;

/** The company's name for a search among a user's records (`q`): none for a company taken down. */
export const COMPANY_REF_NAME = sql<string | null>`case when ${visibleCompany('b')} then b.name end`;

export type CompanyRefRow = {
  company_id: number | null;
  uri: string | null;
  name: string | null;
  jurisdiction_id: number | null;
};

/** The company of a record, or null when it is gone or taken down (its company_id is then null). */
export function companyRefOf(row: CompanyRefRow): CompanyRef | null {
  if (row.company_id === null) return null;
  return { id: Number(row.company_id), uri: row.uri!, name: row.name!, jurisdiction_id: Number(row.jurisdiction_id) };
}
