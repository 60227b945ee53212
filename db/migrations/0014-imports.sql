-- Imports of public registry files (docs/decisions/0014-importers.md). An import is recorded in
-- `imports`; every change it makes to a company is a `company_changes` row (the change feed, the
-- History tab and monitoring read it) and `company_provenance` says which source last wrote each
-- field. Field names are those of core/imports/fields.ts.

create table imports (
  id bigint generated always as identity primary key,
  source text not null,
  file_name text not null,
  file_sha256 text not null,
  status text not null check (status in ('running', 'done', 'failed')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  read int not null default 0,
  new int not null default 0,
  changed int not null default 0,
  unchanged int not null default 0,
  rejected int not null default 0,
  message text
);
create index imports_source_idx on imports (source, id desc);

-- every change an import makes, per company and field
create table company_changes (
  id bigint generated always as identity primary key,   -- the change cursor
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  field text not null,          -- a field name from core/imports/fields.ts; 'company' = the company appeared
  old_value jsonb,              -- null when the value was added (and for 'company')
  new_value jsonb,              -- null when the value was removed
  source text not null,         -- the importer's source name, e.g. 'gleif-lei'
  source_date timestamptz,      -- the source's own date for this record, when it gives one
  observed_at timestamptz not null default now(),
  import_id bigint references imports (id)
);
create index company_changes_entity_idx on company_changes (legal_entity_id, id desc);
create index company_changes_import_idx on company_changes (import_id) where import_id is not null;

-- where each fact on a profile came from (latest writer wins)
create table company_provenance (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  field text not null,
  source text not null,
  source_date timestamptz,
  observed_at timestamptz not null,
  primary key (legal_entity_id, field)
);

-- What each source last said about a company (its facts as imported, core/imports/company-facts.ts):
-- an import diffs a record against it, so that importing the same file again writes nothing and two
-- sources that disagree do not undo each other on every run.
create table company_source_records (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  source text not null,
  facts jsonb not null,
  source_date timestamptz,
  import_id bigint references imports (id),
  primary key (legal_entity_id, source)
);

-- The keys a company is matched on (core/imports/company-facts.ts CompanyKeys): 'register' =
-- `<jurisdiction>/<registration authority>/<number>` (jurisdiction an ISO 3166 code, authority a
-- GLEIF registration authority code such as RA000585), 'lei' = the LEI, or a source's own scheme
-- (e.g. 'sec-cik'). Every source's keys are kept; a key names one company.
create table company_keys (
  scheme text not null,
  key text not null,
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  source text not null,
  primary key (scheme, key)
);
create index company_keys_entity_idx on company_keys (legal_entity_id);

-- Ids of companies and members an import creates (the demo seed writes its own; an import moves
-- the sequence past the largest id first: core/imports/write-company.ts).
create sequence legal_entity_ids;
create sequence member_ids;

-- ISO 20275 entity legal forms (ELF), per jurisdiction, with names in every language the list gives.
create table legal_forms (
  code text primary key,                    -- the ELF code, e.g. '8Z6G'; 8888/9999 are pseudo-codes
  country_code char(2),                     -- ISO 3166-1 alpha-2; null for the pseudo-codes
  subdivision_code text,                    -- ISO 3166-2 when the form belongs to a subdivision
  jurisdiction_id int references locations (id),
  status text not null check (status in ('ACTV', 'INAC')),
  created_on date,
  modified_on date,
  kind_id int references legal_entity_kinds (id)
);
create table legal_form_names (
  code text not null references legal_forms (code) on delete cascade,
  language_code text not null,              -- ISO 639-1
  name text not null,                       -- local name
  transliterated_name text,
  abbreviations text[] not null default '{}',
  abbreviations_transliterated text[] not null default '{}',
  primary key (code, language_code)
);

-- A company's legal form: an ELF code, or the source's own words when it gives no code (8888).
create table legal_entity_legal_forms (
  legal_entity_id bigint primary key references legal_entities (id) on delete cascade,
  elf_code text,                            -- not a foreign key: an LEI record may name a code before the list has it
  other_legal_form text
);

-- The LEI registration of a company (GLEIF Level 1 `Registration`).
create table lei_registrations (
  lei text primary key,
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  entity_status text,                       -- ACTIVE / INACTIVE
  registration_status text not null,        -- ISSUED, LAPSED, RETIRED, …
  initial_registration_date timestamptz,
  last_update_date timestamptz,
  next_renewal_date timestamptz,
  managing_lou text,
  validation_sources text
);
create index lei_registrations_entity_idx on lei_registrations (legal_entity_id);

-- GLEIF Level 2 relationships by LEI, kept whether or not both companies are known yet; the
-- parent-company member rows (legal_entity_members, position parent_company) are built from them.
create table lei_relationships (
  start_lei text not null,                  -- the child
  end_lei text not null,                    -- the parent
  relationship_type text not null,          -- IS_DIRECTLY_CONSOLIDATED_BY, IS_ULTIMATELY_CONSOLIDATED_BY, …
  relationship_status text,
  registration_status text,
  period_start date,
  period_end date,
  source_date timestamptz,
  member_id bigint references members (id) on delete set null,  -- the parent-company member it made
  primary key (start_lei, end_lei, relationship_type)
);
create index lei_relationships_end_idx on lei_relationships (end_lei);

-- GLEIF reporting exceptions: why an entity reports no direct or ultimate parent.
create table lei_reporting_exceptions (
  lei text not null,
  exception_category text not null,         -- DIRECT_ACCOUNTING_CONSOLIDATION_PARENT, ULTIMATE_…
  reasons text[] not null,                  -- NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, …
  reference text,
  source_date timestamptz,
  primary key (lei, exception_category)
);
