// A company a user's record refers to (a view, a purchase), as it is now: records keep the id
// without a foreign key (ADR 0007), so a company that is gone reads as null.

export type CompanyRef = { id: number; uri: string; name: string; jurisdiction_id: number };

/** The columns of the company, left-joined as `b` on the record's legal_entity_id. */
export const COMPANY_REF_COLUMNS = ['b.id as company_id', 'b.uri', 'b.name', 'b.jurisdiction_id'] as const;

export type CompanyRefRow = {
  company_id: number | null;
  uri: string | null;
  name: string | null;
  jurisdiction_id: number | null;
};

export function companyRefOf(row: CompanyRefRow): CompanyRef | null {
  if (row.company_id === null) return null;
  return { id: Number(row.company_id), uri: row.uri!, name: row.name!, jurisdiction_id: Number(row.jurisdiction_id) };
}
