import { displayName, type Lang, type Reference, type RefList } from '../reference/reference-data.ts';
import { fieldColumn, type Label, type RecordField } from '../sections/record-fields.ts';
import type { CompanyColumn } from '../sections/records.ts';
import type { SectionDecl } from '../sections/section.ts';
import type { CompanyExportSection } from './export-options.ts';
import type {
  CompanyExportData,
  ExportAddress,
  ExportIndustry,
  ExportMember,
  ExportRegister,
} from './read-company-rows.ts';
import type { Cell, CellType, EntityNames, ExportColumn } from './writers.ts';

// The columns of an export, derived from declarations: a record section exports its declared
// fields and its company's columns; a company export is the legal entity's own reading (spec §3
// "Export reading of a legal entity") plus one column per type of each typed part the user chose
// (a date per date type, an identifier per identifier type, …), the types coming from the
// reference data. Nothing here is written per section.

type Spec<T> = { key: string; label: string; type: CellType; value: (row: T) => Cell };

export type ExportLayout<T> = {
  columns: ExportColumn[];
  values: (row: T) => Cell[];
  entity: EntityNames;
};

function layout<T>(specs: Spec<T>[], entity: EntityNames): ExportLayout<T> {
  const value = specs.map((s) => s.value);
  return {
    columns: specs.map(({ key, label, type }) => ({ key, label, type })),
    values: (row) => {
      const cells = new Array<Cell>(value.length);
      for (let i = 0; i < value.length; i++) cells[i] = value[i](row);
      return cells;
    },
    entity,
  };
}

const L = (en: string, de: string, fr: string): Label => ({ en, de, fr });

/** Labels of the company export's own columns and sections, in every language. */
const COMPANY_LABELS = {
  id: L('ID', 'ID', 'ID'),
  uri: L('URI', 'URI', 'URI'),
  name: L('Name', 'Name', 'Nom'),
  status_name: L('Status', 'Status', 'Statut'),
  registry_location_name: L('Jurisdiction', 'Rechtsraum', 'Juridiction'),
  type_by_size_name: L('Size', 'Größe', 'Taille'),
  employees_number: L('Employees', 'Beschäftigte', 'Effectif'),
  statuses: L('Statuses', 'Status (alle)', 'Statuts'),
  addresses: L('Address', 'Adresse', 'Adresse'),
  dates: L('Date', 'Datum', 'Date'),
  names: L('Name', 'Name', 'Nom'),
  legal_name: L('Legal name', 'Firmenname', 'Raison sociale'),
  identifiers: L('Identifier', 'Kennung', 'Identifiant'),
  indicators: L('Indicator', 'Merkmal', 'Indicateur'),
  contacts: L('Contact', 'Kontakt', 'Contact'),
  industries: L('Industries', 'Branchen', 'Secteurs d’activité'),
  primary_industry: L('Primary industry', 'Hauptbranche', 'Secteur principal'),
  products: L('Products and services', 'Produkte und Leistungen', 'Produits et services'),
  registration_authorities: L('Registration authorities', 'Registerbehörden', "Autorités d'enregistrement"),
  tax_authorities: L('Tax authorities', 'Steuerbehörden', 'Autorités fiscales'),
  members_count: L('Members', 'Mitglieder', 'Membres'),
  officers_count: L('Officers', 'Organmitglieder', 'Dirigeants'),
  partners_count: L('Partners', 'Gesellschafter', 'Associés'),
  members: L('Members', 'Beteiligte', 'Membres'),
  member_addresses: L('Members: addresses', 'Beteiligte: Adressen', 'Membres : adresses'),
  member_contacts: L('Members: contacts', 'Beteiligte: Kontakte', 'Membres : contacts'),
  // Spec §3: for members, the section legal_entities is labelled Companies.
  member_companies: L('Companies', 'Unternehmen', 'Entreprises'),
  locality: L('locality', 'Ort', 'localité'),
  post_code: L('post code', 'Postleitzahl', 'code postal'),
  country: L('country', 'Land', 'pays'),
} satisfies Record<string, Label>;

