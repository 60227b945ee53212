import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type RegisterRow = Pick<Database['registers'], 'authority' | 'register_name' | 'register_number' | 'type_id'>;

/** The registers a company is entered in (registration and tax authorities), by entry date. */
export const registersPart = definePart<RegisterRow>()({
  key: 'registers',
  table: 'registers',
  fields: ['authority', 'register_name', 'register_number', 'type_id'],
  order: 'x.entry_date, x.id',
});
