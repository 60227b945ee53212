import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type DateRow = Omit<Database['legal_entity_dates'], 'legal_entity_id'>;

/** A company's dates (registration, dissolution, …), one per date type. */
export const datesPart = definePart<DateRow>()({
  key: 'dates',
  table: 'legal_entity_dates',
  fields: ['date_type_id', 'date'],
  order: 'x.date_type_id',
});
