// The one list of field names an import writes changes and provenance under (company_changes.field,
// company_provenance.field; docs/decisions/0014-importers.md). The History tab, monitoring reports
// and the change feed label them from here. Beside them, the fields of a company's records
// (`records.<table>`, one per record section: core/records/record-writes.ts,
// docs/decisions/0027-monitored-records.md), labelled by their section's title.

import { RECORD_SECTIONS } from '../sections/records.ts';

type Label = { en: string; de: string; fr: string };

export const IMPORT_FIELDS = {
  company: { en: 'Company', de: 'Unternehmen', fr: 'Entreprise' },
  merged: { en: 'Merged company', de: 'Zusammengeführtes Unternehmen', fr: 'Entreprise fusionnée' },
  name: { en: 'Legal name', de: 'Firmenname', fr: 'Raison sociale' },
  other_names: { en: 'Other names', de: 'Weitere Namen', fr: 'Autres noms' },
  'addresses.legal': { en: 'Legal address', de: 'Rechtliche Anschrift', fr: 'Adresse légale' },
  'addresses.headquarters': { en: 'Headquarters address', de: 'Anschrift des Hauptsitzes', fr: 'Adresse du siège' },
  'addresses.postal': { en: 'Postal address', de: 'Postanschrift', fr: 'Adresse postale' },
  jurisdiction: { en: 'Jurisdiction', de: 'Rechtsordnung', fr: 'Juridiction' },
  legal_form: { en: 'Legal form', de: 'Rechtsform', fr: 'Forme juridique' },
  status: { en: 'Status', de: 'Status', fr: 'Statut' },
  registered_on: { en: 'Registration date', de: 'Eintragungsdatum', fr: "Date d'immatriculation" },
  dissolved_on: { en: 'Dissolution date', de: 'Auflösungsdatum', fr: 'Date de dissolution' },
  'dates.accounts': { en: 'Accounts due', de: 'Jahresabschluss fällig', fr: 'Comptes annuels dus' },
  'dates.annual_report': {
    en: 'Confirmation statement due',
    de: 'Jahresmeldung fällig',
    fr: 'Déclaration annuelle due',
  },
  'identifiers.company_number': { en: 'Company number', de: 'Registernummer', fr: "Numéro d'immatriculation" },
  'identifiers.lei': { en: 'LEI', de: 'LEI', fr: 'LEI' },
  'identifiers.tax_number': { en: 'Tax number', de: 'Steuernummer', fr: 'Numéro fiscal' },
  'identifiers.vat': { en: 'VAT number', de: 'USt-IdNr.', fr: 'Numéro de TVA' },
  'identifiers.business_number': { en: 'Business number', de: 'Unternehmensnummer', fr: "Numéro d'entreprise" },
  registration_authority: { en: 'Registration authority', de: 'Registerbehörde', fr: "Autorité d'enregistrement" },
  lei_registration: { en: 'LEI registration', de: 'LEI-Registrierung', fr: 'Enregistrement LEI' },
  industries: { en: 'Industries', de: 'Branchen', fr: 'Secteurs' },
  members: { en: 'Members', de: 'Beteiligte', fr: 'Membres' },
  documents: { en: 'Documents', de: 'Dokumente', fr: 'Documents' },
  tickers: { en: 'Tickers', de: 'Börsenkürzel', fr: 'Symboles boursiers' },
  employees: { en: 'Employees', de: 'Mitarbeitende', fr: 'Effectif' },
  reporting_exceptions: {
    en: 'Parent reporting exceptions',
    de: 'Ausnahmen bei der Meldung der Muttergesellschaft',
    fr: 'Exceptions de déclaration de la société mère',
  },
} as const satisfies Record<string, Label>;

export type ImportField = keyof typeof IMPORT_FIELDS;

export const IMPORT_FIELD_NAMES = Object.keys(IMPORT_FIELDS) as ImportField[];

export function isImportField(value: string): value is ImportField {
  return Object.hasOwn(IMPORT_FIELDS, value);
}

/** The change field of a record section's records: `records.trademarks`. */
export type RecordField = `records.${string}`;

/** The record sections' change fields (`records.<table>`), labelled by the section's title. */
export const RECORD_FIELDS: ReadonlyMap<RecordField, Label> = new Map(
  RECORD_SECTIONS.map((s) => [`records.${s.table}` as RecordField, s.title]),
);

export const RECORD_FIELD_NAMES = [...RECORD_FIELDS.keys()];

export function isRecordField(value: string): value is RecordField {
  return RECORD_FIELDS.has(value as RecordField);
}

/** Every field a change can be recorded under (company_changes.field), 'company' aside: import fields and record fields. */
export const CHANGE_FIELD_NAMES: string[] = [...IMPORT_FIELD_NAMES, ...RECORD_FIELD_NAMES];

export function isChangeField(value: string): boolean {
  return isImportField(value) || isRecordField(value);
}

/** A field's label in a language (English when the language has none): an import field's or a record section's. */
export function importFieldLabel(field: string, language: string): string {
  const label: Label | undefined = isImportField(field)
    ? IMPORT_FIELDS[field]
    : RECORD_FIELDS.get(field as RecordField);
  if (!label) return field;
  return language === 'de' || language === 'fr' ? label[language] : label.en;
}
