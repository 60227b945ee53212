import type { PathFilter } from '../filters/grammar.ts';

// A search section is declared once, as data: its filters, sort keys, columns and path filters.
// The URL grammar, validation, SQL, filter panel and result table derive from it.

/** Reference lists a filter can draw its values from (keys of Reference). */
export type RefName = 'locations' | 'industries' | 'statuses' | 'sizes' | 'employees' | 'kinds';

/** Type lists of typed sub-filters (keys of Reference). */
export type TypeListName = 'dateTypes' | 'identifierTypes' | 'indicatorTypes' | 'contactTypes';

export type FilterDecl = {
  /** The query parameter name. */
  field: string;
  /** i18n key of its label. */
  label: string;
  /** Group in the filter panel. */
  group: 'company' | 'dates' | 'identifiers' | 'contacts' | 'indicators';
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
);

export type SortDecl = {
  key: string;
  label: string;
  /** Base-table columns, in order, with direction; the last one must be unique (keyset). */
  by: { column: string; direction: 'asc' | 'desc' }[];
};

export type ColumnDecl = {
  key: string;
  label: string;
  /** Spec §2: these columns link to the company profile. */
  linksToProfile?: boolean;
};

export type SectionDecl = {
  /** URL segment: /{id}/search/ */
  id: string;
  /** i18n key of the section's title. */
  title: string;
  baseTable: string;
  filters: FilterDecl[];
  sorts: SortDecl[];
  defaultSort: string;
  columns: ColumnDecl[];
  pathFilters: PathFilter[];
  pageSize: number;
};
