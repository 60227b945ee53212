// The small reference enumerations: fixed ids (other code and the spec rely on them), uris, and
// names in English, German and French. Loaded into their tables and `translations` by loadReferenceData.

export type Enumeration = {
  table:
    | 'legal_entity_kinds'
    | 'sizes'
    | 'statuses'
    | 'name_types'
    | 'address_types'
    | 'date_types'
    | 'identifier_types'
    | 'indicator_types'
    | 'contact_types'
    | 'positions'
    | 'location_types';
  /** The `entity` value of its rows in `translations`. */
  entity: string;
  rows: { id: number; uri: string; en: string; de: string; fr: string }[];
};

export const ENUMERATIONS: Enumeration[] = [
  {
    table: 'location_types',
    entity: 'location_type',
    rows: [
      { id: 1, uri: 'country', en: 'Country', de: 'Land', fr: 'Pays' },
      { id: 2, uri: 'subdivision', en: 'State or region', de: 'Bundesstaat oder Region', fr: 'État ou région' },
    ],
  },
  {
    table: 'statuses',
    entity: 'status',
    rows: [
      { id: 1, uri: 'active', en: 'Active', de: 'Aktiv', fr: 'Active' },
      { id: 2, uri: 'inactive', en: 'Inactive', de: 'Inaktiv', fr: 'Inactive' },
      { id: 3, uri: 'dissolved', en: 'Dissolved', de: 'Aufgelöst', fr: 'Dissoute' },
      { id: 4, uri: 'in-liquidation', en: 'In liquidation', de: 'In Liquidation', fr: 'En liquidation' },
      { id: 5, uri: 'bankrupt', en: 'Bankrupt', de: 'Insolvent', fr: 'En faillite' },
      { id: 6, uri: 'dormant', en: 'Dormant', de: 'Ruhend', fr: 'En sommeil' },
      { id: 7, uri: 'struck-off', en: 'Struck off', de: 'Gelöscht', fr: 'Radiée' },
      { id: 8, uri: 'merged', en: 'Merged', de: 'Verschmolzen', fr: 'Fusionnée' },
    ],
  },
  {
    table: 'sizes',
    entity: 'size',
    rows: [
      { id: 1, uri: 'micro', en: 'Micro', de: 'Kleinst', fr: 'Micro' },
      { id: 2, uri: 'small', en: 'Small', de: 'Klein', fr: 'Petite' },
      { id: 3, uri: 'medium', en: 'Medium', de: 'Mittel', fr: 'Moyenne' },
      { id: 4, uri: 'large', en: 'Large', de: 'Groß', fr: 'Grande' },
    ],
  },
  {
    table: 'legal_entity_kinds',
    entity: 'legal_entity_kind',
    rows: [
      { id: 1, uri: 'corporation', en: 'Corporation', de: 'Kapitalgesellschaft', fr: 'Société de capitaux' },
      {
        id: 2,
        uri: 'limited-liability-company',
        en: 'Limited liability company',
        de: 'Gesellschaft mit beschränkter Haftung',
        fr: 'Société à responsabilité limitée',
      },
      { id: 3, uri: 'partnership', en: 'Partnership', de: 'Personengesellschaft', fr: 'Société de personnes' },
      {
        id: 4,
        uri: 'sole-proprietorship',
        en: 'Sole proprietorship',
        de: 'Einzelunternehmen',
        fr: 'Entreprise individuelle',
      },
      {
        id: 5,
        uri: 'non-profit',
        en: 'Non-profit organisation',
        de: 'Gemeinnützige Organisation',
        fr: 'Organisation à but non lucratif',
      },
      { id: 6, uri: 'cooperative', en: 'Cooperative', de: 'Genossenschaft', fr: 'Coopérative' },
      { id: 7, uri: 'branch', en: 'Branch', de: 'Zweigniederlassung', fr: 'Succursale' },
      { id: 8, uri: 'public-company', en: 'Public company', de: 'Aktiengesellschaft', fr: 'Société anonyme' },
    ],
  },
  {
    table: 'name_types',
    entity: 'name_type',
    rows: [
      {
        id: 1,
        uri: 'legal_name_full',
        en: 'Legal name (full)',
        de: 'Firmenname (vollständig)',
        fr: 'Dénomination (complète)',
      },
      { id: 2, uri: 'mixed', en: 'Mixed', de: 'Gemischt', fr: 'Mixte' },
      { id: 3, uri: 'short', en: 'Short name', de: 'Kurzname', fr: 'Nom court' },
      { id: 4, uri: 'clean', en: 'Clean name', de: 'Bereinigter Name', fr: 'Nom épuré' },
      { id: 5, uri: 'trade_name', en: 'Trade name', de: 'Handelsname', fr: 'Nom commercial' },
      { id: 6, uri: 'previous_name', en: 'Previous name', de: 'Früherer Name', fr: 'Ancien nom' },
      { id: 7, uri: 'transliterated', en: 'Transliterated name', de: 'Transliterierter Name', fr: 'Nom translittéré' },
      {
        id: 8,
        uri: 'other_language',
        en: 'Name in another language',
        de: 'Name in anderer Sprache',
        fr: 'Nom dans une autre langue',
      },
    ],
  },
  {
    table: 'address_types',
    entity: 'address_type',
    rows: [
      { id: 1, uri: 'headquarter', en: 'Headquarters', de: 'Hauptsitz', fr: 'Siège' },
      { id: 2, uri: 'physical', en: 'Physical', de: 'Geschäftsanschrift', fr: 'Adresse physique' },
      { id: 3, uri: 'postal', en: 'Postal', de: 'Postanschrift', fr: 'Adresse postale' },
      { id: 4, uri: 'principal_activity', en: 'Principal activity', de: 'Haupttätigkeit', fr: 'Activité principale' },
      { id: 5, uri: 'registered', en: 'Registered', de: 'Eingetragener Sitz', fr: 'Siège social' },
      { id: 6, uri: 'parent_company', en: 'Parent company', de: 'Muttergesellschaft', fr: 'Société mère' },
    ],
  },
  {
    table: 'date_types',
    entity: 'date_type',
    rows: [
      { id: 1, uri: 'registration', en: 'Registration', de: 'Eintragung', fr: 'Immatriculation' },
      { id: 2, uri: 'cancellation', en: 'Cancellation', de: 'Löschung', fr: 'Annulation' },
      { id: 3, uri: 'conversion', en: 'Conversion', de: 'Umwandlung', fr: 'Transformation' },
      { id: 4, uri: 'dissolution', en: 'Dissolution', de: 'Auflösung', fr: 'Dissolution' },
      { id: 5, uri: 'effective', en: 'Effective', de: 'Wirksam ab', fr: "Date d'effet" },
      { id: 6, uri: 'expiration', en: 'Expiration', de: 'Ablauf', fr: 'Expiration' },
      { id: 7, uri: 'termination', en: 'Termination', de: 'Beendigung', fr: 'Cessation' },
      { id: 8, uri: 'accounts', en: 'Accounts', de: 'Jahresabschluss', fr: 'Comptes annuels' },
      { id: 9, uri: 'annual_report', en: 'Annual report', de: 'Jahresbericht', fr: 'Rapport annuel' },
    ],
  },
  {
    table: 'identifier_types',
    entity: 'identifier_type',
    rows: [
      { id: 1, uri: 'business_number', en: 'Business number', de: 'Unternehmensnummer', fr: "Numéro d'entreprise" },
      { id: 2, uri: 'company_number', en: 'Company number', de: 'Registernummer', fr: "Numéro d'immatriculation" },
      { id: 3, uri: 'tax_number', en: 'Tax number', de: 'Steuernummer', fr: 'Numéro fiscal' },
      { id: 4, uri: 'vat', en: 'VAT number', de: 'USt-IdNr.', fr: 'Numéro de TVA' },
      { id: 5, uri: 'lei', en: 'LEI', de: 'LEI', fr: 'LEI' },
    ],
  },
  {
    table: 'indicator_types',
    entity: 'indicator_type',
    rows: [
      { id: 1, uri: 'bankrupt', en: 'Bankrupt', de: 'Insolvent', fr: 'En faillite' },
      { id: 2, uri: 'vat_payer', en: 'VAT payer', de: 'Umsatzsteuerpflichtig', fr: 'Assujetti à la TVA' },
      { id: 3, uri: 'woman_owned', en: 'Owned by a woman', de: 'In Frauenbesitz', fr: 'Détenue par une femme' },
      {
        id: 4,
        uri: 'minority_owned',
        en: 'Minority-owned',
        de: 'Im Besitz einer Minderheit',
        fr: 'Détenue par une minorité',
      },
      {
        id: 5,
        uri: 'veteran_owned',
        en: 'Veteran-owned',
        de: 'Im Besitz von Veteranen',
        fr: "Détenue par d'anciens combattants",
      },
      {
        id: 6,
        uri: 'lgbtqi_owned',
        en: 'LGBTQI-owned',
        de: 'Im LGBTQI-Besitz',
        fr: 'Détenue par des personnes LGBTQI',
      },
      {
        id: 7,
        uri: 'disability_owned',
        en: 'Owned by people with disabilities',
        de: 'Im Besitz von Menschen mit Behinderung',
        fr: 'Détenue par des personnes handicapées',
      },
    ],
  },
  {
    table: 'contact_types',
    entity: 'contact_type',
    rows: [
      { id: 1, uri: 'email', en: 'Email', de: 'E-Mail', fr: 'E-mail' },
      { id: 2, uri: 'phone', en: 'Phone', de: 'Telefon', fr: 'Téléphone' },
      { id: 3, uri: 'website', en: 'Website', de: 'Website', fr: 'Site web' },
      { id: 4, uri: 'fax', en: 'Fax', de: 'Fax', fr: 'Fax' },
    ],
  },
  {
    table: 'positions',
    entity: 'position',
    rows: [
      { id: 1, uri: 'director', en: 'Director', de: 'Geschäftsführer', fr: 'Administrateur' },
      { id: 2, uri: 'officer', en: 'Officer', de: 'Prokurist', fr: 'Dirigeant' },
      { id: 3, uri: 'president', en: 'President', de: 'Vorsitzender', fr: 'Président' },
      { id: 4, uri: 'shareholder', en: 'Shareholder', de: 'Gesellschafter', fr: 'Actionnaire' },
      { id: 5, uri: 'parent_company', en: 'Parent company', de: 'Muttergesellschaft', fr: 'Société mère' },
    ],
  },
];

/** Employee ranges: uri is the filter-path value (`/companies/search/f/employees-{uri}/`). */
export const EMPLOYEE_RANGES = [
  { id: 1, uri: '1-10', min: 1, max: 10 },
  { id: 2, uri: '11-50', min: 11, max: 50 },
  { id: 3, uri: '51-200', min: 51, max: 200 },
  { id: 4, uri: '201-500', min: 201, max: 500 },
  { id: 5, uri: '501-1000', min: 501, max: 1000 },
  { id: 6, uri: '1001-5000', min: 1001, max: 5000 },
  { id: 7, uri: '5001-10000', min: 5001, max: 10000 },
  { id: 8, uri: '10001-plus', min: 10001, max: null },
] as const;

export const LANGUAGE_EN = 41;
export const STATUS_ACTIVE = 1;
