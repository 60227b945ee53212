import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type ContactRow = Omit<Database['legal_entity_contacts'], 'legal_entity_id'>;

/** A company's contacts (email, phone, website, …), by contact type, then position. */
export const contactsPart = definePart<ContactRow>()({
  key: 'contacts',
  table: 'legal_entity_contacts',
  fields: ['contact_type_id', 'position', 'contact'],
  order: 'x.contact_type_id, x.position',
});
