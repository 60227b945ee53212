import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import { type CompanyWith, companySelect, parseCompany } from './parts/company-part.ts';
import { PROFILE_LIST_PARTS } from './parts/company-parts.ts';
import { memberCompaniesPart, memberOfPart } from './parts/members.ts';
import { specificationsPart } from './parts/specifications.ts';
import { preparedStatement } from './prepared-query.ts';

/** The parts of a company its profile shows: its lists, its counts, its members' other companies and where it is a member. */
export const PROFILE_PARTS = [...PROFILE_LIST_PARTS, specificationsPart, memberCompaniesPart, memberOfPart] as const;

export type CompanyProfile = CompanyWith<typeof PROFILE_PARTS>;

/** The profile's one statement, built and compiled once (core/companies/prepared-query.ts). */
const companyByUri = preparedStatement(
  'registra-get-company',
  (_, uri: string) =>
    sql<
      Record<string, unknown>
    >`select ${companySelect(PROFILE_PARTS)} from legal_entities le where le.uri = ${uri} and ${visibleCompany('le')}`,
);

/**
 * Everything the profile shows of one company, by its uri, in one statement (each part a JSON
 * subselect, core/companies/parts/); null when there is none or it is taken down (ADR 0021).
 */
export async function getCompany(db: Db, uri: string): Promise<CompanyProfile | null> {
  const row = (await companyByUri(db, uri))[0];
  return row ? parseCompany(row, PROFILE_PARTS) : null;
}