/** Address parts a company export has a column for, besides the full address. */
const ADDRESS_COLUMNS = ['locality', 'post_code', 'country'] as const;

/** The values that are text and not blank, joined by `; `; null when none. */
const itself = <T>(value: T): T => value;

const joined = (values: readonly (string | null | undefined)[] | undefined): Cell =>
  values ? joinedBy(values, itself) : null;

/**
 * `joined` of `text` of each item, without the arrays between (ADR 0041): a cell per column per
 * company, most of them of an empty list, made two arrays each by map and filter.
 */
function joinedBy<T>(items: readonly T[], text: (item: T) => string | null | undefined): Cell {
  let out: string | null = null;
  for (let i = 0; i < items.length; i++) {
    const v = text(items[i]);
    if (typeof v === 'string' && v.trim() !== '') out = out === null ? v : `${out}; ${v}`;
  }
  return out;
}

/**
 * The columns of a company export: spec §3's reading (name, status, jurisdiction, size), the
 * contacts, then every chosen section, one column per reference type where the part is typed.
 */
export function companyExportLayout(
  reference: Reference,
  lang: Lang,
  languageId: number,
  sections: readonly CompanyExportSection[],
): ExportLayout<CompanyExportData> {
  const chosen = new Set(sections);
  const label = (key: keyof typeof COMPANY_LABELS) => COMPANY_LABELS[key][lang];
  const typeName = (list: RefList, id: number) => displayName(list.byId.get(id), languageId);
  /** One column per type of a reference type list: `dates.registration`, "Date: Registration". */
  const perType = (
    list: RefList,
    prefix: string,
    title: string,
    type: CellType,
    value: (row: CompanyExportData, typeId: number) => Cell,
  ): Spec<CompanyExportData>[] =>
    list.items.map((t) => ({
      key: `${prefix}.${t.uri}`,
      label: `${title}: ${typeName(list, t.id)}`,
      type,
      value: (row) => value(row, t.id),
    }));
  const specs: Spec<CompanyExportData>[] = [
    { key: 'id', label: label('id'), type: 'number', value: (r) => r.id },
    { key: 'name', label: label('name'), type: 'text', value: (r) => r.name },
    { key: 'status_name', label: label('status_name'), type: 'text', value: (r) => r.statusName },
    {
      key: 'registry_location_name',
      label: label('registry_location_name'),
      type: 'text',
      value: (r) => r.jurisdictionName,
    },
  ];
  if (chosen.has('types_by_size')) {
    specs.push({
      key: 'type_by_size_name',
      label: label('type_by_size_name'),
      type: 'text',
      value: (r) => r.sizeName,
    });
  }
  if (chosen.has('employees_number')) {
    specs.push({
      key: 'employees_number',
      label: label('employees_number'),
      type: 'text',
      value: (r) => r.employeesName,
    });
  }
  if (chosen.has('statuses')) {
    specs.push({
      key: 'statuses',
      label: label('statuses'),
      type: 'text',
      value: (r) => joined(r.statuses),
    });
  }
  if (chosen.has('names')) {
    specs.push({
      key: 'names.legal',
      label: label('legal_name'),
      type: 'text',
      value: (r) => r.name,
    });
    specs.push(...perType(reference.nameTypes, 'names', label('names'), 'text', (r, id) => joined(r.names.get(id))));
  }
  if (chosen.has('addresses')) {
    for (const t of reference.addressTypes.items) {
      const of = (r: CompanyExportData) => r.addresses.get(t.id);
      const title = `${label('addresses')}: ${typeName(reference.addressTypes, t.id)}`;
      const full = (a: ExportAddress) => a.full;
      specs.push({
        key: `addresses.${t.uri}`,
        label: title,
        type: 'text',
        value: (r) => {
          const list = of(r);
          return list ? joinedBy(list, full) : null;
        },
      });
      for (const part of ADDRESS_COLUMNS) {
        const text = (a: ExportAddress) => a[part];
        specs.push({
          key: `addresses.${t.uri}.${part}`,
          label: `${title}, ${label(part)}`,
          type: 'text',
          value: (r) => {
            const list = of(r);
            return list ? joinedBy(list, text) : null;
          },
        });
      }
    }
  }
  if (chosen.has('dates')) {
    specs.push(...perType(reference.dateTypes, 'dates', label('dates'), 'date', (r, id) => r.dates.get(id) ?? null));
  }
  if (chosen.has('identifiers')) {
    specs.push(
      ...perType(reference.identifierTypes, 'identifiers', label('identifiers'), 'text', (r, id) =>
        joined(r.identifiers.get(id)),
      ),
    );
  }
  // Spec §3: contacts are part of every company's export reading.
  specs.push(
    ...perType(reference.contactTypes, 'contacts', label('contacts'), 'text', (r, id) => joined(r.contacts.get(id))),
  );
  if (chosen.has('indicators')) {
    specs.push(
      ...perType(
        reference.indicatorTypes,
        'indicators',
        label('indicators'),
        'boolean',
        (r, id) => r.indicators.get(id) ?? null,
      ),
    );
  }
  if (chosen.has('specifications')) {
    for (const key of ['members_count', 'officers_count', 'partners_count'] as const) {
      specs.push({
        key: `specifications.${key}`,
        label: label(key),
        type: 'number',
        value: (r) => r.specifications?.[key] ?? null,
      });
    }
  }
  if (chosen.has('industries')) {
    const industry = (i: ExportIndustry) => [i.code, i.name].filter(Boolean).join(' ');
    const primary = (i: ExportIndustry) => (i.primary ? industry(i) : null);
    specs.push(
      {
        key: 'industries.primary',
        label: label('primary_industry'),
        type: 'text',
        value: (r) => joinedBy(r.industries, primary),
      },
      { key: 'industries', label: label('industries'), type: 'text', value: (r) => joinedBy(r.industries, industry) },
    );
  }
  if (chosen.has('products')) {
    specs.push({ key: 'products', label: label('products'), type: 'text', value: (r) => joined(r.products) });
  }
  for (const key of ['registration_authorities', 'tax_authorities'] as const) {
    if (!chosen.has(key)) continue;
    const tax = key === 'tax_authorities';
    const register = (g: ExportRegister) => {
      if (g.tax !== tax) return null;
      const entry = [g.name, g.number].filter(Boolean).join(' ');
      return g.authority ? `${g.authority}${entry ? ` (${entry})` : ''}` : entry;
    };
    specs.push({ key, label: label(key), type: 'text', value: (r) => joinedBy(r.registers, register) });
  }
  if (chosen.has('members')) {
    specs.push(
      {
        key: 'members',
        label: label('members'),
        type: 'text',
        value: (r) => joinedBy(r.members, memberText),
      },
      {
        key: 'members.addresses',
        label: label('member_addresses'),
        type: 'text',
        value: (r) => joinedBy(r.members, memberAddress),
      },
      {
        key: 'members.contacts',
        label: label('member_contacts'),
        type: 'text',
        value: (r) => joinedBy(r.members, memberContacts),
      },
      {
        key: 'members.legal_entities',
        label: label('member_companies'),
        type: 'text',
        value: (r) => joinedBy(r.members, memberCompany),
      },
    );
  }
  return layout(specs, { plural: 'legal_entities', singular: 'legal_entity' });
}

