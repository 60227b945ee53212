-- Related records of a company (spec §2 "Search sections"): one table per record section of
-- core/sections/records.ts, keyed by (legal_entity_id, id), with one column per declared field
-- (record-fields.ts fieldColumn: enum, location and currency fields end in _id) and the company's
-- reference values copied onto every row, so that company filters, facets and sorts need no join.
-- Ids are unique within a table by construction (the demo generator: writing company id × 64 + n).
-- Every table has a keyset index on its sort date (newest first), one per filterable reference
-- column with the sort key behind it (filtered pages come sorted from the index), and a plain
-- index per code field (exact look-ups: IMO number, IBAN, VIN, …). Text fields have none.
-- Then the company profile's tables that have no search section: documents, events, products and
-- the accounting lines of financial statements.

create table connections (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  name text,
  position_id smallint,
  email text,
  phone text,
  since date not null,
  primary key (legal_entity_id, id)
);
create index connections_since_idx on connections (since desc, id desc);
create index connections_company_jurisdiction_id_idx on connections (company_jurisdiction_id, since desc, id desc);
create index connections_company_industry_id_idx on connections (company_industry_id, since desc, id desc);
create index connections_company_status_id_idx on connections (company_status_id, since desc, id desc);
create index connections_company_size_id_idx on connections (company_size_id, since desc, id desc);
create index connections_position_id_idx on connections (position_id, since desc, id desc);
create index connections_email_idx on connections (email);
create index connections_phone_idx on connections (phone);

create table transactions (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  transaction_date date not null,
  total_amount numeric(18, 2),
  currency_id int references currencies (id),
  type_id smallint,
  products_services text,
  description text,
  customer text,
  primary key (legal_entity_id, id)
);
create index transactions_transaction_date_idx on transactions (transaction_date desc, id desc);
create index transactions_company_jurisdiction_id_idx on transactions (company_jurisdiction_id, transaction_date desc, id desc);
create index transactions_company_industry_id_idx on transactions (company_industry_id, transaction_date desc, id desc);
create index transactions_company_status_id_idx on transactions (company_status_id, transaction_date desc, id desc);
create index transactions_company_size_id_idx on transactions (company_size_id, transaction_date desc, id desc);
create index transactions_currency_id_idx on transactions (currency_id, transaction_date desc, id desc);
create index transactions_type_id_idx on transactions (type_id, transaction_date desc, id desc);

