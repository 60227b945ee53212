import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type IndicatorRow = Omit<Database['legal_entity_indicators'], 'legal_entity_id'>;

/** A company's yes/no indicators, one per indicator type. */
export const indicatorsPart = definePart<IndicatorRow>()({
  key: 'indicators',
  table: 'legal_entity_indicators',
  fields: ['indicator_type_id', 'value'],
  order: 'x.indicator_type_id',
});
