import { z } from 'zod';
import { paramName } from '../filters/grammar.ts';
import { displayName, type Reference, type RefItem, type RefList } from '../reference/reference-data.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';

// What a client needs to build a filter panel, derived from a section's declared filters and the
// reference data (DESIGN.md: sections are declared, not written). Two shapes:
//   v1 — one entry per declared filter, as declared (kind, value lists, types);
//   v2 — concrete controls grouped as in the panel, each naming the exact query parameters to send.

export type Translate = (key: string) => string;

const ValueSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    parent_id: z.number().int().nullable().describe('Parent in the hierarchy (industries, states of a country).'),
  })
  .meta({ id: 'FilterValue' });

const TypeSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    parameters: z.array(z.string()).describe('The query parameters this type accepts.'),
  })
  .meta({ id: 'FilterType' });

const common = {
  field: z.string().describe('Query parameter name (or its stem for typed filters).'),
  label_key: z.string(),
  label: z.string(),
  group: z.enum(['company', 'dates', 'identifiers', 'contacts', 'indicators']),
};

export const FilterDescriptionSchema = z
  .discriminatedUnion('kind', [
    z.object({
      ...common,
      kind: z.literal('reference'),
      value_key: z.enum(['id', 'uri']).describe('Send this property of a value; several are joined with |.'),
      hierarchical: z.boolean().describe('Selecting a value also selects the values below it.'),
      parameters: z.array(z.string()),
      values: z.array(ValueSchema),
    }),
    z.object({
      ...common,
      kind: z.enum(['typed_date_range', 'typed_text', 'typed_availability']),
      value_format: z.string().nullable(),
      types: z.array(TypeSchema),
    }),
  ])
  .meta({ id: 'FilterDescription' });

export type FilterDescription = z.output<typeof FilterDescriptionSchema>;

export const SortDescriptionSchema = z
  .object({ key: z.string(), label: z.string(), default: z.boolean() })
  .meta({ id: 'SortDescription' });

export const FiltersV1Schema = z
  .object({
    data: z.array(FilterDescriptionSchema),
    meta: z.object({
      entity_type: z.literal('legal_entity'),
      section: z.string(),
      sorts: z.array(SortDescriptionSchema),
      list_separator: z.literal('|'),
    }),
  })
  .meta({ id: 'LegalEntityFiltersV1' });

const OptionSchema = z
  .object({ value: z.string(), label: z.string(), parent: z.string().nullable() })
  .meta({ id: 'FilterOption' });

export const FilterControlSchema = z
  .discriminatedUnion('control', [
    z.object({
      control: z.enum(['multi_select', 'tree_select']),
      parameter: z.string(),
      label: z.string(),
      separator: z.literal('|'),
      options: z.array(OptionSchema),
    }),
    z.object({
      control: z.literal('date_range'),
      parameter: z.string(),
      label: z.string(),
      from: z.string().describe('Parameter of the lower bound (yyyy, yyyy-MM or yyyy-MM-dd).'),
      to: z.string().describe('Parameter of the upper bound (a year-only bound covers the whole year).'),
      is_known: z.string(),
      is_unknown: z.string(),
    }),
    z.object({ control: z.literal('text'), parameter: z.string(), label: z.string(), separator: z.literal('|') }),
    z.object({
      control: z.literal('availability'),
      parameter: z.string(),
      label: z.string(),
      is_known: z.string().describe('Send with an empty value.'),
      is_unknown: z.string().describe('Send with an empty value.'),
    }),
  ])
  .meta({ id: 'FilterControl' });

export type FilterControl = z.output<typeof FilterControlSchema>;

export const FiltersV2Schema = z
  .object({
    data: z.object({
      entity_type: z.literal('legal_entity'),
      groups: z.array(z.object({ group: z.string(), filters: z.array(FilterControlSchema) })),
      sorts: z.array(SortDescriptionSchema),
    }),
  })
  .meta({ id: 'LegalEntityFiltersV2' });

function refValues(list: RefList, languageId: number): z.output<typeof ValueSchema>[] {
  return list.items.map((item: RefItem & { parent_id?: number | null }) => ({
    id: item.id,
    uri: item.uri,
    name: displayName(item, languageId),
    parent_id: item.parent_id ?? null,
  }));
}

