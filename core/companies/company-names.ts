import type { Db } from '../../db/client.ts';
import { visibleCompany } from '../takedowns/visible.ts';

/** The names of the companies of these ids, by id as a string (a `company` filter's values); unknown ids and companies taken down are left out. */
export async function companyNames(db: Db, ids: number[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('legal_entities')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .where(visibleCompany())
    .execute();
  return new Map(rows.map((r) => [String(r.id), r.name]));
}