create table permits (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  application_date date not null,
  expiration_date date,
  authority text,
  purpose text,
  description text,
  type_id smallint,
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index permits_application_date_idx on permits (application_date desc, id desc);
create index permits_company_jurisdiction_id_idx on permits (company_jurisdiction_id, application_date desc, id desc);
create index permits_company_industry_id_idx on permits (company_industry_id, application_date desc, id desc);
create index permits_company_status_id_idx on permits (company_status_id, application_date desc, id desc);
create index permits_company_size_id_idx on permits (company_size_id, application_date desc, id desc);
create index permits_type_id_idx on permits (type_id, application_date desc, id desc);
create index permits_status_id_idx on permits (status_id, application_date desc, id desc);

create table real_estate (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  jurisdiction_id int references locations (id),
  identification_number text,
  category_id smallint,
  type_id smallint,
  property_use_id smallint,
  post_code text,
  state_code text,
  county_name text,
  locality_name text,
  street_name text,
  house_number text,
  construction_year smallint,
  sale_date date not null,
  sale_amount numeric(18, 2),
  assessed_value numeric(18, 2),
  currency_id int references currencies (id),
  primary key (legal_entity_id, id)
);
create index real_estate_sale_date_idx on real_estate (sale_date desc, id desc);
create index real_estate_company_jurisdiction_id_idx on real_estate (company_jurisdiction_id, sale_date desc, id desc);
create index real_estate_company_industry_id_idx on real_estate (company_industry_id, sale_date desc, id desc);
create index real_estate_company_status_id_idx on real_estate (company_status_id, sale_date desc, id desc);
create index real_estate_company_size_id_idx on real_estate (company_size_id, sale_date desc, id desc);
create index real_estate_jurisdiction_id_idx on real_estate (jurisdiction_id, sale_date desc, id desc);
create index real_estate_category_id_idx on real_estate (category_id, sale_date desc, id desc);
create index real_estate_type_id_idx on real_estate (type_id, sale_date desc, id desc);
create index real_estate_property_use_id_idx on real_estate (property_use_id, sale_date desc, id desc);
create index real_estate_currency_id_idx on real_estate (currency_id, sale_date desc, id desc);
create index real_estate_identification_number_idx on real_estate (identification_number);
create index real_estate_post_code_idx on real_estate (post_code);
create index real_estate_state_code_idx on real_estate (state_code);
create index real_estate_house_number_idx on real_estate (house_number);

create table contacts (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  website text,
  email text,
  phone text,
  fax text,
  address_id int references locations (id),
  updated_on date not null,
  primary key (legal_entity_id, id)
);
create index contacts_updated_on_idx on contacts (updated_on desc, id desc);
create index contacts_company_jurisdiction_id_idx on contacts (company_jurisdiction_id, updated_on desc, id desc);
create index contacts_company_industry_id_idx on contacts (company_industry_id, updated_on desc, id desc);
create index contacts_company_status_id_idx on contacts (company_status_id, updated_on desc, id desc);
create index contacts_company_size_id_idx on contacts (company_size_id, updated_on desc, id desc);
create index contacts_address_id_idx on contacts (address_id, updated_on desc, id desc);
create index contacts_website_idx on contacts (website);
create index contacts_email_idx on contacts (email);
create index contacts_phone_idx on contacts (phone);
create index contacts_fax_idx on contacts (fax);

create table aircraft (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  registration_mark text,
  manufacturer text,
  model text,
  serial_number text,
  engine_type_id smallint,
  year_built smallint,
  seats integer,
  registration_date date not null,
  registry_id int references locations (id),
  primary key (legal_entity_id, id)
);
create index aircraft_registration_date_idx on aircraft (registration_date desc, id desc);
create index aircraft_company_jurisdiction_id_idx on aircraft (company_jurisdiction_id, registration_date desc, id desc);
create index aircraft_company_industry_id_idx on aircraft (company_industry_id, registration_date desc, id desc);
create index aircraft_company_status_id_idx on aircraft (company_status_id, registration_date desc, id desc);
create index aircraft_company_size_id_idx on aircraft (company_size_id, registration_date desc, id desc);
create index aircraft_engine_type_id_idx on aircraft (engine_type_id, registration_date desc, id desc);
create index aircraft_registry_id_idx on aircraft (registry_id, registration_date desc, id desc);
create index aircraft_registration_mark_idx on aircraft (registration_mark);
create index aircraft_serial_number_idx on aircraft (serial_number);

create table bank_accounts (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  bank_name text,
  iban text,
  bic text,
  currency_id int references currencies (id),
  account_type_id smallint,
  opened_on date not null,
  country_id int references locations (id),
  primary key (legal_entity_id, id)
);
create index bank_accounts_opened_on_idx on bank_accounts (opened_on desc, id desc);
create index bank_accounts_company_jurisdiction_id_idx on bank_accounts (company_jurisdiction_id, opened_on desc, id desc);
create index bank_accounts_company_industry_id_idx on bank_accounts (company_industry_id, opened_on desc, id desc);
create index bank_accounts_company_status_id_idx on bank_accounts (company_status_id, opened_on desc, id desc);
create index bank_accounts_company_size_id_idx on bank_accounts (company_size_id, opened_on desc, id desc);
create index bank_accounts_currency_id_idx on bank_accounts (currency_id, opened_on desc, id desc);
create index bank_accounts_account_type_id_idx on bank_accounts (account_type_id, opened_on desc, id desc);
create index bank_accounts_country_id_idx on bank_accounts (country_id, opened_on desc, id desc);
create index bank_accounts_iban_idx on bank_accounts (iban);
create index bank_accounts_bic_idx on bank_accounts (bic);

create table facilities (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  type_id smallint,
  facility_number text,
  locality_name text,
  county_name text,
  state_code text,
  post_code text,
  opened_on date not null,
  primary key (legal_entity_id, id)
);
create index facilities_opened_on_idx on facilities (opened_on desc, id desc);
create index facilities_company_jurisdiction_id_idx on facilities (company_jurisdiction_id, opened_on desc, id desc);
create index facilities_company_industry_id_idx on facilities (company_industry_id, opened_on desc, id desc);
create index facilities_company_status_id_idx on facilities (company_status_id, opened_on desc, id desc);
create index facilities_company_size_id_idx on facilities (company_size_id, opened_on desc, id desc);
create index facilities_type_id_idx on facilities (type_id, opened_on desc, id desc);
create index facilities_facility_number_idx on facilities (facility_number);
create index facilities_state_code_idx on facilities (state_code);
create index facilities_post_code_idx on facilities (post_code);

create table financial_statements (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  revenue numeric(18, 2),
  profit numeric(18, 2),
  currency_id int references currencies (id),
  report_year smallint,
  period_start date,
  period_end date not null,
  total_assets numeric(18, 2),
  equity numeric(18, 2),
  primary key (legal_entity_id, id)
);
create index financial_statements_period_end_idx on financial_statements (period_end desc, id desc);
create index financial_statements_company_jurisdiction_id_idx on financial_statements (company_jurisdiction_id, period_end desc, id desc);
create index financial_statements_company_industry_id_idx on financial_statements (company_industry_id, period_end desc, id desc);
create index financial_statements_company_status_id_idx on financial_statements (company_status_id, period_end desc, id desc);
create index financial_statements_company_size_id_idx on financial_statements (company_size_id, period_end desc, id desc);
create index financial_statements_currency_id_idx on financial_statements (currency_id, period_end desc, id desc);

create table industrial_designs (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  design_number text,
  title text,
  locarno_class text,
  filing_date date not null,
  registration_date date,
  expiration_date date,
  office_id int references locations (id),
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index industrial_designs_filing_date_idx on industrial_designs (filing_date desc, id desc);
create index industrial_designs_company_jurisdiction_id_idx on industrial_designs (company_jurisdiction_id, filing_date desc, id desc);
create index industrial_designs_company_industry_id_idx on industrial_designs (company_industry_id, filing_date desc, id desc);
create index industrial_designs_company_status_id_idx on industrial_designs (company_status_id, filing_date desc, id desc);
create index industrial_designs_company_size_id_idx on industrial_designs (company_size_id, filing_date desc, id desc);
create index industrial_designs_office_id_idx on industrial_designs (office_id, filing_date desc, id desc);
create index industrial_designs_status_id_idx on industrial_designs (status_id, filing_date desc, id desc);
create index industrial_designs_design_number_idx on industrial_designs (design_number);
create index industrial_designs_locarno_class_idx on industrial_designs (locarno_class);

create table inspections (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  inspection_date date not null,
  category_id smallint,
  type_id smallint,
  status_id smallint,
  inspector text,
  primary key (legal_entity_id, id)
);
create index inspections_inspection_date_idx on inspections (inspection_date desc, id desc);
create index inspections_company_jurisdiction_id_idx on inspections (company_jurisdiction_id, inspection_date desc, id desc);
create index inspections_company_industry_id_idx on inspections (company_industry_id, inspection_date desc, id desc);
create index inspections_company_status_id_idx on inspections (company_status_id, inspection_date desc, id desc);
create index inspections_company_size_id_idx on inspections (company_size_id, inspection_date desc, id desc);
create index inspections_category_id_idx on inspections (category_id, inspection_date desc, id desc);
create index inspections_type_id_idx on inspections (type_id, inspection_date desc, id desc);
create index inspections_status_id_idx on inspections (status_id, inspection_date desc, id desc);

create table liabilities (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  type_id smallint,
  creditor text,
  amount numeric(18, 2),
  currency_id int references currencies (id),
  filed_on date not null,
  due_on date,
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index liabilities_filed_on_idx on liabilities (filed_on desc, id desc);
create index liabilities_company_jurisdiction_id_idx on liabilities (company_jurisdiction_id, filed_on desc, id desc);
create index liabilities_company_industry_id_idx on liabilities (company_industry_id, filed_on desc, id desc);
create index liabilities_company_status_id_idx on liabilities (company_status_id, filed_on desc, id desc);
create index liabilities_company_size_id_idx on liabilities (company_size_id, filed_on desc, id desc);
create index liabilities_type_id_idx on liabilities (type_id, filed_on desc, id desc);
create index liabilities_currency_id_idx on liabilities (currency_id, filed_on desc, id desc);
create index liabilities_status_id_idx on liabilities (status_id, filed_on desc, id desc);

create table mergers_and_acquisitions (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  deal_date date not null,
  type_id smallint,
  role_id smallint,
  deal_number text,
  participant_name text,
  deal_value numeric(18, 2),
  currency_id int references currencies (id),
  primary key (legal_entity_id, id)
);
create index mergers_and_acquisitions_deal_date_idx on mergers_and_acquisitions (deal_date desc, id desc);
create index mergers_and_acquisitions_company_jurisdiction_id_idx on mergers_and_acquisitions (company_jurisdiction_id, deal_date desc, id desc);
create index mergers_and_acquisitions_company_industry_id_idx on mergers_and_acquisitions (company_industry_id, deal_date desc, id desc);
create index mergers_and_acquisitions_company_status_id_idx on mergers_and_acquisitions (company_status_id, deal_date desc, id desc);
create index mergers_and_acquisitions_company_size_id_idx on mergers_and_acquisitions (company_size_id, deal_date desc, id desc);
create index mergers_and_acquisitions_type_id_idx on mergers_and_acquisitions (type_id, deal_date desc, id desc);
create index mergers_and_acquisitions_role_id_idx on mergers_and_acquisitions (role_id, deal_date desc, id desc);
create index mergers_and_acquisitions_currency_id_idx on mergers_and_acquisitions (currency_id, deal_date desc, id desc);
create index mergers_and_acquisitions_deal_number_idx on mergers_and_acquisitions (deal_number);

create table patents (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  patent_number text,
  title text,
  ipc_class text,
  filing_date date not null,
  grant_date date,
  office_id int references locations (id),
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index patents_filing_date_idx on patents (filing_date desc, id desc);
create index patents_company_jurisdiction_id_idx on patents (company_jurisdiction_id, filing_date desc, id desc);
create index patents_company_industry_id_idx on patents (company_industry_id, filing_date desc, id desc);
create index patents_company_status_id_idx on patents (company_status_id, filing_date desc, id desc);
create index patents_company_size_id_idx on patents (company_size_id, filing_date desc, id desc);
create index patents_office_id_idx on patents (office_id, filing_date desc, id desc);
create index patents_status_id_idx on patents (status_id, filing_date desc, id desc);
create index patents_patent_number_idx on patents (patent_number);
create index patents_ipc_class_idx on patents (ipc_class);

create table plant_variety_rights (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  denomination text,
  species text,
  application_number text,
  filing_date date not null,
  grant_date date,
  expiration_date date,
  office_id int references locations (id),
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index plant_variety_rights_filing_date_idx on plant_variety_rights (filing_date desc, id desc);
create index plant_variety_rights_company_jurisdiction_id_idx on plant_variety_rights (company_jurisdiction_id, filing_date desc, id desc);
create index plant_variety_rights_company_industry_id_idx on plant_variety_rights (company_industry_id, filing_date desc, id desc);
create index plant_variety_rights_company_status_id_idx on plant_variety_rights (company_status_id, filing_date desc, id desc);
create index plant_variety_rights_company_size_id_idx on plant_variety_rights (company_size_id, filing_date desc, id desc);
create index plant_variety_rights_office_id_idx on plant_variety_rights (office_id, filing_date desc, id desc);
create index plant_variety_rights_status_id_idx on plant_variety_rights (status_id, filing_date desc, id desc);
create index plant_variety_rights_application_number_idx on plant_variety_rights (application_number);

create table registers (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  register_name text,
  register_number text,
  authority text,
  entry_date date not null,
  type_id smallint,
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index registers_entry_date_idx on registers (entry_date desc, id desc);
create index registers_company_jurisdiction_id_idx on registers (company_jurisdiction_id, entry_date desc, id desc);
create index registers_company_industry_id_idx on registers (company_industry_id, entry_date desc, id desc);
create index registers_company_status_id_idx on registers (company_status_id, entry_date desc, id desc);
create index registers_company_size_id_idx on registers (company_size_id, entry_date desc, id desc);
create index registers_type_id_idx on registers (type_id, entry_date desc, id desc);
create index registers_status_id_idx on registers (status_id, entry_date desc, id desc);
create index registers_register_number_idx on registers (register_number);

create table taxes (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  tax_type_id smallint,
  period_start date,
  period_end date,
  assessed_on date not null,
  amount numeric(18, 2),
  paid_amount numeric(18, 2),
  currency_id int references currencies (id),
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index taxes_assessed_on_idx on taxes (assessed_on desc, id desc);
create index taxes_company_jurisdiction_id_idx on taxes (company_jurisdiction_id, assessed_on desc, id desc);
create index taxes_company_industry_id_idx on taxes (company_industry_id, assessed_on desc, id desc);
create index taxes_company_status_id_idx on taxes (company_status_id, assessed_on desc, id desc);
create index taxes_company_size_id_idx on taxes (company_size_id, assessed_on desc, id desc);
create index taxes_tax_type_id_idx on taxes (tax_type_id, assessed_on desc, id desc);
create index taxes_currency_id_idx on taxes (currency_id, assessed_on desc, id desc);
create index taxes_status_id_idx on taxes (status_id, assessed_on desc, id desc);

create table trademarks (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  mark text,
  application_number text,
  nice_classes text,
  mark_type_id smallint,
  filing_date date not null,
  registration_date date,
  expiration_date date,
  office_id int references locations (id),
  status_id smallint,
  primary key (legal_entity_id, id)
);
create index trademarks_filing_date_idx on trademarks (filing_date desc, id desc);
create index trademarks_company_jurisdiction_id_idx on trademarks (company_jurisdiction_id, filing_date desc, id desc);
create index trademarks_company_industry_id_idx on trademarks (company_industry_id, filing_date desc, id desc);
create index trademarks_company_status_id_idx on trademarks (company_status_id, filing_date desc, id desc);
create index trademarks_company_size_id_idx on trademarks (company_size_id, filing_date desc, id desc);
create index trademarks_mark_type_id_idx on trademarks (mark_type_id, filing_date desc, id desc);
create index trademarks_office_id_idx on trademarks (office_id, filing_date desc, id desc);
create index trademarks_status_id_idx on trademarks (status_id, filing_date desc, id desc);
create index trademarks_application_number_idx on trademarks (application_number);
create index trademarks_nice_classes_idx on trademarks (nice_classes);

create table vehicles (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  vin text,
  make text,
  model text,
  model_year smallint,
  vehicle_type_id smallint,
  fuel_type_id smallint,
  plate_number text,
  registration_date date not null,
  registry_id int references locations (id),
  primary key (legal_entity_id, id)
);
create index vehicles_registration_date_idx on vehicles (registration_date desc, id desc);
create index vehicles_company_jurisdiction_id_idx on vehicles (company_jurisdiction_id, registration_date desc, id desc);
create index vehicles_company_industry_id_idx on vehicles (company_industry_id, registration_date desc, id desc);
create index vehicles_company_status_id_idx on vehicles (company_status_id, registration_date desc, id desc);
create index vehicles_company_size_id_idx on vehicles (company_size_id, registration_date desc, id desc);
create index vehicles_vehicle_type_id_idx on vehicles (vehicle_type_id, registration_date desc, id desc);
create index vehicles_fuel_type_id_idx on vehicles (fuel_type_id, registration_date desc, id desc);
create index vehicles_registry_id_idx on vehicles (registry_id, registration_date desc, id desc);
create index vehicles_vin_idx on vehicles (vin);
create index vehicles_plate_number_idx on vehicles (plate_number);

create table vessels (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  imo_number text,
  vessel_name text,
  vessel_type_id smallint,
  flag_id int references locations (id),
  mmsi text,
  call_sign text,
  gross_tonnage integer,
  deadweight integer,
  year_built smallint,
  registration_date date not null,
  primary key (legal_entity_id, id)
);
create index vessels_registration_date_idx on vessels (registration_date desc, id desc);
create index vessels_company_jurisdiction_id_idx on vessels (company_jurisdiction_id, registration_date desc, id desc);
create index vessels_company_industry_id_idx on vessels (company_industry_id, registration_date desc, id desc);
create index vessels_company_status_id_idx on vessels (company_status_id, registration_date desc, id desc);
create index vessels_company_size_id_idx on vessels (company_size_id, registration_date desc, id desc);
create index vessels_vessel_type_id_idx on vessels (vessel_type_id, registration_date desc, id desc);
create index vessels_flag_id_idx on vessels (flag_id, registration_date desc, id desc);
create index vessels_imo_number_idx on vessels (imo_number);
create index vessels_mmsi_idx on vessels (mmsi);
create index vessels_call_sign_idx on vessels (call_sign);

create table violations (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  company_jurisdiction_id int not null,
  company_industry_id int,
  company_status_id int,
  company_size_id int,
  company_employees_id int,
  violation_date date not null,
  fine numeric(18, 2),
  currency_id int references currencies (id),
  law text,
  violation_level_id smallint,
  violation_type_id smallint,
  inspector text,
  primary key (legal_entity_id, id)
);
create index violations_violation_date_idx on violations (violation_date desc, id desc);
create index violations_company_jurisdiction_id_idx on violations (company_jurisdiction_id, violation_date desc, id desc);
create index violations_company_industry_id_idx on violations (company_industry_id, violation_date desc, id desc);
create index violations_company_status_id_idx on violations (company_status_id, violation_date desc, id desc);
create index violations_company_size_id_idx on violations (company_size_id, violation_date desc, id desc);
create index violations_currency_id_idx on violations (currency_id, violation_date desc, id desc);
create index violations_violation_level_id_idx on violations (violation_level_id, violation_date desc, id desc);
create index violations_violation_type_id_idx on violations (violation_type_id, violation_date desc, id desc);

-- Company profile only (no search section).

create table documents (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  title text not null,
  document_type text not null,
  filed_on date not null,
  primary key (legal_entity_id, id)
);

create table events (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  event_date date not null,
  event_type text not null,
  description text,
  primary key (legal_entity_id, id)
);

create table products (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint not null,
  name text not null,
  kind text not null check (kind in ('product', 'service')),
  description text,
  primary key (legal_entity_id, id)
);

-- The accounting lines of a financial statement (Revenue, Cost of sales, …, Equity), in order.
create table financial_statement_lines (
  legal_entity_id bigint not null,
  statement_id bigint not null,
  line_no smallint not null,
  name text not null,
  amount numeric(18, 2),
  primary key (legal_entity_id, statement_id, line_no),
  foreign key (legal_entity_id, statement_id) references financial_statements (legal_entity_id, id) on delete cascade
);