// A member's texts in the company export's member columns.
const memberText = (m: ExportMember) => `${m.name} (${m.position})`;
const memberAddress = (m: ExportMember) => (m.country === null ? null : `${m.name}: ${m.country}`);
const memberContacts = (m: ExportMember) => (m.contacts.length > 0 ? `${m.name}: ${m.contacts.join(', ')}` : null);
const memberCompany = (m: ExportMember) => m.company;

/** Labels of a record's company columns (the search table's company columns, spec §2). */
const RECORD_COMPANY_LABELS: Record<CompanyColumn, Label> = {
  legal_name: L('Company', 'Unternehmen', 'Entreprise'),
  jurisdiction: L('Company jurisdiction', 'Rechtsraum des Unternehmens', "Juridiction de l'entreprise"),
  status: L('Company status', 'Status des Unternehmens', "Statut de l'entreprise"),
  primary_industry: L('Primary industry', 'Hauptbranche', 'Secteur principal'),
  employees: L('Employees', 'Beschäftigte', 'Effectif'),
  size: L('Size', 'Größe', 'Taille'),
};

/** Every company column of a record export, whatever the section shows in its table. */
const RECORD_COMPANY_COLUMNS: CompanyColumn[] = [
  'legal_name',
  'jurisdiction',
  'status',
  'primary_industry',
  'employees',
  'size',
];

