// The 21 related-record sections (spec §2 "Search sections", "Table columns"), declared as data.
// Each has a table named `table` keyed by (legal_entity_id, id) whose columns are the fields'
// columns (record-fields.ts fieldColumn) plus the company's denormalised reference columns
// (COMPANY_COLUMNS), so that company filters, facets and sorts need no join.

import type { PathFilter } from '../filters/grammar.ts';
import { enumField, field, type Label, type RecordField } from './record-fields.ts';

/** Company columns that can be appended to a record table (spec: "plus company columns"). */
export type CompanyColumn = 'legal_name' | 'jurisdiction' | 'status' | 'primary_industry' | 'employees' | 'size';

/** The company's reference values copied onto every record row (filters and facets without a join). */
export const COMPANY_COLUMNS = {
  jurisdiction: 'company_jurisdiction_id',
  industry: 'company_industry_id',
  status: 'company_status_id',
  size: 'company_size_id',
  employees: 'company_employees_id',
} as const;

export type RecordSectionDecl = {
  /** URL segment: /{id}/search/. */
  id: string;
  /** Table of the records. */
  table: string;
  /** Name in the data API (/api/site/data/v1/{api}); defaults to the table name. */
  api?: string;
  title: Label;
  fields: RecordField[];
  /** Field keys shown as columns, in order. */
  columns: string[];
  /** Company columns appended after the record's own. */
  companyColumns: CompanyColumn[];
  /** A date or year field that is never empty: newest first is the default order. */
  sortField: string;
  pathFilters?: PathFilter[];
  /**
   * Contacts: a `type` filter whose values name columns; filtering by a type shows only that
   * type's column (spec §2 "Contacts search").
   */
  columnChoice?: { field: string; columns: Record<string, string> };
};

const COMPANY: CompanyColumn[] = ['legal_name', 'jurisdiction', 'primary_industry', 'employees', 'size'];

const country = (key: string, en: string, de: string, fr: string) => field(key, 'location', en, de, fr);
const currency = field('currency', 'currency', 'Currency', 'Währung', 'Devise');
const description = field('description', 'text', 'Description', 'Beschreibung', 'Description');
const postCode = field('post_code', 'code', 'Post code', 'Postleitzahl', 'Code postal');
const stateCode = field('state_code', 'code', 'State code', 'Bundesland-Code', "Code d'État");
const countyName = field('county_name', 'text', 'County name', 'Landkreis', 'Comté');
const localityName = field('locality_name', 'text', 'Locality name', 'Ort', 'Localité');
const inspector = field('inspector', 'text', 'Inspector', 'Prüfer', 'Inspecteur');
const office = country('office', 'Office', 'Amt', 'Office');
const filingDate = field('filing_date', 'date', 'Filing date', 'Anmeldedatum', 'Date de dépôt');
const grantDate = field('grant_date', 'date', 'Grant date', 'Erteilungsdatum', 'Date de délivrance');
const registrationDate = field(
  'registration_date',
  'date',
  'Registration date',
  'Eintragungsdatum',
  "Date d'enregistrement",
);
const expirationDate = field('expiration_date', 'date', 'Expiration date', 'Ablaufdatum', "Date d'expiration");
const ipStatus = enumField(
  'status',
  ['Status', 'Status', 'Statut'],
  [
    [1, 'pending', 'Pending', 'Anhängig', 'En instance'],
    [2, 'granted', 'Granted', 'Erteilt', 'Délivré'],
    [3, 'expired', 'Expired', 'Abgelaufen', 'Expiré'],
    [4, 'lapsed', 'Lapsed', 'Erloschen', 'Caduc'],
  ],
);

