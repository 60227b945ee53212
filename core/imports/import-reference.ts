import type { Db } from '../../db/client.ts';

// The reference ids an import maps codes onto, read once per import.

export type ImportReference = {
  /** 'GB' → the country's location id, 'US-DE' → the subdivision's. */
  locations: Map<string, number>;
  /** Location id → its code (the reverse of `locations`). */
  locationCodes: Map<number, string>;
  statuses: Map<string, number>;
  nameTypes: Map<string, number>;
  addressTypes: Map<string, number>;
  dateTypes: Map<string, number>;
  identifierTypes: Map<string, number>;
  positions: Map<string, number>;
  /** NAICS code → industry id. */
  industries: Map<string, number>;
};

export async function loadImportReference(db: Db): Promise<ImportReference> {
  const k = db.kysely;
  const byUri = async (
    table: 'statuses' | 'name_types' | 'address_types' | 'date_types' | 'identifier_types' | 'positions',
  ) => new Map((await k.selectFrom(table).select(['id', 'uri']).execute()).map((r) => [r.uri, r.id]));
  const locations = new Map<string, number>();
  const rows = await k
    .selectFrom('locations')
    .select(['id', 'location_type_id', 'country_code', 'subdivision_code'])
    .orderBy('id')
    .execute();
  for (const r of rows) {
    if (r.location_type_id === 1 && !locations.has(r.country_code)) locations.set(r.country_code, r.id);
    if (r.subdivision_code && !locations.has(r.subdivision_code.toUpperCase()))
      locations.set(r.subdivision_code.toUpperCase(), r.id);
  }
  const locationCodes = new Map<number, string>();
  for (const r of rows) locationCodes.set(r.id, r.subdivision_code?.toUpperCase() ?? r.country_code);
  const industries = new Map(
    (await k.selectFrom('industries').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  return {
    locations,
    locationCodes,
    statuses: await byUri('statuses'),
    nameTypes: await byUri('name_types'),
    addressTypes: await byUri('address_types'),
    dateTypes: await byUri('date_types'),
    identifierTypes: await byUri('identifier_types'),
    positions: await byUri('positions'),
    industries,
  };
}

/** A jurisdiction code's location: the subdivision when known, else its country; null when neither is. */
export function jurisdictionLocation(reference: ImportReference, code: string): number | null {
  const upper = code.toUpperCase();
  return reference.locations.get(upper) ?? reference.locations.get(upper.slice(0, 2)) ?? null;
}
