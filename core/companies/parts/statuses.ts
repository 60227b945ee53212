import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type StatusRow = Omit<Database['legal_entity_statuses'], 'legal_entity_id'>;

/** A company's statuses, in order (the chosen one is on the company: status_id). */
export const statusesPart = definePart<StatusRow>()({
  key: 'statuses',
  table: 'legal_entity_statuses',
  fields: ['position', 'status_id'],
  order: 'x.position',
});