export const RECORD_SECTIONS: RecordSectionDecl[] = [
  {
    id: 'connections',
    table: 'connections',
    api: 'members',
    title: { en: 'Connections', de: 'Verbindungen', fr: 'Relations' },
    fields: [
      field('name', 'text', 'Name', 'Name', 'Nom'),
      enumField(
        'position',
        ['Position', 'Funktion', 'Fonction'],
        [
          [1, 'director', 'Director', 'Direktor', 'Administrateur'],
          [2, 'officer', 'Officer', 'Geschäftsführer', 'Dirigeant'],
          [3, 'president', 'President', 'Präsident', 'Président'],
          [4, 'shareholder', 'Shareholder', 'Gesellschafter', 'Actionnaire'],
          [5, 'parent_company', 'Parent company', 'Muttergesellschaft', 'Société mère'],
        ],
      ),
      field('email', 'code', 'Email', 'E-Mail', 'E-mail'),
      field('phone', 'code', 'Phone', 'Telefon', 'Téléphone'),
      field('since', 'date', 'Since', 'Seit', 'Depuis'),
    ],
    columns: ['name', 'position', 'email', 'phone'],
    companyColumns: ['legal_name', 'jurisdiction'],
    sortField: 'since',
  },
  {
    id: 'transactions',
    table: 'transactions',
    title: { en: 'Transactions', de: 'Transaktionen', fr: 'Transactions' },
    fields: [
      field('transaction_date', 'date', 'Transaction date', 'Transaktionsdatum', 'Date de transaction'),
      field('total_amount', 'amount', 'Total amount', 'Gesamtbetrag', 'Montant total'),
      currency,
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'sale', 'Sale', 'Verkauf', 'Vente'],
          [2, 'purchase', 'Purchase', 'Einkauf', 'Achat'],
          [3, 'contract', 'Contract', 'Auftrag', 'Marché'],
          [4, 'grant', 'Grant', 'Zuschuss', 'Subvention'],
          [5, 'lease', 'Lease', 'Miete', 'Location'],
        ],
      ),
      field('products_services', 'text', 'Products / Services', 'Produkte / Leistungen', 'Produits / Services'),
      description,
      field('customer', 'text', 'Customer', 'Kunde', 'Client'),
    ],
    columns: ['transaction_date', 'total_amount', 'type', 'products_services', 'description', 'customer'],
    companyColumns: COMPANY,
    sortField: 'transaction_date',
  },
  {
    id: 'permits',
    table: 'permits',
    title: { en: 'Permits', de: 'Genehmigungen', fr: 'Permis' },
    fields: [
      field('application_date', 'date', 'Application date', 'Antragsdatum', 'Date de demande'),
      expirationDate,
      field('authority', 'text', 'Authority', 'Behörde', 'Autorité'),
      field('purpose', 'text', 'Purpose', 'Zweck', 'Objet'),
      description,
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'building', 'Building', 'Bau', 'Construire'],
          [2, 'environmental', 'Environmental', 'Umwelt', 'Environnement'],
          [3, 'operating', 'Operating', 'Betrieb', 'Exploitation'],
          [4, 'health', 'Health', 'Gesundheit', 'Santé'],
          [5, 'transport', 'Transport', 'Transport', 'Transport'],
          [6, 'alcohol', 'Alcohol', 'Alkohol', 'Alcool'],
        ],
      ),
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'pending', 'Pending', 'In Bearbeitung', 'En cours'],
          [2, 'approved', 'Approved', 'Genehmigt', 'Approuvé'],
          [3, 'denied', 'Denied', 'Abgelehnt', 'Refusé'],
          [4, 'expired', 'Expired', 'Abgelaufen', 'Expiré'],
          [5, 'revoked', 'Revoked', 'Widerrufen', 'Révoqué'],
        ],
      ),
    ],
    columns: ['application_date', 'expiration_date', 'authority', 'purpose', 'description', 'type', 'status'],
    companyColumns: COMPANY,
    sortField: 'application_date',
  },
  {
    id: 'real-estate',
    table: 'real_estate',
    title: { en: 'Real estate', de: 'Immobilien', fr: 'Immobilier' },
    fields: [
      country('jurisdiction', 'Jurisdiction', 'Rechtsraum', 'Juridiction'),
      field('identification_number', 'code', 'Identification number', 'Kennnummer', "Numéro d'identification"),
      enumField(
        'category',
        ['Category', 'Kategorie', 'Catégorie'],
        [
          [1, 'residential', 'Residential', 'Wohnen', 'Résidentiel'],
          [2, 'commercial', 'Commercial', 'Gewerbe', 'Commercial'],
          [3, 'industrial', 'Industrial', 'Industrie', 'Industriel'],
          [4, 'agricultural', 'Agricultural', 'Landwirtschaft', 'Agricole'],
          [5, 'land', 'Land', 'Grundstück', 'Terrain'],
          [6, 'mixed-use', 'Mixed use', 'Mischnutzung', 'Usage mixte'],
        ],
      ),
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'building', 'Building', 'Gebäude', 'Bâtiment'],
          [2, 'parcel', 'Parcel', 'Flurstück', 'Parcelle'],
          [3, 'unit', 'Unit', 'Einheit', 'Lot'],
          [4, 'warehouse', 'Warehouse', 'Lagerhalle', 'Entrepôt'],
        ],
      ),
      enumField(
        'property_use',
        ['Property use', 'Nutzung', 'Usage'],
        [
          [1, 'office', 'Office', 'Büro', 'Bureaux'],
          [2, 'retail', 'Retail', 'Einzelhandel', 'Commerce'],
          [3, 'manufacturing', 'Manufacturing', 'Produktion', 'Fabrication'],
          [4, 'storage', 'Storage', 'Lager', 'Stockage'],
          [5, 'housing', 'Housing', 'Wohnraum', 'Logement'],
          [6, 'vacant', 'Vacant', 'Leerstand', 'Vacant'],
        ],
      ),
      postCode,
      stateCode,
      countyName,
      localityName,
      field('street_name', 'text', 'Street name', 'Straße', 'Rue'),
      field('house_number', 'code', 'House number', 'Hausnummer', 'Numéro'),
      field('construction_year', 'year', 'Construction year', 'Baujahr', 'Année de construction'),
      field('sale_date', 'date', 'Sale date', 'Verkaufsdatum', 'Date de vente'),
      field('sale_amount', 'amount', 'Sale amount', 'Verkaufspreis', 'Prix de vente'),
      field('assessed_value', 'amount', 'Assessed value', 'Einheitswert', 'Valeur estimée'),
      currency,
    ],
    columns: [
      'jurisdiction',
      'identification_number',
      'category',
      'type',
      'property_use',
      'post_code',
      'state_code',
      'county_name',
      'locality_name',
      'street_name',
      'house_number',
      'construction_year',
      'sale_date',
      'sale_amount',
      'assessed_value',
    ],
    companyColumns: COMPANY,
    sortField: 'sale_date',
    pathFilters: [
      { prefix: 'jurisdiction', field: 'jurisdiction', form: 'uri-id' },
      { prefix: 'category', field: 'category', form: 'uri-id' },
    ],
  },
  {
    id: 'contacts',
    table: 'contacts',
    title: { en: 'Contacts', de: 'Kontakte', fr: 'Contacts' },
    fields: [
      field('website', 'code', 'Website', 'Website', 'Site web'),
      field('email', 'code', 'Email', 'E-Mail', 'E-mail'),
      field('phone', 'code', 'Phone', 'Telefon', 'Téléphone'),
      field('fax', 'code', 'Fax', 'Fax', 'Fax'),
      country('address', 'Address', 'Anschrift', 'Adresse'),
      field('updated_on', 'date', 'Updated on', 'Aktualisiert am', 'Mis à jour le'),
    ],
    columns: ['website', 'email', 'phone', 'fax'],
    companyColumns: COMPANY,
    sortField: 'updated_on',
    columnChoice: { field: 'type', columns: { website: 'website', email: 'email', phone: 'phone', fax: 'fax' } },
    pathFilters: [
      { prefix: 'type', field: 'type', form: 'uri' },
      { prefix: 'industry', field: 'company_industry', form: 'uri-id' },
      { prefix: 'address', field: 'address', form: 'uri-id' },
    ],
  },
  {
    id: 'aircraft',
    table: 'aircraft',
    title: { en: 'Aircraft', de: 'Luftfahrzeuge', fr: 'Aéronefs' },
    fields: [
      field('registration_mark', 'code', 'Registration mark', 'Kennzeichen', "Marque d'immatriculation"),
      field('manufacturer', 'text', 'Manufacturer', 'Hersteller', 'Constructeur'),
      field('model', 'text', 'Model', 'Muster', 'Modèle'),
      field('serial_number', 'code', 'Serial number', 'Seriennummer', 'Numéro de série'),
      enumField(
        'engine_type',
        ['Engine type', 'Triebwerksart', 'Type de moteur'],
        [
          [1, 'jet', 'Jet', 'Strahltriebwerk', 'Réacteur'],
          [2, 'turboprop', 'Turboprop', 'Turboprop', 'Turbopropulseur'],
          [3, 'piston', 'Piston', 'Kolbenmotor', 'Moteur à pistons'],
          [4, 'turboshaft', 'Turboshaft (helicopter)', 'Wellenturbine (Hubschrauber)', 'Turbomoteur (hélicoptère)'],
          [5, 'electric', 'Electric', 'Elektrisch', 'Électrique'],
        ],
      ),
      field('year_built', 'year', 'Year built', 'Baujahr', 'Année de construction'),
      field('seats', 'number', 'Seats', 'Sitze', 'Sièges'),
      registrationDate,
      country('registry', 'Registry', 'Register', 'Registre'),
    ],
    columns: ['registration_mark', 'manufacturer', 'model', 'engine_type', 'year_built', 'registration_date'],
    companyColumns: COMPANY,
    sortField: 'registration_date',
  },
  {
    id: 'bank-accounts',
    table: 'bank_accounts',
    title: { en: 'Bank accounts', de: 'Bankkonten', fr: 'Comptes bancaires' },
    fields: [
      field('bank_name', 'text', 'Bank', 'Bank', 'Banque'),
      field('iban', 'code', 'IBAN', 'IBAN', 'IBAN'),
      field('bic', 'code', 'BIC', 'BIC', 'BIC'),
      currency,
      enumField(
        'account_type',
        ['Account type', 'Kontoart', 'Type de compte'],
        [
          [1, 'current', 'Current', 'Girokonto', 'Compte courant'],
          [2, 'savings', 'Savings', 'Sparkonto', 'Épargne'],
          [3, 'deposit', 'Deposit', 'Festgeld', 'Dépôt à terme'],
          [4, 'escrow', 'Escrow', 'Treuhandkonto', 'Séquestre'],
        ],
      ),
      field('opened_on', 'date', 'Opened on', 'Eröffnet am', 'Ouvert le'),
      country('country', 'Country', 'Land', 'Pays'),
    ],
    columns: ['bank_name', 'iban', 'bic', 'currency', 'account_type', 'opened_on'],
    companyColumns: COMPANY,
    sortField: 'opened_on',
  },
  {
    id: 'facilities',
    table: 'facilities',
    title: { en: 'Facilities', de: 'Betriebsstätten', fr: 'Établissements' },
    fields: [
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'plant', 'Plant', 'Werk', 'Usine'],
          [2, 'warehouse', 'Warehouse', 'Lager', 'Entrepôt'],
          [3, 'office', 'Office', 'Büro', 'Bureau'],
          [4, 'store', 'Store', 'Filiale', 'Magasin'],
          [5, 'laboratory', 'Laboratory', 'Labor', 'Laboratoire'],
          [6, 'depot', 'Depot', 'Depot', 'Dépôt'],
        ],
      ),
      field('facility_number', 'code', 'Facility number', 'Betriebsnummer', "Numéro d'établissement"),
      localityName,
      countyName,
      stateCode,
      postCode,
      field('opened_on', 'date', 'Opened on', 'Eröffnet am', 'Ouvert le'),
    ],
    columns: ['type', 'facility_number', 'locality_name', 'county_name', 'state_code', 'post_code'],
    companyColumns: COMPANY,
    sortField: 'opened_on',
  },
  {
    id: 'financial-statements',
    table: 'financial_statements',
    api: 'accounting',
    title: { en: 'Financial statements', de: 'Jahresabschlüsse', fr: 'États financiers' },
    fields: [
      field('revenue', 'amount', 'Revenue', 'Umsatz', "Chiffre d'affaires"),
      field('profit', 'amount', 'Profit', 'Gewinn', 'Résultat'),
      currency,
      field('report_year', 'year', 'Report year', 'Berichtsjahr', 'Exercice'),
      field('period_start', 'date', 'Period start', 'Periodenbeginn', 'Début de période'),
      field('period_end', 'date', 'Period end', 'Periodenende', 'Fin de période'),
      field('total_assets', 'amount', 'Total assets', 'Bilanzsumme', "Total de l'actif"),
      field('equity', 'amount', 'Equity', 'Eigenkapital', 'Capitaux propres'),
      // The rest of the normalised set of filed accounts (docs/decisions/0037-inline-xbrl-accounts.md):
      // profit stays profit after tax, equity the net assets.
      field('gross_profit', 'amount', 'Gross profit', 'Bruttoergebnis', 'Marge brute'),
      field('operating_profit', 'amount', 'Operating profit', 'Betriebsergebnis', "Résultat d'exploitation"),
      field('profit_before_tax', 'amount', 'Profit before tax', 'Ergebnis vor Steuern', 'Résultat avant impôt'),
      field('current_assets', 'amount', 'Current assets', 'Umlaufvermögen', 'Actif circulant'),
      field('cash', 'amount', 'Cash', 'Liquide Mittel', 'Trésorerie'),
      field('total_liabilities', 'amount', 'Total liabilities', 'Verbindlichkeiten gesamt', 'Total des dettes'),
      field('average_employees', 'number', 'Average employees', 'Beschäftigte im Durchschnitt', 'Effectif moyen'),
      enumField(
        'scope',
        ['Scope', 'Umfang', 'Périmètre'],
        [
          [1, 'company', 'Company only', 'Einzelabschluss', 'Société seule'],
          [2, 'consolidated', 'Consolidated', 'Konzernabschluss', 'Consolidé'],
        ],
      ),
      enumField(
        'basis',
        ['Figures', 'Zahlen', 'Chiffres'],
        [
          [1, 'current', 'Current year of the filing', 'Berichtsjahr der Einreichung', 'Exercice du dépôt'],
          [2, 'comparative', 'Prior-year comparative', 'Vorjahresvergleich', "Comparatif de l'exercice précédent"],
        ],
        false,
      ),
    ],
    columns: ['revenue', 'profit', 'currency', 'report_year'],
    companyColumns: ['legal_name', 'jurisdiction', 'status'],
    sortField: 'period_end',
  },
  {
    id: 'industrial-designs',
    table: 'industrial_designs',
    title: { en: 'Industrial designs', de: 'Designs', fr: 'Dessins et modèles' },
    fields: [
      field('design_number', 'code', 'Design number', 'Designnummer', 'Numéro de dessin'),
      field('title', 'text', 'Title', 'Titel', 'Titre'),
      field('locarno_class', 'code', 'Locarno class', 'Locarno-Klasse', 'Classe de Locarno'),
      filingDate,
      registrationDate,
      expirationDate,
      office,
      ipStatus,
    ],
    columns: ['design_number', 'title', 'locarno_class', 'filing_date', 'status', 'office'],
    companyColumns: COMPANY,
    sortField: 'filing_date',
  },
  {
    id: 'inspections',
    table: 'inspections',
    api: 'inspections_and_violations',
    title: { en: 'Inspections', de: 'Inspektionen', fr: 'Inspections' },
    fields: [
      field('inspection_date', 'date', 'Inspection date', 'Prüfdatum', "Date d'inspection"),
      enumField(
        'category',
        ['Category', 'Kategorie', 'Catégorie'],
        [
          [1, 'safety', 'Safety', 'Arbeitssicherheit', 'Sécurité'],
          [2, 'health', 'Health', 'Gesundheit', 'Santé'],
          [3, 'environment', 'Environment', 'Umwelt', 'Environnement'],
          [4, 'food', 'Food', 'Lebensmittel', 'Alimentation'],
          [5, 'fire', 'Fire', 'Brandschutz', 'Incendie'],
        ],
      ),
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'planned', 'Planned', 'Planmäßig', 'Programmée'],
          [2, 'complaint', 'Complaint', 'Beschwerde', 'Plainte'],
          [3, 'follow_up', 'Follow-up', 'Nachprüfung', 'Suivi'],
          [4, 'accident', 'Accident', 'Unfall', 'Accident'],
        ],
      ),
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'passed', 'Passed', 'Bestanden', 'Conforme'],
          [2, 'failed', 'Failed', 'Nicht bestanden', 'Non conforme'],
          [3, 'open', 'Open', 'Offen', 'En cours'],
          [4, 'closed', 'Closed', 'Abgeschlossen', 'Clôturée'],
        ],
      ),
      inspector,
    ],
    columns: ['inspection_date', 'category', 'type', 'status', 'inspector'],
    companyColumns: COMPANY,
    sortField: 'inspection_date',
  },
  {
    id: 'liabilities',
    table: 'liabilities',
    title: { en: 'Liabilities', de: 'Verbindlichkeiten', fr: 'Passifs' },
    fields: [
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'loan', 'Loan', 'Darlehen', 'Prêt'],
          [2, 'lien', 'Lien', 'Pfandrecht', 'Privilège'],
          [3, 'judgment', 'Judgment', 'Urteil', 'Jugement'],
          [4, 'mortgage', 'Mortgage', 'Hypothek', 'Hypothèque'],
          [5, 'bond', 'Bond', 'Anleihe', 'Obligation'],
        ],
      ),
      field('creditor', 'text', 'Creditor', 'Gläubiger', 'Créancier'),
      field('amount', 'amount', 'Amount', 'Betrag', 'Montant'),
      currency,
      field('filed_on', 'date', 'Filed on', 'Eingetragen am', 'Inscrit le'),
      field('due_on', 'date', 'Due on', 'Fällig am', 'Échéance'),
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'open', 'Open', 'Offen', 'En cours'],
          [2, 'satisfied', 'Satisfied', 'Beglichen', 'Soldé'],
          [3, 'released', 'Released', 'Freigegeben', 'Levé'],
          [4, 'defaulted', 'Defaulted', 'Ausgefallen', 'En défaut'],
        ],
      ),
    ],
    columns: ['filed_on', 'type', 'creditor', 'amount', 'currency', 'due_on', 'status'],
    companyColumns: COMPANY,
    sortField: 'filed_on',
  },
  {
    id: 'mergers-and-acquisitions',
    table: 'mergers_and_acquisitions',
    title: { en: 'Mergers and acquisitions', de: 'Fusionen und Übernahmen', fr: 'Fusions et acquisitions' },
    fields: [
      field('deal_date', 'date', 'M&A date', 'Datum', 'Date'),
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'merger', 'Merger', 'Verschmelzung', 'Fusion'],
          [2, 'acquisition', 'Acquisition', 'Übernahme', 'Acquisition'],
          [3, 'asset_purchase', 'Asset purchase', 'Asset Deal', "Achat d'actifs"],
          [4, 'joint_venture', 'Joint venture', 'Gemeinschaftsunternehmen', 'Coentreprise'],
          [5, 'spin_off', 'Spin-off', 'Abspaltung', 'Scission'],
        ],
      ),
      enumField(
        'role',
        ['Role', 'Rolle', 'Rôle'],
        [
          [1, 'acquirer', 'Acquirer', 'Käufer', 'Acquéreur'],
          [2, 'target', 'Target', 'Zielgesellschaft', 'Cible'],
        ],
      ),
      field('deal_number', 'code', 'Deal number', 'Transaktionsnummer', "Numéro d'opération"),
      field('participant_name', 'text', 'Participant', 'Beteiligter', 'Participant'),
      field('deal_value', 'amount', 'Deal value', 'Transaktionswert', "Valeur de l'opération"),
      currency,
    ],
    columns: ['deal_date', 'type', 'role', 'participant_name', 'deal_value'],
    companyColumns: ['legal_name', 'jurisdiction'],
    sortField: 'deal_date',
  },
  {
    id: 'patents',
    table: 'patents',
    title: { en: 'Patents', de: 'Patente', fr: 'Brevets' },
    fields: [
      field('patent_number', 'code', 'Patent number', 'Patentnummer', 'Numéro de brevet'),
      field('title', 'text', 'Title', 'Titel', 'Titre'),
      field('ipc_class', 'code', 'IPC class', 'IPC-Klasse', 'Classe CIB'),
      filingDate,
      grantDate,
      office,
      ipStatus,
    ],
    columns: ['patent_number', 'title', 'ipc_class', 'filing_date', 'grant_date', 'status'],
    companyColumns: COMPANY,
    sortField: 'filing_date',
  },
  {
    id: 'plant-variety-rights',
    table: 'plant_variety_rights',
    title: { en: 'Plant variety rights', de: 'Sortenschutzrechte', fr: "Certificats d'obtention végétale" },
    fields: [
      field('denomination', 'text', 'Denomination', 'Sortenbezeichnung', 'Dénomination'),
      field('species', 'text', 'Species', 'Art', 'Espèce'),
      field('application_number', 'code', 'Application number', 'Antragsnummer', 'Numéro de demande'),
      filingDate,
      grantDate,
      expirationDate,
      office,
      ipStatus,
    ],
    columns: ['denomination', 'species', 'application_number', 'filing_date', 'grant_date', 'status'],
    companyColumns: COMPANY,
    sortField: 'filing_date',
  },
  {
    id: 'registers',
    table: 'registers',
    title: { en: 'Registers', de: 'Register', fr: 'Registres' },
    fields: [
      field('register_name', 'text', 'Register', 'Register', 'Registre'),
      field('register_number', 'code', 'Register number', 'Registernummer', "Numéro d'inscription"),
      field('authority', 'text', 'Authority', 'Behörde', 'Autorité'),
      field('entry_date', 'date', 'Entry date', 'Eintragungsdatum', "Date d'inscription"),
      enumField(
        'type',
        ['Type', 'Art', 'Type'],
        [
          [1, 'commercial', 'Commercial', 'Handelsregister', 'Commerce'],
          [2, 'trade', 'Trade', 'Gewerberegister', 'Métiers'],
          [3, 'tax', 'Tax', 'Steuerregister', 'Fiscal'],
          [4, 'charity', 'Charity', 'Stiftungsregister', 'Associations'],
          [5, 'import_export', 'Import/export', 'Import/Export', 'Import/export'],
        ],
      ),
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'active', 'Active', 'Aktiv', 'Active'],
          [2, 'closed', 'Closed', 'Geschlossen', 'Radiée'],
        ],
      ),
    ],
    columns: ['register_name', 'register_number', 'authority', 'entry_date', 'type', 'status'],
    companyColumns: COMPANY,
    sortField: 'entry_date',
  },
  {
    id: 'taxes',
    table: 'taxes',
    title: { en: 'Taxes', de: 'Steuern', fr: 'Impôts' },
    fields: [
      enumField(
        'tax_type',
        ['Tax type', 'Steuerart', "Type d'impôt"],
        [
          [1, 'corporate_income', 'Corporate income tax', 'Körperschaftsteuer', 'Impôt sur les sociétés'],
          [2, 'vat', 'VAT', 'Umsatzsteuer', 'TVA'],
          [3, 'payroll', 'Payroll tax', 'Lohnsteuer', 'Taxe sur les salaires'],
          [4, 'property', 'Property tax', 'Grundsteuer', 'Taxe foncière'],
          [5, 'excise', 'Excise duty', 'Verbrauchsteuer', "Droits d'accise"],
        ],
      ),
      field('period_start', 'date', 'Period start', 'Periodenbeginn', 'Début de période'),
      field('period_end', 'date', 'Period end', 'Periodenende', 'Fin de période'),
      field('assessed_on', 'date', 'Assessed on', 'Festgesetzt am', 'Établi le'),
      field('amount', 'amount', 'Amount', 'Betrag', 'Montant'),
      field('paid_amount', 'amount', 'Paid amount', 'Gezahlt', 'Montant payé'),
      currency,
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'paid', 'Paid', 'Bezahlt', 'Payé'],
          [2, 'due', 'Due', 'Fällig', 'Dû'],
          [3, 'overdue', 'Overdue', 'Überfällig', 'En retard'],
          [4, 'disputed', 'Disputed', 'Strittig', 'Contesté'],
        ],
      ),
    ],
    columns: ['tax_type', 'period_start', 'period_end', 'amount', 'paid_amount', 'currency', 'status'],
    companyColumns: COMPANY,
    sortField: 'assessed_on',
  },
  {
    id: 'trademarks',
    table: 'trademarks',
    title: { en: 'Trademarks', de: 'Marken', fr: 'Marques' },
    fields: [
      field('mark', 'text', 'Mark', 'Marke', 'Marque'),
      field('application_number', 'code', 'Application number', 'Anmeldenummer', 'Numéro de dépôt'),
      field('nice_classes', 'code', 'Nice classes', 'Nizza-Klassen', 'Classes de Nice'),
      enumField(
        'mark_type',
        ['Mark type', 'Markenform', 'Type de marque'],
        [
          [1, 'word', 'Word', 'Wortmarke', 'Verbale'],
          [2, 'figurative', 'Figurative', 'Bildmarke', 'Figurative'],
          [3, 'combined', 'Combined', 'Wort-/Bildmarke', 'Semi-figurative'],
          [4, 'sound', 'Sound', 'Klangmarke', 'Sonore'],
        ],
      ),
      filingDate,
      registrationDate,
      expirationDate,
      office,
      enumField(
        'status',
        ['Status', 'Status', 'Statut'],
        [
          [1, 'filed', 'Filed', 'Angemeldet', 'Déposée'],
          [2, 'registered', 'Registered', 'Eingetragen', 'Enregistrée'],
          [3, 'expired', 'Expired', 'Abgelaufen', 'Expirée'],
          [4, 'cancelled', 'Cancelled', 'Gelöscht', 'Radiée'],
        ],
      ),
    ],
    columns: ['mark', 'application_number', 'mark_type', 'nice_classes', 'filing_date', 'status'],
    companyColumns: COMPANY,
    sortField: 'filing_date',
  },
  {
    id: 'vehicles',
    table: 'vehicles',
    title: { en: 'Vehicles', de: 'Fahrzeuge', fr: 'Véhicules' },
    fields: [
      field('vin', 'code', 'VIN', 'FIN', 'VIN'),
      field('make', 'text', 'Make', 'Marke', 'Marque'),
      field('model', 'text', 'Model', 'Modell', 'Modèle'),
      field('model_year', 'year', 'Model year', 'Modelljahr', 'Année modèle'),
      enumField(
        'vehicle_type',
        ['Vehicle type', 'Fahrzeugart', 'Type de véhicule'],
        [
          [1, 'car', 'Car', 'Pkw', 'Voiture'],
          [2, 'van', 'Van', 'Transporter', 'Fourgon'],
          [3, 'truck', 'Truck', 'Lkw', 'Camion'],
          [4, 'bus', 'Bus', 'Bus', 'Autobus'],
          [5, 'trailer', 'Trailer', 'Anhänger', 'Remorque'],
        ],
      ),
      enumField(
        'fuel_type',
        ['Fuel type', 'Kraftstoff', 'Carburant'],
        [
          [1, 'petrol', 'Petrol', 'Benzin', 'Essence'],
          [2, 'diesel', 'Diesel', 'Diesel', 'Diesel'],
          [3, 'electric', 'Electric', 'Elektro', 'Électrique'],
          [4, 'hybrid', 'Hybrid', 'Hybrid', 'Hybride'],
          [5, 'cng', 'Natural gas', 'Erdgas', 'Gaz naturel'],
        ],
      ),
      field('plate_number', 'code', 'Plate number', 'Kennzeichen', "Numéro d'immatriculation"),
      registrationDate,
      country('registry', 'Registry', 'Zulassungsland', "Pays d'immatriculation"),
    ],
    columns: ['plate_number', 'vin', 'make', 'model', 'model_year', 'vehicle_type', 'fuel_type'],
    companyColumns: COMPANY,
    sortField: 'registration_date',
  },
  {
    id: 'vessels',
    table: 'vessels',
    title: { en: 'Vessels', de: 'Schiffe', fr: 'Navires' },
    fields: [
      field('imo_number', 'code', 'IMO number', 'IMO-Nummer', 'Numéro OMI'),
      field('vessel_name', 'text', 'Vessel name', 'Schiffsname', 'Nom du navire'),
      enumField(
        'vessel_type',
        ['Vessel type', 'Schiffstyp', 'Type de navire'],
        [
          [1, 'bulk_carrier', 'Bulk carrier', 'Massengutfrachter', 'Vraquier'],
          [2, 'container_ship', 'Container ship', 'Containerschiff', 'Porte-conteneurs'],
          [3, 'tanker', 'Tanker', 'Tanker', 'Pétrolier'],
          [4, 'general_cargo', 'General cargo', 'Stückgutfrachter', 'Cargo'],
          [5, 'ro_ro', 'Ro-ro', 'Ro-Ro-Schiff', 'Roulier'],
          [6, 'fishing', 'Fishing vessel', 'Fischereifahrzeug', 'Navire de pêche'],
          [7, 'tug', 'Tug', 'Schlepper', 'Remorqueur'],
        ],
      ),
      country('flag', 'Flag', 'Flagge', 'Pavillon'),
      field('mmsi', 'code', 'MMSI', 'MMSI', 'MMSI'),
      field('call_sign', 'code', 'Call sign', 'Rufzeichen', "Indicatif d'appel"),
      field('gross_tonnage', 'number', 'Gross tonnage', 'Bruttoraumzahl', 'Jauge brute'),
      field('deadweight', 'number', 'Deadweight (t)', 'Tragfähigkeit (t)', 'Port en lourd (t)'),
      field('year_built', 'year', 'Year built', 'Baujahr', 'Année de construction'),
      registrationDate,
    ],
    columns: ['imo_number', 'vessel_name', 'vessel_type', 'flag', 'gross_tonnage', 'year_built'],
    companyColumns: COMPANY,
    sortField: 'registration_date',
  },
  {
    id: 'violations',
    table: 'violations',
    api: 'violations',
    title: { en: 'Violations', de: 'Verstöße', fr: 'Infractions' },
    fields: [
      field('violation_date', 'date', 'Violation date', 'Datum des Verstoßes', "Date de l'infraction"),
      field('fine', 'amount', 'Fine', 'Bußgeld', 'Amende'),
      currency,
      field('law', 'text', 'Law', 'Rechtsgrundlage', 'Texte enfreint'),
      enumField(
        'violation_level',
        ['Violation level', 'Schwere', 'Gravité'],
        [
          [1, 'minor', 'Minor', 'Gering', 'Mineure'],
          [2, 'serious', 'Serious', 'Schwer', 'Grave'],
          [3, 'wilful', 'Wilful', 'Vorsätzlich', 'Délibérée'],
          [4, 'repeat', 'Repeat', 'Wiederholt', 'Récidive'],
        ],
      ),
      enumField(
        'violation_type',
        ['Violation type', 'Art des Verstoßes', "Type d'infraction"],
        [
          [1, 'safety', 'Safety', 'Arbeitssicherheit', 'Sécurité'],
          [2, 'environmental', 'Environmental', 'Umwelt', 'Environnement'],
          [3, 'labour', 'Labour', 'Arbeitsrecht', 'Travail'],
          [4, 'consumer', 'Consumer', 'Verbraucherschutz', 'Consommation'],
          [5, 'licensing', 'Licensing', 'Genehmigung', 'Autorisation'],
        ],
      ),
      inspector,
    ],
    columns: ['violation_date', 'fine', 'law', 'violation_level', 'violation_type', 'inspector'],
    companyColumns: COMPANY,
    sortField: 'violation_date',
  },
];

export function recordSection(id: string): RecordSectionDecl | undefined {
  return RECORD_SECTIONS.find((s) => s.id === id);
}
