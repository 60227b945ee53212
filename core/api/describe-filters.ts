import { z } from 'zod';
import { paramName } from '../filters/grammar.ts';
import { displayName, type Reference, type RefItem, type RefList } from '../reference/reference-data.ts';
import { filterParameters } from '../search/parameters.ts';
import type { LabelRef, SectionDecl } from '../sections/section.ts';

// What a client needs to build a filter panel, derived from a section's declared filters and the
// reference data (DESIGN.md: sections are declared, not written). Two shapes:
//   v1 — one entry per declared filter, as declared (kind, value lists, types);
//   v2 — concrete controls grouped as in the panel, each naming the exact query parameters to send.

/** Resolves an i18n key or an inline label in the wanted language. */
export type Translate = (label: LabelRef) => string;

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
  label_key: z.string().nullable().describe('i18n key of the label (null when the section declares it inline).'),
  label: z.string(),
  group: z.enum(['record', 'company', 'dates', 'identifiers', 'contacts', 'indicators', 'addresses', 'names']),
  parameters: z.array(z.string()).describe('Every query parameter this filter accepts.'),
};

export const FilterDescriptionSchema = z
  .discriminatedUnion('kind', [
    z.object({
      ...common,
      kind: z.enum(['reference', 'enum', 'column_choice']),
      value_key: z.enum(['id', 'uri']).describe('Send this property of a value; several are joined with |.'),
      hierarchical: z.boolean().describe('Selecting a value also selects the values below it.'),
      values: z.array(ValueSchema),
    }),
    z.object({
      ...common,
      kind: z.enum(['text', 'range']),
      value_format: z.string().nullable(),
    }),
    z.object({
      ...common,
      kind: z.enum(['typed_date_range', 'typed_text', 'typed_availability', 'typed_parts', 'typed_boolean']),
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
      control: z.literal('boolean'),
      parameter: z.string(),
      label: z.string(),
      values: z.literal('true | false'),
    }),
    z.object({
      control: z.enum(['date_range', 'number_range']),
      parameter: z.string(),
      label: z.string(),
      from: z.string().describe('Parameter of the lower bound (dates: yyyy, yyyy-MM or yyyy-MM-dd).'),
      to: z.string().describe('Parameter of the upper bound (a year-only date bound covers the whole year).'),
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

export function describeSorts(section: SectionDecl, t: Translate): z.output<typeof SortDescriptionSchema>[] {
  return section.sorts.map((s) => ({
    key: s.key,
    label: t(typeof s.label === 'string' ? s.label : s.label),
    default: s.key === section.defaultSort,
  }));
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
      const params = filterParameters(decl, reference);
      const head = {
        field: decl.field,
        label_key: typeof decl.label === 'string' ? decl.label : null,
        label: t(decl.label),
        group: decl.group,
        parameters: params.map((p) => p.name),
      };
      switch (decl.kind) {
        case 'reference':
          return {
            ...head,
            kind: 'reference',
            value_key: decl.valueKey,
            hierarchical: decl.hierarchical ?? false,
            values: refValues(reference[decl.ref] as RefList, languageId),
          };
        case 'enum':
          return {
            ...head,
            kind: 'enum',
            value_key: 'uri',
            hierarchical: false,
            values: decl.values.map((v) => ({ id: v.id, uri: v.uri, name: t(v.label), parent_id: null })),
          };
        case 'column_choice':
          return {
            ...head,
            kind: 'column_choice',
            value_key: 'uri',
            hierarchical: false,
            values: Object.keys(decl.columns).map((uri, i) => {
              const type = reference.contactTypes.byUri.get(uri);
              return { id: type?.id ?? i + 1, uri, name: type ? displayName(type, languageId) : uri, parent_id: null };
            }),
          };
        case 'text':
          return { ...head, kind: 'text', value_format: null };
        case 'ids':
          return { ...head, kind: 'text', value_format: 'ids joined by |' };
        case 'range':
          return { ...head, kind: 'range', value_format: RANGE_FORMATS[decl.valueType] };
        default:
          return {
            ...head,
            kind: decl.kind,
            value_format:
              decl.kind === 'typed_date_range'
                ? RANGE_FORMATS.date
                : decl.kind === 'typed_boolean'
                  ? 'true | false'
                  : null,
            types: (reference[decl.types] as RefList).items.map((type) => ({
              id: type.id,
              uri: type.uri,
              name: displayName(type, languageId),
              parameters: params.filter((p) => p.typeUri === type.uri).map((p) => p.name),
            })),
          };
      }
    });
}

const RANGE_FORMATS = {
  date: 'yyyy | yyyy-MM | yyyy-MM-dd',
  amount: 'a number with up to 2 decimals',
  number: 'a whole number',
  year: 'yyyy',
} as const;

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
    const label = t(decl.label);
    const range = (parameter: string, controlLabel: string, control: 'date_range' | 'number_range') => ({
      control,
      parameter,
      label: controlLabel,
      from: `${parameter}:from`,
      to: `${parameter}:to`,
      is_known: `${parameter}:is_known`,
      is_unknown: `${parameter}:is_unknown`,
    });
    switch (decl.kind) {
      case 'reference': {
        const list = reference[decl.ref] as RefList;
        const optionValue = (item: RefItem) => (decl.valueKey === 'id' ? String(item.id) : item.uri);
        add(decl.group, {
          control: decl.hierarchical ? 'tree_select' : 'multi_select',
          parameter: decl.field,
          label,
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
        break;
      }
      case 'enum':
      case 'column_choice': {
        const options =
          decl.kind === 'enum'
            ? decl.values.map((v) => ({ value: v.uri, label: t(v.label), parent: null }))
            : Object.keys(decl.columns).map((uri) => ({
                value: uri,
                label: displayName(reference.contactTypes.byUri.get(uri), languageId) || uri,
                parent: null,
              }));
        add(decl.group, { control: 'multi_select', parameter: decl.field, label, separator: '|', options });
        break;
      }
      case 'text':
      case 'ids':
        add(decl.group, { control: 'text', parameter: decl.field, label, separator: '|' });
        break;
      case 'range':
        add(decl.group, range(decl.field, label, decl.valueType === 'date' ? 'date_range' : 'number_range'));
        break;
      default:
        for (const type of (reference[decl.types] as RefList).items) {
          const base = { field: decl.field, keys: [type.uri] };
          const parameter = paramName({ ...base, op: 'eq' });
          const typeLabel = displayName(type, languageId);
          if (decl.kind === 'typed_date_range') add(decl.group, range(parameter, typeLabel, 'date_range'));
          else if (decl.kind === 'typed_text')
            add(decl.group, { control: 'text', parameter, label: typeLabel, separator: '|' });
          else if (decl.kind === 'typed_boolean')
            add(decl.group, { control: 'boolean', parameter, label: typeLabel, values: 'true | false' });
          else if (decl.kind === 'typed_parts') {
            for (const part of decl.parts) {
              add(decl.group, {
                control: 'text',
                parameter: paramName({ ...base, keys: [type.uri, part], op: 'eq' }),
                label: `${typeLabel}: ${part.replaceAll('_', ' ')}`,
                separator: '|',
              });
            }
          } else {
            add(decl.group, {
              control: 'availability',
              parameter,
              label: typeLabel,
              is_known: paramName({ ...base, op: 'is_known' }),
              is_unknown: paramName({ ...base, op: 'is_unknown' }),
            });
          }
        }
    }
  }
  return [...groups].map(([group, filters]) => ({ group, filters }));
}
