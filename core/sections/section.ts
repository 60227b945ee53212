import type { PathFilter } from '../filters/grammar.ts';
import type { EnumValue, Label } from './record-fields.ts';
import type { RecordSectionDecl } from './records.ts';

// A search section is declared once, as data: its filters, sort keys, columns and path filters.
// The URL grammar, validation, SQL, filter panel and result table derive from it.

/** Reference lists a filter can draw its values from (keys of Reference). */
export type RefName = 'locations' | 'industries' | 'statuses' | 'sizes' | 'employees' | 'kinds' | 'currencies';

/** Type lists of typed sub-filters (keys of Reference). */
export type TypeListName =
  | 'dateTypes'
  | 'identifierTypes'
  | 'indicatorTypes'
  | 'contactTypes'
  | 'addressTypes'
  | 'nameTypes';

/** An i18n key, or the label in every language (record sections declare theirs inline). */
export type LabelRef = string | Label;

/** Parts of an address that `addresses[type][part]` filters on (columns of legal_entity_addresses). */
export const ADDRESS_PARTS = [
  'address_line_1',
  'address_line_2',
  'block',
  'building',
  'city_district',
  'county',
  'floor',
  'house',
  'locality',
  'post_code',
  'room',
  'state',
  'street',
] as const;

export type FilterDecl = {
  /** The query parameter name. */
  field: string;
  label: LabelRef;
  /** Group in the filter panel and the advanced-search parameter list. */
  group: 'record' | 'company' | 'dates' | 'identifiers' | 'contacts' | 'indicators' | 'addresses' | 'names';
} & (
  | {
      /** A list of reference values (OR); ids or uris. */
      kind: 'reference';
      ref: RefName;
      valueKey: 'id' | 'uri';
      column: string;
      /** Selecting a parent also selects its descendants (industries). */
      hierarchical?: boolean;
      /** Which reference items the panel offers (e.g. only countries and states with companies). */
      panel?: 'select' | 'none';
      /**
       * The column belongs to the company row (`legal_entities c`), reached from the base row; or
       * the values are countries of the company's ultimate parent (the ownership tree, ADR 0038).
       */
      via?: 'company' | 'ultimate_parent';
    }
  | {
      /** Typed date ranges: dates[registration]:from=2020. */
      kind: 'typed_date_range';
      types: TypeListName;
      table: string;
      typeColumn: string;
      valueColumn: string;
      /** Types stored as a column of the base table (faster), e.g. registration → registered_on. */
      direct?: Record<
        string,
        { column: string /** The value the column holds when the date is unknown. */; unknown: string }
      >;
    }
  | {
      /** Typed exact text: identifiers[vat]=DE123 (values OR). */
      kind: 'typed_text';
      types: TypeListName;
      table: string;
      typeColumn: string;
      valueColumn: string;
    }
  | {
      /** Typed availability: contacts[website]:is_known= */
      kind: 'typed_availability';
      types: TypeListName;
      table: string;
      typeColumn: string;
    }
  | {
      /** Parts of typed addresses: addresses[registered][locality]=Berlin (case-insensitive, values OR). */
      kind: 'typed_parts';
      types: TypeListName;
      table: string;
      typeColumn: string;
      parts: readonly string[];
    }
  | {
      /** Typed yes/no values: indicators[bankrupt]=true. */
      kind: 'typed_boolean';
      types: TypeListName;
      table: string;
      typeColumn: string;
      valueColumn: string;
    }
  | {
      /** Exact text of a base-table column (case-insensitive), values OR; or its availability. */
      kind: 'text';
      column: string;
    }
  | {
      /** A range of a base-table column: field:from / field:to, or its availability. */
      kind: 'range';
      column: string;
      valueType: 'date' | 'amount' | 'number' | 'year';
    }
  | {
      /** Declared values stored as ids in a base-table column; given by uri or id, values OR. */
      kind: 'enum';
      column: string;
      values: EnumValue[];
    }
  | {
      /** Row ids of a base-table column (e.g. the company of a record: company=123|456). */
      kind: 'ids';
      column: string;
      /** The ids are companies whose subsidiaries (any depth) the row's company is (ADR 0038). */
      via?: 'ownership_group';
    }
  | {
      /** Values that name columns: type=email keeps rows whose email column is filled. */
      kind: 'column_choice';
      columns: Record<string, string>;
    }
);

export type SortDecl = {
  key: string;
  label: LabelRef;
  /** The column (a ColumnDecl key) whose header sorts this way (ADR 0022); none for other orders. */
  column?: string;
  /** Base-table columns, in order, with direction; the last one must be unique (keyset). */
  by: { column: string; direction: 'asc' | 'desc' }[];
};

export type ColumnDecl = {
  key: string;
  label: LabelRef;
  /** Spec §2: these columns link to the company profile. */
  linksToProfile?: boolean;
};

export type SectionDecl = {
  /** URL segment: /{id}/search/ */
  id: string;
  /** i18n key of the section's title, or the title in every language. */
  title: LabelRef;
  baseTable: string;
  /** The column of the base table that holds the company id ('id' for companies). */
  companyKey: 'id' | 'legal_entity_id';
  /** Filter fields shown as facets (counts per value beside the results). */
  facets: string[];
  /** The record declaration a related-record section is derived from. */
  record?: RecordSectionDecl;
  filters: FilterDecl[];
  sorts: SortDecl[];
  defaultSort: string;
  columns: ColumnDecl[];
  pathFilters: PathFilter[];
  pageSize: number;
};