const CELL_TYPES: Record<RecordField['type'], CellType> = {
  text: 'text',
  code: 'text',
  date: 'date',
  amount: 'number',
  number: 'number',
  year: 'number',
  enum: 'text',
  location: 'text',
  currency: 'text',
};

/** XML element names of a section's records: `vessels` / `vessel`. */
export function recordEntityNames(sectionId: string): EntityNames {
  const plural = sectionId.replace(/-/g, '_');
  const irregular: Record<string, string> = {
    real_estate: 'property',
    mergers_and_acquisitions: 'merger_or_acquisition',
    taxes: 'tax',
    aircraft: 'aircraft',
  };
  const singular =
    irregular[plural] ??
    (plural.endsWith('ies')
      ? `${plural.slice(0, -3)}y`
      : plural.endsWith('s')
        ? plural.slice(0, -1)
        : `${plural}_item`);
  return { plural, singular };
}

type RecordValues = Record<string, string | number | null>;

/** A record section's export: the record id, every declared field, then its company's columns. */
export function recordExportLayout(
  section: SectionDecl,
  reference: Reference,
  lang: Lang,
  languageId: number,
): ExportLayout<RecordValues> {
  const record = section.record;
  if (!record) throw new Error(`${section.id} is not a record section`);
  const refName = (list: RefList, id: unknown) =>
    typeof id === 'number' ? displayName(list.byId.get(id), languageId) : null;
  const fieldSpec = (field: RecordField): Spec<RecordValues> => {
    const column = fieldColumn(field);
    const value = (row: RecordValues): Cell => {
      const v = row[column] ?? null;
      if (v === null) return null;
      switch (field.type) {
        case 'enum':
          return field.values?.find((x) => x.id === Number(v))?.label[lang] ?? String(v);
        case 'location':
          return refName(reference.locations, Number(v));
        case 'currency':
          return refName(reference.currencies, Number(v));
        case 'amount':
        case 'number':
        case 'year':
          return typeof v === 'number' ? v : Number(v);
        default:
          return String(v);
      }
    };
    return { key: field.key, label: field.label[lang], type: CELL_TYPES[field.type], value };
  };
  const companyValue: Record<CompanyColumn, (row: RecordValues) => Cell> = {
    legal_name: (row) => (row.company_name as string | null) ?? null,
    jurisdiction: (row) => refName(reference.locations, row.company_jurisdiction_id),
    status: (row) => refName(reference.statuses, row.company_status_id),
    primary_industry: (row) => refName(reference.industries, row.company_industry_id),
    employees: (row) => refName(reference.employees, row.company_employees_id),
    size: (row) => refName(reference.sizes, row.company_size_id),
  };
  const specs: Spec<RecordValues>[] = [
    { key: 'id', label: 'ID', type: 'number', value: (row) => row.id },
    ...record.fields.map(fieldSpec),
    ...RECORD_COMPANY_COLUMNS.map(
      (c): Spec<RecordValues> => ({
        key: `company_${c}`,
        label: RECORD_COMPANY_LABELS[c][lang],
        type: 'text',
        value: companyValue[c],
      }),
    ),
  ];
  return layout(specs, recordEntityNames(section.id));
}
