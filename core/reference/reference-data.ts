import type { Db } from '../../db/client.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';

export type Lang = 'en' | 'de' | 'fr';
export const LANGS: Lang[] = ['en', 'de', 'fr'];

export type Translation = { name: string; name_full: string | null; name_short: string | null };

export type RefItem = {
  id: number;
  uri: string;
  /** Keyed by language id. */
  translations: Map<number, Translation>;
};

export type Location = RefItem & {
  location_type_id: number;
  country_code: string;
  parent_id: number | null;
  flag_location_id: number;
  /** Other names and codes of the location (ISO 3166 alpha-2 and alpha-3 codes, short names, ISO 3166-2 codes). */
  aliases: string[];
};

export type Industry = RefItem & { code: string; level: number; parent_id: number | null; children: number[] };

export type EmployeeRange = RefItem & { min_employees: number; max_employees: number | null };

export type RefList<T extends RefItem = RefItem> = {
  items: T[];
  byId: Map<number, T>;
  byUri: Map<string, T>;
};

/** All reference data, read once at start and kept in memory (a few thousand rows). */
export type Reference = {
  languageIds: Record<Lang, number>;
  languages: RefList;
  locations: RefList<Location>;
  industries: RefList<Industry>;
  currencies: RefList;
  kinds: RefList;
  sizes: RefList;
  statuses: RefList;
  employees: RefList<EmployeeRange>;
  nameTypes: RefList;
  addressTypes: RefList;
  dateTypes: RefList;
  identifierTypes: RefList;
  indicatorTypes: RefList;
  contactTypes: RefList;
  positions: RefList;
  locationTypes: RefList;
};

/** The language of a language id (English for one the site does not speak). */
export function langOf(reference: Reference, languageId: number): Lang {
  return (Object.keys(reference.languageIds) as Lang[]).find((l) => reference.languageIds[l] === languageId) ?? 'en';
}

/**
 * The display-name rule: the translation in the wanted language, else the one with language
 * id 41 (English), else the uri.
 */
export function displayName(item: RefItem | undefined, languageId: number = LANGUAGE_EN): string {
  if (!item) return '';
  return item.translations.get(languageId)?.name ?? item.translations.get(LANGUAGE_EN)?.name ?? item.uri;
}

function refList<T extends RefItem>(items: T[]): RefList<T> {
  return {
    items,
    byId: new Map(items.map((i) => [i.id, i])),
    byUri: new Map(items.map((i) => [i.uri, i])),
  };
}

export async function loadReference(db: Db): Promise<Reference> {
  const k = db.kysely;
  const translationRows = await k.selectFrom('translations').selectAll().execute();
  const byEntity = new Map<string, Map<number, Map<number, Translation>>>();
  for (const t of translationRows) {
    const entity = byEntity.get(t.entity) ?? new Map<number, Map<number, Translation>>();
    byEntity.set(t.entity, entity);
    const item = entity.get(t.entity_id) ?? new Map<number, Translation>();
    entity.set(t.entity_id, item);
    item.set(t.language_id, { name: t.name, name_full: t.name_full, name_short: t.name_short });
  }
  const attach = <T extends { id: number; uri: string }>(entity: string, rows: T[]) =>
    rows.map((r) => ({ ...r, translations: byEntity.get(entity)?.get(r.id) ?? new Map() }));
  const simple = async (
    table:
      | 'currencies'
      | 'legal_entity_kinds'
      | 'sizes'
      | 'statuses'
      | 'name_types'
      | 'address_types'
      | 'date_types'
      | 'identifier_types'
      | 'indicator_types'
      | 'contact_types'
      | 'positions'
      | 'location_types'
      | 'languages',
    entity: string,
  ) => refList(attach(entity, await k.selectFrom(table).select(['id', 'uri']).orderBy('id').execute()));

  const languages = await simple('languages', 'language');
  const codes = await k
    .selectFrom('languages')
    .select(['id', 'code'])
    .where('code', 'in', ['en', 'de', 'fr'])
    .execute();
  const languageIds = { en: LANGUAGE_EN, de: 0, fr: 0 };
  for (const c of codes) languageIds[c.code as Lang] = c.id;

  const aliases = new Map<number, string[]>();
  for (const a of await k.selectFrom('location_aliases').select(['location_id', 'alias']).orderBy('alias').execute()) {
    aliases.set(a.location_id, [...(aliases.get(a.location_id) ?? []), a.alias]);
  }
  const locations = refList<Location>(
    attach(
      'location',
      await k
        .selectFrom('locations')
        .select(['id', 'uri', 'location_type_id', 'country_code', 'parent_id', 'flag_location_id'])
        .orderBy('id')
        .execute(),
    ).map((l) => ({ ...l, aliases: aliases.get(l.id) ?? [] })),
  );
  const industryRows = await k
    .selectFrom('industries')
    .select(['id', 'uri', 'code', 'level', 'parent_id'])
    .orderBy('code')
    .execute();
  const industries = refList<Industry>(attach('industry', industryRows).map((i) => ({ ...i, children: [] })));
  for (const i of industries.items) if (i.parent_id !== null) industries.byId.get(i.parent_id)?.children.push(i.id);
  const employees = refList<EmployeeRange>(
    attach(
      'employees',
      await k
        .selectFrom('employee_ranges')
        .select(['id', 'uri', 'min_employees', 'max_employees'])
        .orderBy('id')
        .execute(),
    ),
  );

  return {
    languageIds,
    languages,
    locations,
    industries,
    employees,
    currencies: await simple('currencies', 'currency'),
    kinds: await simple('legal_entity_kinds', 'legal_entity_kind'),
    sizes: await simple('sizes', 'size'),
    statuses: await simple('statuses', 'status'),
    nameTypes: await simple('name_types', 'name_type'),
    addressTypes: await simple('address_types', 'address_type'),
    dateTypes: await simple('date_types', 'date_type'),
    identifierTypes: await simple('identifier_types', 'identifier_type'),
    indicatorTypes: await simple('indicator_types', 'indicator_type'),
    contactTypes: await simple('contact_types', 'contact_type'),
    positions: await simple('positions', 'position'),
    locationTypes: await simple('location_types', 'location_type'),
  };
}

