import type { Generated } from 'kysely';

// Table types for Kysely, mirroring db/migrations. Dates are 'YYYY-MM-DD' strings, numeric is string.

type RefTable = { id: number; uri: string };

/** Key and company columns of every record table (db/migrations/0004, core/sections/records.ts). */
type RecordRow = {
  legal_entity_id: number;
  id: number;
  company_jurisdiction_id: number;
  company_industry_id: number | null;
  company_status_id: number | null;
  company_size_id: number | null;
  company_employees_id: number | null;
};

export type Database = {
  languages: RefTable & { code: string };
  translations: {
    entity: string;
    entity_id: number;
    language_id: number;
    name: string;
    name_full: string | null;
    name_short: string | null;
  };
  location_types: RefTable;
  locations: RefTable & {
    location_type_id: number;
    country_code: string;
    subdivision_code: string | null;
    parent_id: number | null;
    flag_location_id: number;
  };
  location_aliases: { location_id: number; alias: string };
  industries: RefTable & { code: string; level: number; parent_id: number | null };
  currencies: RefTable & { code: string; numeric_code: string | null; minor_unit: number | null };
  legal_entity_kinds: RefTable;
  sizes: RefTable;
  statuses: RefTable;
  employee_ranges: RefTable & { min_employees: number; max_employees: number | null };
  name_types: RefTable;
  address_types: RefTable;
  date_types: RefTable;
  identifier_types: RefTable;
  indicator_types: RefTable;
  contact_types: RefTable;
  positions: RefTable;

  legal_entities: {
    id: number;
    uri: string;
    name: string;
    search_name: string;
    name_tsv: Generated<string | null>;
    jurisdiction_id: number;
    kind_id: number | null;
    size_id: number | null;
    employees_id: number | null;
    status_id: number | null;
    primary_industry_id: number | null;
    registered_on: string | null;
    registration_sort: Generated<string>;
    /** Set when the company is taken down (0023, ADR 0021): out of public pages, sitemaps and the API. */
    taken_down_at: Generated<Date | null>;
  };
  name_words: { word: string; documents: number };
  /** Each word with one letter deleted, for typo-tolerant name search (db/migrations/0003, core/companies/name-query.ts). */
  name_word_deletes: { variant: string; word: string };
  legal_entity_statuses: { legal_entity_id: number; position: number; status_id: number };
  legal_entity_names: { legal_entity_id: number; name_type_id: number; position: number; name: string };
  legal_entity_addresses: {
    legal_entity_id: number;
    address_type_id: number;
    position: number;
    address_line_1: string | null;
    address_line_2: string | null;
    block: string | null;
    building: string | null;
    city_district: string | null;
    country_id: number | null;
    county: string | null;
    floor: string | null;
    house: string | null;
    locality: string | null;
    post_code: string | null;
    room: string | null;
    state: string | null;
    state_id: number | null;
    street: string | null;
  };
  legal_entity_dates: { legal_entity_id: number; date_type_id: number; date: string };
  legal_entity_identifiers: {
    legal_entity_id: number;
    identifier_type_id: number;
    position: number;
    identifier: string;
  };
  legal_entity_indicators: { legal_entity_id: number; indicator_type_id: number; value: boolean };
  legal_entity_industries: {
    legal_entity_id: number;
    industry_id: number;
    is_primary: boolean;
    is_secondary: boolean;
    is_licensed: boolean;
    is_unlicensed: boolean;
  };
  legal_entity_shares: {
    legal_entity_id: number;
    position: number;
    kind: 'authorized' | 'paid_up' | 'share';
    type: 'ordinary' | 'preference';
    total_price: string | null;
    currency_id: number | null;
  };
  legal_entity_specifications: {
    legal_entity_id: number;
    members_count: number | null;
    officers_count: number | null;
    partners_count: number | null;
  };
  legal_entity_contacts: { legal_entity_id: number; contact_type_id: number; position: number; contact: string };
  /** Per company, what its export reads (db/migrations/0011, core/export/export-documents.ts). */
  export_documents: { legal_entity_id: number; version: number; document: unknown };
  members: {
    id: number;
    name_type: 'legal_entity' | 'individual' | 'authority' | 'mixed';
    name: string;
    first_name: string | null;
    middle_name: string | null;
    last_name: string | null;
    postfix: string | null;
    legal_entity_id: number | null;
    country_id: number | null;
    /** Month (1–12) and year of birth, where the source publishes them; never the day (0031). */
    birth_month: Generated<number | null>;
    birth_year: Generated<number | null>;
    /** Set when the person is taken down (0023, ADR 0021). */
    taken_down_at: Generated<Date | null>;
  };
  member_contacts: { member_id: number; contact_type_id: number; contact: string };
  legal_entity_members: {
    legal_entity_id: number;
    member_id: number;
    position_id: number;
    since: string | null;
    /** The day the position ended, where the source states it (0031). */
    until: Generated<string | null>;
    /** What the member controls, in its source's words (0016-national-registers.sql). */
    natures: string[] | null;
    /** The import source that wrote the row; null for a seed or rows before 0038 (0038-bods-members.sql). */
    source: Generated<string | null>;
    /** Percent bounds of a holding where the source states them as numbers (BODS), 0038. */
    share_min: Generated<string | null>;
    share_max: Generated<string | null>;
  };

  // Accounts (0005-accounts.sql)
  users: {
    id: Generated<number>;
    email: string;
    password_hash: string;
    name: string;
    language: Generated<'en' | 'de' | 'fr'>;
    activated_at: Date | null;
    password_changed_at: Generated<Date>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    table_style: Generated<'style-1' | 'style-2' | 'style-3'>;
    email_notifications: Generated<string[]>;
  };
  sessions: {
    id: string;
    user_id: number;
    created_at: Generated<Date>;
    last_seen_at: Generated<Date>;
    expires_at: Date;
    user_agent: string | null;
    ip: string | null;
    revoked_at: Date | null;
  };
  account_codes: {
    code_hash: string;
    user_id: number;
    purpose: 'activation' | 'password_recovery' | 'email_change';
    created_at: Generated<Date>;
    expires_at: Date;
    used_at: Date | null;
    new_email: string | null;
  };
  notifications: {
    id: Generated<number>;
    user_id: number;
    kind: string;
    data: Generated<Record<string, unknown>>;
    created_at: Generated<Date>;
    read_at: Date | null;
  };
  email_outbox: {
    id: Generated<number>;
    to_address: string;
    subject: string;
    text_body: string;
    html_body: string;
    kind: string;
    delivery: 'smtp' | 'outbox';
    created_at: Generated<Date>;
    sent_at: Date | null;
    attempts: Generated<number>;
    claimed_at: Date | null;
    error: string | null;
  };
  rate_limit_buckets: { key: string; hits: number; expires_at: Date };

  // What a user keeps (0006-user-data.sql): every row is keyed by user_id.
  watchlists: {
    id: Generated<number>;
    user_id: number;
    number: number;
    name: string;
    description: Generated<string>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  watchlist_objects: {
    id: Generated<number>;
    user_id: number;
    watchlist_id: number;
    legal_entity_id: number;
    added_at: Generated<Date>;
    tags: Generated<string[]>;
  };
  // Export view settings (0008-export-settings.sql).
  export_view_settings: {
    id: Generated<number>;
    user_id: number;
    section: string;
    format: Generated<'csv' | 'xlsx' | 'json' | 'xml'>;
    separator: Generated<'comma' | 'semicolon' | 'tab'>;
    scope: Generated<'page' | 'selected' | 'first' | 'all'>;
    row_count: Generated<number>;
    sections: Generated<string[]>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  browsing_history: { id: Generated<number>; user_id: number; legal_entity_id: number; created_at: Generated<Date> };
  search_history: {
    id: Generated<number>;
    user_id: number;
    section: string;
    query: string;
    summary: Generated<string>;
    results: number;
    results_is_estimate: Generated<boolean>;
    created_at: Generated<Date>;
  };
  saved_searches: {
    id: Generated<number>;
    user_id: number;
    name: string;
    section: string;
    query: string;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };

  // Monitoring (0015-monitoring.sql): what a user tracks, its reports, and the jobs that build them.
  existing_objects_tracking: {
    id: Generated<number>;
    user_id: number;
    legal_entity_id: number;
    status: Generated<'active' | 'paused'>;
    last_change_id: Generated<number>;
    /** What it reports: 'company' and record tables (0032-monitored-records.sql); null = everything. */
    sections: string[] | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  existing_objects_reports: {
    id: Generated<number>;
    user_id: number;
    tracking_id: number;
    legal_entity_id: number;
    changes: unknown;
    updates: number;
    created_at: Generated<Date>;
  };
  new_objects_tracking: {
    id: Generated<number>;
    user_id: number;
    name: string;
    query: string;
    status: Generated<'active' | 'paused'>;
    last_change_id: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  new_objects_reports: {
    id: Generated<number>;
    user_id: number;
    tracking_id: number;
    legal_entity_ids: number[];
    companies: number;
    created_at: Generated<Date>;
  };
  jobs: {
    id: Generated<number>;
    kind: string;
    payload: Generated<unknown>;
    status: Generated<'queued' | 'running' | 'done' | 'failed'>;
    run_at: Generated<Date>;
    attempts: Generated<number>;
    max_attempts: Generated<number>;
    locked_by: string | null;
    locked_at: Date | null;
    last_error: string | null;
    dedupe_key: string | null;
    created_at: Generated<Date>;
    finished_at: Date | null;
  };

  // Companies merged into others by an import (0019-company-merges.sql).
  company_merges: {
    merged_id: number;
    merged_uri: string;
    merged_name: string;
    survivor_id: number;
    import_id: number | null;
    merged_at: Generated<Date>;
  };

  // Webhooks (0018-webhooks.sql): a user's endpoints and the deliveries made to them.
  webhooks: {
    id: Generated<number>;
    user_id: number;
    url: string;
    secret: string;
    fields: Generated<string[]>;
    active: Generated<boolean>;
    last_change_id: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  webhook_deliveries: {
    id: Generated<number>;
    user_id: number;
    webhook_id: number;
    payload: unknown;
    changes: number;
    status: Generated<'pending' | 'delivered' | 'failed'>;
    attempts: Generated<number>;
    next_attempt_at: Date | null;
    response_status: number | null;
    last_error: string | null;
    created_at: Generated<Date>;
    delivered_at: Date | null;
  };

  // API keys (0022-api-keys-and-matching.sql): a user's keys, stored hashed, and requests per key per day.
  api_keys: {
    id: Generated<number>;
    user_id: number;
    name: string;
    scopes: string[];
    key_hash: string;
    prefix: string;
    created_at: Generated<Date>;
    last_used_at: Date | null;
    revoked_at: Date | null;
  };
  api_key_usage: {
    api_key_id: number;
    day: string;
    requests: Generated<number>;
  };

  // Visitors and the rest of the users API (0007-users-api.sql).
  visitors: {
    uid: string;
    user_agent: Generated<string>;
    site_id: string;
    user_id: Generated<number>;
    utm_term: string | null;
    utm_source: string | null;
    utm_medium: string | null;
    utm_content: string | null;
    utm_campaign: string | null;
    product_id: number | null;
    tool_id: number | null;
    tool_type: string | null;
    created_at: Generated<Date>;
  };
  user_contacts: {
    id: Generated<number>;
    user_id: number;
    type: 'email' | 'phone' | 'website' | 'fax';
    contact: string;
    normalized: string;
    created_at: Generated<Date>;
  };
  orders: {
    id: Generated<number>;
    user_id: number;
    number: number;
    amount: string;
    currency: string;
    status: Generated<'pending' | 'paid' | 'failed' | 'refunded' | 'cancelled'>;
    order_data: Generated<unknown>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    // Billing (0021-billing.sql).
    offer_id: string | null;
    credits: number | null;
    provider: string | null;
    provider_ref: string | null;
    failure_reason: string | null;
    paid_at: Date | null;
    // The checkout's own transaction; a payment that did not match the order, for a person to
    // settle (0029-payment-review.sql).
    checkout_ref: string | null;
    review_reason: 'amount_mismatch' | 'currency_mismatch' | 'price_mismatch' | 'transaction_mismatch' | null;
    review_ref: string | null;
  };
  purchases: {
    id: Generated<number>;
    user_id: number;
    legal_entity_id: number;
    credits: number;
    created_at: Generated<Date>;
    hidden_at: Date | null;
  };

  // Billing (0021-billing.sql, docs/decisions/0019-billing.md).
  payments: {
    id: Generated<number>;
    provider: string;
    event_id: string;
    event_type: string;
    user_id: number | null;
    order_id: number | null;
    kind: 'paid' | 'failed' | 'refunded' | 'chargeback' | 'subscription' | 'ignored';
    amount_minor: number | null;
    currency: string | null;
    detail: string | null;
    created_at: Generated<Date>;
  };
  credit_ledger: {
    id: Generated<number>;
    user_id: number;
    delta: number;
    reason:
      | 'pack'
      | 'subscription'
      | 'profile'
      | 'export'
      | 'export_refund'
      | 'api'
      | 'api_refund'
      | 'refund'
      | 'chargeback'
      | 'grant'
      | 'enrichment'
      | 'enrichment_refund';
    order_id: number | null;
    purchase_id: number | null;
    note: string | null;
    created_at: Generated<Date>;
  };
  subscriptions: {
    id: Generated<number>;
    user_id: number;
    plan_id: string;
    status: Generated<'active' | 'cancelled' | 'ended'>;
    provider: string;
    provider_ref: string;
    started_at: Generated<Date>;
    period_start: Date;
    period_end: Date;
    cancel_at_period_end: Generated<boolean>;
    cancelled_at: Date | null;
  };
  table_view_settings: {
    id: Generated<number>;
    user_id: number;
    section: string;
    style: Generated<'style-1' | 'style-2' | 'style-3'>;
    columns: string[] | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };

  // A signed-in user's comparison (0009-comparison.sql): company ids in order, at most 5.
  saved_comparisons: { user_id: number; legal_entity_ids: number[]; updated_at: Generated<Date> };

  // Record sections (0004-related-records.sql): one column per declared field, in declaration order.
  connections: RecordRow & {
    name: string | null;
    position_id: number | null;
    email: string | null;
    phone: string | null;
    since: string;
  };
  transactions: RecordRow & {
    transaction_date: string;
    total_amount: string | null;
    currency_id: number | null;
    type_id: number | null;
    products_services: string | null;
    description: string | null;
    customer: string | null;
  };
  permits: RecordRow & {
    application_date: string;
    expiration_date: string | null;
    authority: string | null;
    purpose: string | null;
    description: string | null;
    type_id: number | null;
    status_id: number | null;
  };
  real_estate: RecordRow & {
    jurisdiction_id: number | null;
    identification_number: string | null;
    category_id: number | null;
    type_id: number | null;
    property_use_id: number | null;
    post_code: string | null;
    state_code: string | null;
    county_name: string | null;
    locality_name: string | null;
    street_name: string | null;
    house_number: string | null;
    construction_year: number | null;
    sale_date: string;
    sale_amount: string | null;
    assessed_value: string | null;
    currency_id: number | null;
  };
  contacts: RecordRow & {
    website: string | null;
    email: string | null;
    phone: string | null;
    fax: string | null;
    address_id: number | null;
    updated_on: string;
  };
  aircraft: RecordRow & {
    registration_mark: string | null;
    manufacturer: string | null;
    model: string | null;
    serial_number: string | null;
    engine_type_id: number | null;
    year_built: number | null;
    seats: number | null;
    registration_date: string;
    registry_id: number | null;
  };
  bank_accounts: RecordRow & {
    bank_name: string | null;
    iban: string | null;
    bic: string | null;
    currency_id: number | null;
    account_type_id: number | null;
    opened_on: string;
    country_id: number | null;
  };
  facilities: RecordRow & {
    type_id: number | null;
    facility_number: string | null;
    locality_name: string | null;
    county_name: string | null;
    state_code: string | null;
    post_code: string | null;
    opened_on: string;
  };
  financial_statements: RecordRow & {
    revenue: string | null;
    profit: string | null;
    currency_id: number | null;
    report_year: number | null;
    period_start: string | null;
    period_end: string;
    total_assets: string | null;
    equity: string | null;
    /** Migration 0035 (ADR 0037): the rest of the normalised set, its scope, basis and filing. */
    gross_profit: string | null;
    operating_profit: string | null;
    profit_before_tax: string | null;
    current_assets: string | null;
    cash: string | null;
    total_liabilities: string | null;
    average_employees: number | null;
    scope_id: number | null;
    basis_id: number | null;
    filing_id: number | null;
  };
  industrial_designs: RecordRow & {
    design_number: string | null;
    title: string | null;
    locarno_class: string | null;
    filing_date: string;
    registration_date: string | null;
    expiration_date: string | null;
    office_id: number | null;
    status_id: number | null;
  };
  inspections: RecordRow & {
    inspection_date: string;
    category_id: number | null;
    type_id: number | null;
    status_id: number | null;
    inspector: string | null;
  };
  liabilities: RecordRow & {
    type_id: number | null;
    creditor: string | null;
    amount: string | null;
    currency_id: number | null;
    filed_on: string;
    due_on: string | null;
    status_id: number | null;
  };
  mergers_and_acquisitions: RecordRow & {
    deal_date: string;
    type_id: number | null;
    role_id: number | null;
    deal_number: string | null;
    participant_name: string | null;
    deal_value: string | null;
    currency_id: number | null;
  };
  patents: RecordRow & {
    patent_number: string | null;
    title: string | null;
    ipc_class: string | null;
    filing_date: string;
    grant_date: string | null;
    office_id: number | null;
    status_id: number | null;
  };
  plant_variety_rights: RecordRow & {
    denomination: string | null;
    species: string | null;
    application_number: string | null;
    filing_date: string;
    grant_date: string | null;
    expiration_date: string | null;
    office_id: number | null;
    status_id: number | null;
  };
  registers: RecordRow & {
    register_name: string | null;
    register_number: string | null;
    authority: string | null;
    entry_date: string;
    type_id: number | null;
    status_id: number | null;
  };
  taxes: RecordRow & {
    tax_type_id: number | null;
    period_start: string | null;
    period_end: string | null;
    assessed_on: string;
    amount: string | null;
    paid_amount: string | null;
    currency_id: number | null;
    status_id: number | null;
  };
  trademarks: RecordRow & {
    mark: string | null;
    application_number: string | null;
    nice_classes: string | null;
    mark_type_id: number | null;
    filing_date: string;
    registration_date: string | null;
    expiration_date: string | null;
    office_id: number | null;
    status_id: number | null;
  };
  vehicles: RecordRow & {
    vin: string | null;
    make: string | null;
    model: string | null;
    model_year: number | null;
    vehicle_type_id: number | null;
    fuel_type_id: number | null;
    plate_number: string | null;
    registration_date: string;
    registry_id: number | null;
  };
  vessels: RecordRow & {
    imo_number: string | null;
    vessel_name: string | null;
    vessel_type_id: number | null;
    flag_id: number | null;
    mmsi: string | null;
    call_sign: string | null;
    gross_tonnage: number | null;
    deadweight: number | null;
    year_built: number | null;
    registration_date: string;
  };
  violations: RecordRow & {
    violation_date: string;
    fine: string | null;
    currency_id: number | null;
    law: string | null;
    violation_level_id: number | null;
    violation_type_id: number | null;
    inspector: string | null;
  };
  documents: { legal_entity_id: number; id: number; title: string; document_type: string; filed_on: string };
  events: { legal_entity_id: number; id: number; event_date: string; event_type: string; description: string | null };
  products: {
    legal_entity_id: number;
    id: number;
    name: string;
    kind: 'product' | 'service';
    description: string | null;
  };
  financial_statement_lines: {
    legal_entity_id: number;
    statement_id: number;
    line_no: number;
    name: string;
    amount: string | null;
  };

  /** Imports of public registry files (db/migrations/0014-imports.sql, docs/decisions/0014-importers.md). */
  /** Filed accounts (migration 0035, ADR 0037). */
  xbrl_concepts: { id: Generated<number>; namespace: string; local_name: string };
  filings: {
    legal_entity_id: number;
    id: Generated<number>;
    kind: 'ch-accounts' | 'sec-ixbrl';
    source_name: string;
    sha256: string;
    period_end: string | null;
    entity_name: string | null;
    entity_number: string | null;
    fact_count: number;
    import_id: number | null;
    imported_at: Generated<Date>;
  };
  filing_contexts: {
    legal_entity_id: number;
    filing_id: number;
    context_no: number;
    period_start: string | null;
    period_end: string | null;
    instant: boolean;
    dimensions: unknown;
  };
  filing_facts: {
    legal_entity_id: number;
    filing_id: number;
    position: number;
    context_no: number;
    concept_id: number;
    amount: string | null;
    value: string | null;
    decimals: number | null;
    unit: string | null;
    currency: string | null;
    hidden: Generated<boolean>;
  };
  imports: {
    id: Generated<number>;
    source: string;
    file_name: string;
    file_sha256: string;
    status: 'running' | 'done' | 'failed';
    started_at: Generated<Date>;
    finished_at: Date | null;
    read: Generated<number>;
    new: Generated<number>;
    changed: Generated<number>;
    unchanged: Generated<number>;
    rejected: Generated<number>;
    message: string | null;
  };
  /** Every change an import made, per company and field (core/imports/fields.ts names the fields). */
  company_changes: {
    id: Generated<number>;
    legal_entity_id: number;
    field: string;
    old_value: unknown;
    new_value: unknown;
    source: string;
    source_date: Date | null;
    observed_at: Generated<Date>;
    import_id: number | null;
  };
  company_provenance: {
    legal_entity_id: number;
    field: string;
    source: string;
    source_date: Date | null;
    observed_at: Date;
  };
  /** What each source last said about a company: the diff's base (db/migrations/0014-imports.sql). */
  company_source_records: {
    legal_entity_id: number;
    source: string;
    facts: unknown;
    source_date: Date | null;
    import_id: number | null;
    /** SHA-1 of the record as written (JSON of the validated facts), null for records written before it. */
    facts_hash: string | null;
  };
  /** Keys companies are matched on: scheme 'register', 'lei' or a source's own (core/imports/company-facts.ts). */
  company_keys: { scheme: string; key: string; legal_entity_id: number; source: string };
  legal_forms: {
    code: string;
    country_code: string | null;
    subdivision_code: string | null;
    jurisdiction_id: number | null;
    status: 'ACTV' | 'INAC';
    created_on: string | null;
    modified_on: string | null;
    kind_id: number | null;
  };
  legal_form_names: {
    code: string;
    language_code: string;
    name: string;
    transliterated_name: string | null;
    abbreviations: Generated<string[]>;
    abbreviations_transliterated: Generated<string[]>;
  };
  legal_entity_legal_forms: { legal_entity_id: number; elf_code: string | null; other_legal_form: string | null };
  lei_registrations: {
    lei: string;
    legal_entity_id: number;
    entity_status: string | null;
    registration_status: string;
    initial_registration_date: Date | null;
    last_update_date: Date | null;
    next_renewal_date: Date | null;
    managing_lou: string | null;
    validation_sources: string | null;
  };
  lei_relationships: {
    start_lei: string;
    end_lei: string;
    relationship_type: string;
    relationship_status: string | null;
    registration_status: string | null;
    period_start: string | null;
    period_end: string | null;
    source_date: Date | null;
    member_id: number | null;
  };
  /** A source's reporting exceptions of a company: BODS unspecified interested parties (0038-bods-members.sql). */
  company_reporting_exceptions: {
    legal_entity_id: number;
    source: string;
    position: number;
    reason: string;
    description: string | null;
  };
  lei_reporting_exceptions: {
    lei: string;
    exception_category: string;
    reasons: string[];
    reference: string | null;
    source_date: Date | null;
  };
  /** Each company's place in its ownership tree (0036-ownership.sql, ADR 0038). */
  ownership_tree: {
    legal_entity_id: number;
    parent_id: number | null;
    parent_source: 'gleif' | 'psc' | 'bods' | null;
    parent_reference: string | null;
    ultimate_id: number;
    depth: number;
    ancestors: number[];
    ultimate_country: string | null;
    cycle: Generated<boolean>;
    name: string;
    child_count: Generated<number>;
  };

  // Help, support and takedowns (0023-help-support-takedown.sql, ADR 0021).
  kb_topics: {
    id: number;
    kind: 'section' | 'topic' | 'page';
    parent_id: number | null;
    uri: string;
    position: number;
    content_hash: string;
    updated_at: Generated<Date>;
  };
  kb_topic_translations: {
    topic_id: number;
    language_id: number;
    name: string;
    short_description: string;
    body_markdown: string;
    body_html: string;
    body_text: string;
    search: Generated<string | null>;
  };
  user_roles: { user_id: number; role: 'support'; granted_at: Generated<Date> };
  support_topics: {
    id: Generated<number>;
    user_id: number | null;
    number: number | null;
    name: string;
    status: Generated<'open' | 'answered' | 'closed'>;
    email: string;
    requester_name: string;
    language: Generated<'en' | 'de' | 'fr'>;
    source: Generated<'dashboard' | 'contact_form' | 'api'>;
    external_id: string | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  support_messages: {
    id: Generated<number>;
    topic_id: number;
    author: 'requester' | 'support';
    author_user_id: number | null;
    body: string;
    created_at: Generated<Date>;
    external_id: string | null;
  };
  takedown_log: {
    id: Generated<number>;
    object_type: 'company' | 'person';
    object_id: number;
    action: 'hide' | 'restore';
    reason: string;
    requested_by: string | null;
    actor: string;
    created_at: Generated<Date>;
  };
  // Enrichment: uploads, their rows and the user's review decisions (0025-enrichment.sql).
  export_jobs: {
    id: Generated<number>;
    user_id: number;
    section: string;
    params: string;
    file_name: string;
    content_type: string;
    status: Generated<'queued' | 'running' | 'done' | 'failed'>;
    rows_total: number;
    rows_written: Generated<number>;
    credits: Generated<number>;
    size_bytes: number | string | null;
    etag: string | null;
    job_id: number | null;
    error: string | null;
    created_at: Generated<Date>;
    started_at: Date | null;
    finished_at: Date | null;
    expires_at: Date;
  };
  export_job_chunks: {
    export_job_id: number;
    seq: number;
    data: Uint8Array;
  };
  enrichments: {
    id: Generated<number>;
    user_id: number;
    file_name: string;
    columns: unknown;
    mapping: Generated<unknown>;
    rows_total: number;
    rows_done: Generated<number>;
    credits: Generated<number>;
    status: Generated<'draft' | 'queued' | 'running' | 'done' | 'failed'>;
    job_id: number | null;
    error: string | null;
    created_at: Generated<Date>;
    finished_at: Date | null;
  };
  enrichment_rows: {
    enrichment_id: number;
    row_number: number;
    cells: unknown;
    outcome: 'matched' | 'review' | 'accepted' | 'rejected' | 'unmatched' | null;
    remembered: Generated<boolean>;
    score: number | null;
    company_id: number | null;
    candidates: unknown | null;
  };
  enrichment_decisions: {
    user_id: number;
    input_key: string;
    company_id: number | null;
    decided_at: Generated<Date>;
    /** The candidates a "none of these" rejected (migration 0034). */
    rejected: Generated<number[]>;
  };
};