function typeParameters(decl: FilterDecl, uri: string): string[] {
  const base = { field: decl.field, keys: [uri] };
  switch (decl.kind) {
    case 'typed_date_range':
      return (['from', 'to', 'is_known', 'is_unknown'] as const).map((op) => paramName({ ...base, op }));
    case 'typed_text':
      return [paramName({ ...base, op: 'eq' })];
    case 'typed_availability':
      return (['is_known', 'is_unknown'] as const).map((op) => paramName({ ...base, op }));
    case 'reference':
      return [decl.field];
  }
}

export function describeSorts(section: SectionDecl, t: Translate): z.output<typeof SortDescriptionSchema>[] {
  return section.sorts.map((s) => ({ key: s.key, label: t(s.label), default: s.key === section.defaultSort }));
}

/** v1: one entry per declared filter; `fields` narrows the list (e.g. to one filter). */
export function describeFilters(
  section: SectionDecl,
  reference: Reference,
  languageId: number,
  t: Translate,
  fields?: ReadonlySet<string>,
): FilterDescription[] {
  return section.filters
    .filter((decl) => !fields || fields.has(decl.field))
    .map((decl): FilterDescription => {
      const head = { field: decl.field, label_key: decl.label, label: t(decl.label), group: decl.group };
      if (decl.kind === 'reference') {
        return {
          ...head,
          kind: 'reference',
          value_key: decl.valueKey,
          hierarchical: decl.hierarchical ?? false,
          parameters: [decl.field],
          values: refValues(reference[decl.ref] as RefList, languageId),
        };
      }
      return {
        ...head,
        kind: decl.kind,
        value_format: decl.kind === 'typed_date_range' ? 'yyyy | yyyy-MM | yyyy-MM-dd' : null,
        types: (reference[decl.types] as RefList).items.map((type) => ({
          id: type.id,
          uri: type.uri,
          name: displayName(type, languageId),
          parameters: typeParameters(decl, type.uri),
        })),
      };
    });
}

/** v2: the panel's groups of concrete controls, each naming the query parameters it sends. */
export function describeFilterControls(
  section: SectionDecl,
  reference: Reference,
  languageId: number,
  t: Translate,
): { group: string; filters: FilterControl[] }[] {
  const groups = new Map<string, FilterControl[]>();
  const add = (group: string, control: FilterControl) => {
    const list = groups.get(group);
    if (list) list.push(control);
    else groups.set(group, [control]);
  };
  for (const decl of section.filters) {
    if (decl.kind === 'reference') {
      const list = reference[decl.ref] as RefList;
      const optionValue = (item: RefItem) => (decl.valueKey === 'id' ? String(item.id) : item.uri);
      add(decl.group, {
        control: decl.hierarchical ? 'tree_select' : 'multi_select',
        parameter: decl.field,
        label: t(decl.label),
        separator: '|',
        options: list.items.map((item: RefItem & { parent_id?: number | null }) => {
          const parent = item.parent_id == null ? undefined : list.byId.get(item.parent_id);
          return {
            value: optionValue(item),
            label: displayName(item, languageId),
            parent: parent ? optionValue(parent) : null,
          };
        }),
      });
      continue;
    }
    for (const type of (reference[decl.types] as RefList).items) {
      const base = { field: decl.field, keys: [type.uri] };
      const parameter = paramName({ ...base, op: 'eq' });
      const label = displayName(type, languageId);
      if (decl.kind === 'typed_date_range') {
        add(decl.group, {
          control: 'date_range',
          parameter,
          label,
          from: paramName({ ...base, op: 'from' }),
          to: paramName({ ...base, op: 'to' }),
          is_known: paramName({ ...base, op: 'is_known' }),
          is_unknown: paramName({ ...base, op: 'is_unknown' }),
        });
      } else if (decl.kind === 'typed_text') {
        add(decl.group, { control: 'text', parameter, label, separator: '|' });
      } else {
        add(decl.group, {
          control: 'availability',
          parameter,
          label,
          is_known: paramName({ ...base, op: 'is_known' }),
          is_unknown: paramName({ ...base, op: 'is_unknown' }),
        });
      }
    }
  }
  return [...groups].map(([group, filters]) => ({ group, filters }));
}
