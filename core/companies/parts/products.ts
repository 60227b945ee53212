import { definePart } from './company-part.ts';

export type ProductRow = { name: string };

/** The names of a company's products and services, by name. */
export const productsPart = definePart<ProductRow>()({
  key: 'products',
  table: 'products',
  fields: ['name'],
  order: 'x.name, x.id',
});
