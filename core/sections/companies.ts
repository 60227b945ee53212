import { ADDRESS_PARTS, type FilterDecl, type SectionDecl } from './section.ts';

/**
 * The filters on a company's typed parts: dates, identifiers, contacts, addresses, indicators and
 * names. Record sections offer them too, prefixed (`company_dates[registration]:from`), applied
 * to the company each record belongs to.
 */
export function companyTypedFilters(prefix: string): FilterDecl[] {
  const dates: FilterDecl = {
    field: `${prefix}dates`,
    label: 'filters.dates',
    group: 'dates',
    kind: 'typed_date_range',
    types: 'dateTypes',
    table: 'legal_entity_dates',
    typeColumn: 'date_type_id',
    valueColumn: 'date',
  };
  return [
    prefix === ''
      ? // The sort key (never null; unknown dates are 0001-01-01) serves range, sort and keyset at once.
        { ...dates, direct: { registration: { column: 'registration_sort', unknown: '0001-01-01' } } }
      : dates,
    {
      field: `${prefix}identifiers`,
      label: 'filters.identifiers',
      group: 'identifiers',
      kind: 'typed_text',
      types: 'identifierTypes',
      table: 'legal_entity_identifiers',
      typeColumn: 'identifier_type_id',
      valueColumn: 'identifier',
    },
    {
      field: `${prefix}contacts`,
      label: 'filters.contacts',
      group: 'contacts',
      kind: 'typed_availability',
      types: 'contactTypes',
      table: 'legal_entity_contacts',
      typeColumn: 'contact_type_id',
    },
    {
      field: `${prefix}addresses`,
      label: 'filters.addresses',
      group: 'addresses',
      kind: 'typed_parts',
      types: 'addressTypes',
      table: 'legal_entity_addresses',
      typeColumn: 'address_type_id',
      parts: ADDRESS_PARTS,
    },
    {
      field: `${prefix}indicators`,
      label: 'filters.indicators',
      group: 'indicators',
      kind: 'typed_boolean',
      types: 'indicatorTypes',
      table: 'legal_entity_indicators',
      typeColumn: 'indicator_type_id',
      valueColumn: 'value',
    },
    {
      field: `${prefix}names`,
      label: 'filters.names',
      group: 'names',
      kind: 'typed_text',
      types: 'nameTypes',
      table: 'legal_entity_names',
      typeColumn: 'name_type_id',
      valueColumn: 'name',
    },
  ];
}

export const companiesSection: SectionDecl = {
  id: 'companies',
  title: 'sections.companies',
  baseTable: 'legal_entities',
  companyKey: 'id',
  facets: ['jurisdiction', 'industry', 'status', 'size'],
  pageSize: 20,
  filters: [
    {
      field: 'jurisdiction',
      label: 'filters.jurisdiction',
      group: 'company',
      kind: 'reference',
      ref: 'locations',
      valueKey: 'id',
      column: 'jurisdiction_id',
      // A country takes in its states (US, Canada, Switzerland, UAE register companies by state).
      hierarchical: true,
    },
    {
      field: 'industry',
      label: 'filters.industry',
      group: 'company',
      kind: 'reference',
      ref: 'industries',
      valueKey: 'id',
      column: 'primary_industry_id',
      hierarchical: true,
    },
    {
      field: 'status',
      label: 'filters.status',
      group: 'company',
      kind: 'reference',
      ref: 'statuses',
      valueKey: 'id',
      column: 'status_id',
    },
    {
      field: 'size',
      label: 'filters.size',
      group: 'company',
      kind: 'reference',
      ref: 'sizes',
      valueKey: 'uri',
      column: 'size_id',
    },
    {
      field: 'employees',
      label: 'filters.employees',
      group: 'company',
      kind: 'reference',
      ref: 'employees',
      valueKey: 'uri',
      column: 'employees_id',
    },
    {
      field: 'kind',
      label: 'filters.kind',
      group: 'company',
      kind: 'reference',
      ref: 'kinds',
      valueKey: 'id',
      column: 'kind_id',
    },
    {
      // In the group of a company: all its subsidiaries, any depth (ADR 0038).
      field: 'group_of',
      label: 'filters.group_of',
      group: 'company',
      kind: 'ids',
      column: 'id',
      via: 'ownership_group',
    },
    {
      // The country of the company's ultimate parent, the top of its chain (ADR 0038).
      field: 'ultimate_parent_in',
      label: 'filters.ultimate_parent_in',
      group: 'company',
      kind: 'reference',
      ref: 'locations',
      valueKey: 'id',
      column: 'ultimate_country',
      via: 'ultimate_parent',
    },
    ...companyTypedFilters(''),
  ],
  sorts: [
    {
      key: 'registration_date_desc',
      label: 'sort.registration_date_desc',
      column: 'registration_date',
      by: [
        { column: 'registration_sort', direction: 'desc' },
        { column: 'id', direction: 'desc' },
      ],
    },
    {
      key: 'registration_date_asc',
      label: 'sort.registration_date_asc',
      column: 'registration_date',
      by: [
        { column: 'registration_sort', direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ],
    },
    {
      key: 'name_asc',
      label: 'sort.name_asc',
      column: 'legal_name',
      by: [
        { column: 'search_name', direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ],
    },
    {
      key: 'name_desc',
      label: 'sort.name_desc',
      column: 'legal_name',
      by: [
        { column: 'search_name', direction: 'desc' },
        { column: 'id', direction: 'desc' },
      ],
    },
  ],
  defaultSort: 'registration_date_desc',
  columns: [
    { key: 'legal_name', label: 'columns.legal_name', linksToProfile: true },
    { key: 'company_number', label: 'columns.company_number' },
    { key: 'status', label: 'columns.status' },
    { key: 'jurisdiction', label: 'columns.jurisdiction' },
    { key: 'registration_date', label: 'columns.registration_date' },
    { key: 'primary_industry', label: 'columns.primary_industry', linksToProfile: true },
    { key: 'size', label: 'columns.size', linksToProfile: true },
  ],
  pathFilters: [
    { prefix: 'jurisdiction', field: 'jurisdiction', form: 'uri-id' },
    { prefix: 'industry', field: 'industry', form: 'uri-id' },
    { prefix: 'size', field: 'size', form: 'uri' },
    { prefix: 'employees', field: 'employees', form: 'uri' },
    { prefix: 'kind', field: 'kind', form: 'uri-id' },
  ],
};
