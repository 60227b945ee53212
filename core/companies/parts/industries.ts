import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type IndustryRow = Omit<Database['legal_entity_industries'], 'legal_entity_id'>;

/** A company's industries, the primary one first, then by industry. */
export const industriesPart = definePart<IndustryRow>()({
  key: 'industries',
  table: 'legal_entity_industries',
  fields: ['industry_id', 'is_primary', 'is_secondary', 'is_licensed', 'is_unlicensed'],
  order: 'x.is_primary desc, x.industry_id',
});
