import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { visibleCompanyId } from '../takedowns/visible.ts';

export type ShareRow = Database['legal_entity_shares'];

/**
 * The share entries (authorised, paid-up, share capital) of the given companies, or, without
 * `companyIds`, of the first `count` companies that have any (by company id); by company, then
 * in each company's order.
 */
export async function readShares(db: Db, which: { companyIds: number[] } | { count: number }): Promise<ShareRow[]> {
  if ('companyIds' in which && which.companyIds.length === 0) return [];
  const k = db.kysely;
  const companies =
    'companyIds' in which
      ? which.companyIds
      : k
          .selectFrom('legal_entity_shares')
          .select('legal_entity_id')
          .distinct()
          .where(visibleCompanyId('legal_entity_id'))
          .orderBy('legal_entity_id')
          .limit(which.count);
  return (
    k
      .selectFrom('legal_entity_shares')
      .select(['legal_entity_id', 'position', 'kind', 'type', 'total_price', 'currency_id'])
      .where('legal_entity_id', 'in', companies)
      // A company taken down has no share entries to read (ADR 0021).
      .where(visibleCompanyId('legal_entity_id'))
      .orderBy('legal_entity_id')
      .orderBy('position')
      .execute()
  );
}
