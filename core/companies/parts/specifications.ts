import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type SpecificationsRow = Omit<Database['legal_entity_specifications'], 'legal_entity_id'>;

/** A company's counts of members, officers and partners: one row at most. */
export const specificationsPart = definePart<SpecificationsRow>()({
  key: 'specifications',
  table: 'legal_entity_specifications',
  fields: ['members_count', 'officers_count', 'partners_count'],
});
