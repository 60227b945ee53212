import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type NameRow = Omit<Database['legal_entity_names'], 'legal_entity_id'>;

/** A company's names (trading, former, …), by name type, then position. */
export const namesPart = definePart<NameRow>()({
  key: 'names',
  table: 'legal_entity_names',
  fields: ['name_type_id', 'position', 'name'],
  order: 'x.name_type_id, x.position',
});
