// All 22 search sections. Companies are declared directly (companies.ts); each related-record
// section is derived from its record declaration (records.ts) by the rules below, so that the
// grammar, SQL, pages, facets and API treat every section alike.

import { companiesSection, companyTypedFilters } from './companies.ts';
import { fieldColumn, type Label, type RecordField } from './record-fields.ts';
import { COMPANY_COLUMNS, type CompanyColumn, RECORD_SECTIONS, type RecordSectionDecl } from './records.ts';
import type { ColumnDecl, FilterDecl, SectionDecl, SortDecl } from './section.ts';

/**
 * Company columns of record tables: keys prefixed so they never collide with the record's own.
 * Their labels name the company only beside a record's own name or jurisdiction (spec §2:
 * Connections show "Company legal name", Contacts plain "Legal name" and "Jurisdiction").
 */
const COMPANY_COLUMN_DECLS: Record<CompanyColumn, ColumnDecl> = {
  legal_name: { key: 'company_legal_name', label: 'columns.legal_name', linksToProfile: true },
  jurisdiction: { key: 'company_jurisdiction', label: 'columns.jurisdiction' },
  status: { key: 'company_status', label: 'columns.status' },
  primary_industry: { key: 'company_primary_industry', label: 'columns.primary_industry', linksToProfile: true },
  employees: { key: 'company_employees', label: 'columns.employees', linksToProfile: true },
  size: { key: 'company_size', label: 'columns.size', linksToProfile: true },
};
const COMPANY_NAMED_LABELS: Partial<Record<CompanyColumn, string>> = {
  legal_name: 'columns.company_legal_name',
  jurisdiction: 'columns.company_jurisdiction',
};

function companyColumnDecl(record: RecordSectionDecl, column: CompanyColumn): ColumnDecl {
  const decl = COMPANY_COLUMN_DECLS[column];
  const ownNameOrPlace = record.columns.some((key) => key === 'name' || key === 'jurisdiction');
  const label = ownNameOrPlace ? COMPANY_NAMED_LABELS[column] : undefined;
  return label ? { ...decl, label } : decl;
}

function fieldFilter(field: RecordField): FilterDecl {
  const base = { field: field.key, label: field.label, group: 'record' as const };
  const column = fieldColumn(field);
  switch (field.type) {
    case 'text':
    case 'code':
      return { ...base, kind: 'text', column };
    case 'date':
    case 'amount':
    case 'number':
    case 'year':
      return { ...base, kind: 'range', column, valueType: field.type };
    case 'enum':
      return { ...base, kind: 'enum', column, values: field.values ?? [] };
    case 'location':
      return { ...base, kind: 'reference', ref: 'locations', valueKey: 'id', column, hierarchical: true };
    case 'currency':
      return { ...base, kind: 'reference', ref: 'currencies', valueKey: 'id', column };
  }
}

/** Filters on the company a record belongs to: its copied reference columns, then its typed parts. */
function companyFilters(): FilterDecl[] {
  const group = 'company' as const;
  return [
    { field: 'company', label: 'filters.company', group, kind: 'ids', column: 'legal_entity_id' },
    {
      field: 'company_jurisdiction',
      label: 'filters.company_jurisdiction',
      group,
      kind: 'reference',
      ref: 'locations',
      valueKey: 'id',
      column: COMPANY_COLUMNS.jurisdiction,
      hierarchical: true,
    },
    {
      field: 'company_industry',
      label: 'filters.industry',
      group,
      kind: 'reference',
      ref: 'industries',
      valueKey: 'id',
      column: COMPANY_COLUMNS.industry,
      hierarchical: true,
    },
    {
      field: 'company_status',
      label: 'filters.company_status',
      group,
      kind: 'reference',
      ref: 'statuses',
      valueKey: 'id',
      column: COMPANY_COLUMNS.status,
    },
    {
      field: 'company_size',
      label: 'filters.size',
      group,
      kind: 'reference',
      ref: 'sizes',
      valueKey: 'uri',
      column: COMPANY_COLUMNS.size,
    },
    {
      field: 'company_employees',
      label: 'filters.employees',
      group,
      kind: 'reference',
      ref: 'employees',
      valueKey: 'uri',
      column: COMPANY_COLUMNS.employees,
    },
    {
      field: 'company_kind',
      label: 'filters.kind',
      group,
      kind: 'reference',
      ref: 'kinds',
      valueKey: 'id',
      column: 'kind_id',
      via: 'company',
    },
    ...companyTypedFilters('company_'),
  ];
}

function sortLabel(label: Label, newest: boolean): Label {
  return newest
    ? { en: `${label.en}, newest first`, de: `${label.de}, neueste zuerst`, fr: `${label.fr}, plus récents d'abord` }
    : { en: `${label.en}, oldest first`, de: `${label.de}, älteste zuerst`, fr: `${label.fr}, plus anciens d'abord` };
}

export function recordSectionDecl(record: RecordSectionDecl): SectionDecl {
  const fieldOf = (key: string): RecordField => {
    const found = record.fields.find((f) => f.key === key);
    if (!found) throw new Error(`${record.id}: no field ${key}`);
    return found;
  };
  const sortField = fieldOf(record.sortField);
  const sortColumn = fieldColumn(sortField);
  const sorts: SortDecl[] = (['desc', 'asc'] as const).map((direction) => ({
    key: `${sortField.key}_${direction}`,
    label: sortLabel(sortField.label, direction === 'desc'),
    // The header of the sort field's column sorts by it, when the field is a column.
    ...(record.columns.includes(sortField.key) ? { column: sortField.key } : {}),
    by: [
      { column: sortColumn, direction },
      { column: 'id', direction },
    ],
  }));
  const choice: FilterDecl[] = record.columnChoice
    ? [
        {
          field: record.columnChoice.field,
          label: 'filters.contact_type',
          group: 'record',
          kind: 'column_choice',
          columns: record.columnChoice.columns,
        },
      ]
    : [];
  return {
    id: record.id,
    title: record.title,
    baseTable: record.table,
    companyKey: 'legal_entity_id',
    filters: [
      { field: 'id', label: 'filters.record_id', group: 'record', kind: 'ids', column: 'id' },
      ...choice,
      ...record.fields.map(fieldFilter),
      ...companyFilters(),
    ],
    facets: [
      'company_jurisdiction',
      'company_industry',
      'company_status',
      'company_size',
      ...record.fields.filter((f) => f.type === 'enum' && f.facet).map((f) => f.key),
    ],
    sorts,
    defaultSort: sorts[0].key,
    columns: [
      ...record.columns.map((key) => ({ key, label: fieldOf(key).label })),
      ...record.companyColumns.map((c) => companyColumnDecl(record, c)),
    ],
    pathFilters: record.pathFilters ?? [],
    pageSize: 20,
    record,
  };
}

export const SECTIONS: SectionDecl[] = [companiesSection, ...RECORD_SECTIONS.map(recordSectionDecl)];

const byId = new Map(SECTIONS.map((s) => [s.id, s]));

export function sectionById(id: string): SectionDecl | undefined {
  return byId.get(id);
}
