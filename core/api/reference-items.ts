import { z } from 'zod';
import {
  displayName,
  type EmployeeRange,
  type Industry,
  industryPath,
  LANGS,
  type Lang,
  type Location,
  type Reference,
  type RefItem,
} from '../reference/reference-data.ts';
import type { EnumValue } from '../sections/record-fields.ts';

// The reference-data API's item shapes (spec §3 "Reference records", "Industry", "Location"):
// id, uri, display name and every translation, plus the fields of each kind.

export const TranslationSchema = z
  .object({
    language_id: z.number().int(),
    name: z.string(),
    name_full: z.string().nullable(),
    name_short: z.string().nullable(),
  })
  .meta({ id: 'Translation' });

export const ReferenceItemSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string().describe('The translation in the requested language, else English (41), else the uri.'),
    translations: z.array(TranslationSchema),
  })
  .meta({ id: 'ReferenceItem' });

const LinkSchema = z.object({ id: z.number().int(), uri: z.string(), name: z.string() });

export const LocationItemSchema = ReferenceItemSchema.extend({
  location_type_id: z.number().int().describe('1 = country, 2 = state or region.'),
  countryCode: z.string(),
  parent_id: z.number().int().nullable(),
  parent_locations: z.array(LinkSchema),
  aliases: z
    .array(z.string())
    .describe(
      'Other names and codes: ISO 3166-1 alpha-2 and alpha-3 codes and short names, ISO 3166-2 codes of states.',
    ),
  flag: z.string(),
}).meta({ id: 'LocationItem' });

export const IndustryItemSchema = ReferenceItemSchema.extend({
  code: z
    .string()
    .describe('NACE Rev. 2 code: a section letter (A), a division (01), a group (01.1) or a class (01.11).'),
  level: z.number().int().describe('1 = section, 2 = division, 3 = group, 4 = class (NACE Rev. 2).'),
  parent_id: z.number().int().nullable(),
  parent_industries: z.array(LinkSchema).describe('Ancestors, from the sector down to the parent.'),
  child_industries: z.array(LinkSchema),
}).meta({ id: 'IndustryItem' });

export const EmployeeRangeItemSchema = ReferenceItemSchema.extend({
  min_employees: z.number().int(),
  max_employees: z.number().int().nullable().describe('Null when open-ended.'),
}).meta({ id: 'EmployeeRangeItem' });

export type ReferenceItemOut = z.output<typeof ReferenceItemSchema>;

export function referenceItem(item: RefItem, languageId: number): ReferenceItemOut {
  return {
    id: item.id,
    uri: item.uri,
    name: displayName(item, languageId),
    translations: [...item.translations]
      .sort(([a], [b]) => a - b)
      .map(([language_id, t]) => ({ language_id, name: t.name, name_full: t.name_full, name_short: t.name_short })),
  };
}

/** A declared value (core/reference/declared-lists.ts) as a reference item, its labels as translations. */
export function declaredRefItem(value: EnumValue, languageIds: Record<Lang, number>): RefItem {
  return {
    id: value.id,
    uri: value.uri,
    translations: new Map(
      LANGS.map((lang) => [languageIds[lang], { name: value.label[lang], name_full: null, name_short: null }]),
    ),
  };
}

const link = (item: RefItem, languageId: number) => ({
  id: item.id,
  uri: item.uri,
  name: displayName(item, languageId),
});

export function locationItem(
  reference: Reference,
  location: Location,
  languageId: number,
  flag: string,
): z.output<typeof LocationItemSchema> {
  const parents: RefItem[] = [];
  let parent = location.parent_id === null ? undefined : reference.locations.byId.get(location.parent_id);
  while (parent && parents.length < 10) {
    parents.unshift(parent);
    parent = parent.parent_id === null ? undefined : reference.locations.byId.get(parent.parent_id);
  }
  return {
    ...referenceItem(location, languageId),
    location_type_id: location.location_type_id,
    countryCode: location.country_code,
    parent_id: location.parent_id,
    parent_locations: parents.map((p) => link(p, languageId)),
    aliases: location.aliases,
    flag,
  };
}

export function industryItem(
  reference: Reference,
  industry: Industry,
  languageId: number,
): z.output<typeof IndustryItemSchema> {
  return {
    ...referenceItem(industry, languageId),
    code: industry.code,
    level: industry.level,
    parent_id: industry.parent_id,
    parent_industries: industryPath(reference, industry.id)
      .slice(0, -1)
      .map((i) => link(i, languageId)),
    child_industries: industry.children
      .map((id) => reference.industries.byId.get(id))
      .filter((i): i is Industry => i !== undefined)
      .map((i) => link(i, languageId)),
  };
}

export function employeeRangeItem(range: EmployeeRange, languageId: number): z.output<typeof EmployeeRangeItemSchema> {
  return {
    ...referenceItem(range, languageId),
    min_employees: range.min_employees,
    max_employees: range.max_employees,
  };
}
