import type { Database } from '../../../db/schema.ts';
import { definePart } from './company-part.ts';

export type IdentifierRow = Omit<Database['legal_entity_identifiers'], 'legal_entity_id'>;

/** A company's identifiers (company number, LEI, VAT, …), by identifier type, then position. */
export const identifiersPart = definePart<IdentifierRow>()({
  key: 'identifiers',
  table: 'legal_entity_identifiers',
  fields: ['identifier_type_id', 'position', 'identifier'],
  order: 'x.identifier_type_id, x.position',
});