/** An industry and all industries below it (the hierarchical filter). */
export function industryWithDescendants(reference: Reference, id: number): number[] {
  const out: number[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop()!;
    const industry = reference.industries.byId.get(next);
    if (!industry) continue;
    out.push(next);
    stack.push(...industry.children);
  }
  return out;
}

const locationChildren = new WeakMap<Reference, Map<number, number[]>>();

/** A location and the locations inside it (a country and its states: the hierarchical filter). */
export function locationWithChildren(reference: Reference, id: number): number[] {
  let children = locationChildren.get(reference);
  if (!children) {
    children = new Map();
    for (const l of reference.locations.items) {
      if (l.parent_id !== null) children.set(l.parent_id, [...(children.get(l.parent_id) ?? []), l.id]);
    }
    locationChildren.set(reference, children);
  }
  return [id, ...(children.get(id) ?? [])];
}

/** Ancestors from the top-level sector down to the industry itself. */
export function industryPath(reference: Reference, id: number): Industry[] {
  const path: Industry[] = [];
  let current = reference.industries.byId.get(id);
  while (current) {
    path.unshift(current);
    current = current.parent_id === null ? undefined : reference.industries.byId.get(current.parent_id);
  }
  return path;
}

/**
 * The ISO 3166 code of a location's flag, lower case (`gb`), or '' when it has none: a state shows
 * its country's flag (spec §3). Pages draw it as an SVG image (`app/components/flag.tsx`, ADR 0022).
 */
export function flagCodeOf(reference: Reference, locationId: number): string {
  const location = reference.locations.byId.get(locationId);
  const flagLocation = location ? reference.locations.byId.get(location.flag_location_id) : undefined;
  const code = flagLocation?.country_code ?? location?.country_code;
  return code && /^[A-Z]{2}$/.test(code) ? code.toLowerCase() : '';
}

/** Emoji flag of a location (the data API's `flag`): a state shows its country's flag (spec §3). */
export function flagOf(reference: Reference, locationId: number): string {
  const code = flagCodeOf(reference, locationId).toUpperCase();
  return code ? String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65)) : '';
}

const locationCodes = new WeakMap<Reference, Map<string, Location>>();

/**
 * The location an ISO 3166 code names, as sources write them: a country (`GB`, alpha-2 or alpha-3)
 * or a subdivision (`US-DE`); undefined for a code the reference data has not.
 */
export function locationOfCode(reference: Reference, code: string): Location | undefined {
  let byCode = locationCodes.get(reference);
  if (!byCode) {
    byCode = new Map();
    for (const l of reference.locations.items) {
      if (l.parent_id === null && !byCode.has(l.country_code)) byCode.set(l.country_code, l);
      for (const alias of l.aliases)
        if (/^[A-Z]{2,3}(-[A-Z0-9]{1,3})?$/.test(alias) && !byCode.has(alias)) byCode.set(alias, l);
    }
    locationCodes.set(reference, byCode);
  }
  return byCode.get(code.toUpperCase());
}
