import { sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type ShareRow = Omit<Database['legal_entity_shares'], 'legal_entity_id'>;

/** A company's share capital, in order; amounts as text (numeric, no float rounding). */
export const sharesPart = definePart<ShareRow>()({
  key: 'shares',
  table: 'legal_entity_shares',
  fields: ['position', 'kind', 'type', 'total_price', 'currency_id'],
  expressions: { total_price: sql`x.total_price::text` },
  order: 'x.position',
});
