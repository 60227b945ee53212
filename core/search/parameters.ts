// Every filter parameter a section accepts, enumerated from its declaration and the reference
// data: the advanced search lists them, the filters API describes them, and a test runs each one
// through the grammar and the database.

import { type FilterOp, paramName } from '../filters/grammar.ts';
import type { Reference, RefList } from '../reference/reference-data.ts';
import type { FilterDecl, SectionDecl } from '../sections/section.ts';

/** The input a parameter takes. */
export type ParameterControl = 'select' | 'text' | 'date' | 'number' | 'boolean' | 'availability';

export type ParameterInfo = {
  /** The query parameter name, e.g. `dates[registration]:from`. */
  name: string;
  field: string;
  keys: string[];
  op: FilterOp;
  group: FilterDecl['group'];
  control: ParameterControl;
  /** The type (a date type, address type, …) for typed filters. */
  typeUri?: string;
  /** A value the parameter accepts (empty for availability). */
  sample: string;
};

const RANGE_SAMPLES = { date: '2020-01-01', amount: '1000', number: '10', year: '2000' } as const;

/** The parameters of one declared filter. */
export function filterParameters(decl: FilterDecl, reference: Reference): ParameterInfo[] {
  const out: ParameterInfo[] = [];
  const add = (keys: string[], op: FilterOp, control: ParameterControl, sample: string, typeUri?: string) =>
    out.push({
      name: paramName({ field: decl.field, keys, op }),
      field: decl.field,
      keys,
      op,
      group: decl.group,
      control: op === 'is_known' || op === 'is_unknown' ? 'availability' : control,
      typeUri,
      sample: op === 'is_known' || op === 'is_unknown' ? '' : sample,
    });
  const availability = (keys: string[], typeUri?: string) => {
    add(keys, 'is_known', 'availability', '', typeUri);
    add(keys, 'is_unknown', 'availability', '', typeUri);
  };
  const types = 'types' in decl ? (reference[decl.types] as RefList).items : [];
  switch (decl.kind) {
    case 'reference': {
      const first = (reference[decl.ref] as RefList).items[0];
      add([], 'eq', 'select', first ? (decl.valueKey === 'id' ? String(first.id) : first.uri) : '1');
      availability([]);
      break;
    }
    case 'enum':
      add([], 'eq', 'select', decl.values[0]?.uri ?? '');
      availability([]);
      break;
    case 'column_choice':
      add([], 'eq', 'select', Object.keys(decl.columns)[0]);
      break;
    case 'ids':
      add([], 'eq', 'text', '1');
      break;
    case 'text':
      add([], 'eq', 'text', 'example');
      availability([]);
      break;
    case 'range': {
      const control = decl.valueType === 'date' ? 'date' : 'number';
      add([], 'from', control, RANGE_SAMPLES[decl.valueType]);
      add([], 'to', control, RANGE_SAMPLES[decl.valueType]);
      availability([]);
      break;
    }
    case 'typed_date_range':
      for (const t of types) {
        add([t.uri], 'from', 'date', '2020', t.uri);
        add([t.uri], 'to', 'date', '2020-12-31', t.uri);
        availability([t.uri], t.uri);
      }
      break;
    case 'typed_text':
      for (const t of types) {
        add([t.uri], 'eq', 'text', 'example', t.uri);
        availability([t.uri], t.uri);
      }
      break;
    case 'typed_availability':
      for (const t of types) availability([t.uri], t.uri);
      break;
    case 'typed_boolean':
      for (const t of types) {
        add([t.uri], 'eq', 'boolean', 'true', t.uri);
        availability([t.uri], t.uri);
      }
      break;
    case 'typed_parts':
      for (const t of types) {
        for (const part of decl.parts) {
          add([t.uri, part], 'eq', 'text', 'example', t.uri);
          availability([t.uri, part], t.uri);
        }
      }
      break;
  }
  return out;
}

/** Every parameter of a section, in declaration order. */
export function sectionParameters(section: SectionDecl, reference: Reference): ParameterInfo[] {
  return section.filters.flatMap((decl) => filterParameters(decl, reference));
}
