// The vocabulary of related-record sections: fields with a type, labels in every language and,
// for enumerations, their values. A record section (records.ts) is a list of such fields; the
// table, filters, sorts, facets, columns and export fields derive from it.

import type { Lang } from '../reference/reference-data.ts';

export type Label = Record<Lang, string>;

/** A value of an enumerated field: stored as its id, filtered by uri (or id), shown by label. */
export type EnumValue = { id: number; uri: string; label: Label };

export type FieldType =
  /** Free text (names, descriptions); filtered by exact value (case-insensitive) or availability. */
  | 'text'
  /** An identifier or code (IMO number, IBAN, VIN); filtered by exact value. */
  | 'code'
  /** A calendar date; filtered by :from/:to (yyyy, yyyy-MM or yyyy-MM-dd). */
  | 'date'
  /** A money amount (with the record's currency); filtered by :from/:to. */
  | 'amount'
  /** A whole number (seats, tonnage); filtered by :from/:to. */
  | 'number'
  /** A year (construction year, report year); filtered by :from/:to. */
  | 'year'
  /** One of the declared values; filtered by a list of uris or ids. */
  | 'enum'
  /** A location (country or state) from the reference data; filtered by ids, countries include their states. */
  | 'location'
  /** A currency from the reference data; filtered by ids. */
  | 'currency';

export type RecordField = {
  /** The filter parameter and, with `_id` appended for enum/location/currency, the column name. */
  key: string;
  type: FieldType;
  label: Label;
  values?: EnumValue[];
  /** Shown as a facet beside the results (enums; company facets are always shown). */
  facet?: boolean;
};

/** The declared value a filter value names: its uri, or its id (readable paths give the id). */
export function enumValue(values: EnumValue[], value: string): EnumValue | undefined {
  return values.find((e) => e.uri === value || String(e.id) === value);
}

/** The column of a field in its table. */
export function fieldColumn(field: Pick<RecordField, 'key' | 'type'>): string {
  return field.type === 'enum' || field.type === 'location' || field.type === 'currency'
    ? `${field.key}_id`
    : field.key;
}

export function field(key: string, type: Exclude<FieldType, 'enum'>, en: string, de: string, fr: string): RecordField {
  return { key, type, label: { en, de, fr } };
}

/**
 * An enumerated field; values are [id, uri, en, de, fr]. The id is what rows store: once given it
 * is never changed or reused (tests/fixtures/enum-ids.json pins every one), so a value added
 * anywhere in the list takes a new id.
 */
export function enumField(
  key: string,
  label: [string, string, string],
  values: [number, string, string, string, string][],
  facet = true,
): RecordField {
  const ids = new Set(values.map(([id]) => id));
  if (ids.size !== values.length || ![...ids].every((id) => Number.isInteger(id) && id > 0 && id < 32768)) {
    throw new Error(`enum field ${key}: ids must be distinct whole numbers from 1 to 32767 (a smallint column)`);
  }
  return {
    key,
    type: 'enum',
    label: { en: label[0], de: label[1], fr: label[2] },
    values: values.map(([id, uri, en, de, fr]) => ({ id, uri, label: { en, de, fr } })),
    facet,
  };
}
