-- The legal entity and its parts. Every company-scoped table is keyed by legal_entity_id
-- (it leads the primary key) so that they can be sharded by company.

create table legal_entities (
  id bigint primary key,
  uri text not null unique,
  name text not null,                      -- legal name as registered
  search_name text not null,               -- normalised: lower case, no accents, no legal-form suffix
  name_tsv tsvector generated always as (to_tsvector('simple', search_name)) stored,
  jurisdiction_id int not null references locations (id),
  kind_id int references legal_entity_kinds (id),
  size_id int references sizes (id),
  employees_id int references employee_ranges (id),
  status_id int references statuses (id),  -- the chosen status (id 1 if present, else the first named)
  primary_industry_id int references industries (id),
  registered_on date,
  -- Sort key that is never null (companies without a date sort last when newest come first),
  -- so keyset pagination can use a plain row comparison.
  registration_sort date not null generated always as (coalesce(registered_on, date '0001-01-01')) stored
);
create index legal_entities_name_tsv_idx on legal_entities using gin (name_tsv);
create index legal_entities_registered_idx on legal_entities (registration_sort desc, id desc);
create index legal_entities_jurisdiction_idx on legal_entities (jurisdiction_id, registration_sort desc, id desc);
create index legal_entities_status_idx on legal_entities (status_id, registration_sort desc, id desc);
create index legal_entities_industry_idx on legal_entities (primary_industry_id, registration_sort desc, id desc);
create index legal_entities_size_idx on legal_entities (size_id, registration_sort desc, id desc);
create index legal_entities_employees_idx on legal_entities (employees_id, registration_sort desc, id desc);
create index legal_entities_kind_idx on legal_entities (kind_id, registration_sort desc, id desc);
create index legal_entities_name_idx on legal_entities (search_name, id);

-- Distinct words of company names, for typo-tolerant search (correct each word, then full-text).
create table name_words (
  word text primary key,
  documents int not null
);
create index name_words_trgm_idx on name_words using gin (word gin_trgm_ops);

create table legal_entity_statuses (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  position smallint not null,
  status_id int not null references statuses (id),
  primary key (legal_entity_id, position)
);

create table legal_entity_names (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  name_type_id int not null references name_types (id),
  position smallint not null default 0,
  name text not null,
  primary key (legal_entity_id, name_type_id, position)
);

create table legal_entity_addresses (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  address_type_id int not null references address_types (id),
  position smallint not null default 0,
  address_line_1 text,
  address_line_2 text,
  block text,
  building text,
  city_district text,
  country_id int references locations (id),
  county text,
  floor text,
  house text,
  locality text,
  post_code text,
  room text,
  state text,
  state_id int references locations (id),
  street text,
  primary key (legal_entity_id, address_type_id, position)
);

create table legal_entity_dates (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  date_type_id int not null references date_types (id),
  date date not null,
  primary key (legal_entity_id, date_type_id)
);

create table legal_entity_identifiers (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  identifier_type_id int not null references identifier_types (id),
  position smallint not null default 0,
  identifier text not null,
  primary key (legal_entity_id, identifier_type_id, position)
);
create index legal_entity_identifiers_value_idx on legal_entity_identifiers (identifier);

create table legal_entity_indicators (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  indicator_type_id int not null references indicator_types (id),
  value boolean not null,
  primary key (legal_entity_id, indicator_type_id)
);

create table legal_entity_industries (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  industry_id int not null references industries (id),
  is_primary boolean not null default false,
  is_secondary boolean not null default false,
  is_licensed boolean not null default false,
  is_unlicensed boolean not null default false,
  primary key (legal_entity_id, industry_id)
);
create index legal_entity_industries_industry_idx on legal_entity_industries (industry_id, legal_entity_id);

create table legal_entity_shares (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  position smallint not null,
  kind text not null check (kind in ('authorized', 'paid_up', 'share')),
  type text not null check (type in ('ordinary', 'preference')),
  total_price numeric(20, 2),
  currency_id int references currencies (id),
  primary key (legal_entity_id, position)
);

create table legal_entity_specifications (
  legal_entity_id bigint primary key references legal_entities (id) on delete cascade,
  members_count int,
  officers_count int,
  partners_count int
);

create table legal_entity_contacts (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  contact_type_id int not null references contact_types (id),
  position smallint not null default 0,
  contact text not null,
  primary key (legal_entity_id, contact_type_id, position)
);

-- Members: people and companies who sit on boards, hold shares or own other companies.
-- A member is not company-scoped: one person can sit on many boards.
create table members (
  id bigint primary key,
  name_type text not null check (name_type in ('legal_entity', 'individual', 'authority', 'mixed')),
  name text not null,
  first_name text,
  middle_name text,
  last_name text,
  postfix text,
  legal_entity_id bigint references legal_entities (id), -- set when the member is itself a company
  country_id int references locations (id)
);
create index members_legal_entity_idx on members (legal_entity_id) where legal_entity_id is not null;

create table member_contacts (
  member_id bigint not null references members (id) on delete cascade,
  contact_type_id int not null references contact_types (id),
  contact text not null,
  primary key (member_id, contact_type_id)
);

create table legal_entity_members (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  member_id bigint not null references members (id),
  position_id int not null references positions (id),
  since date,
  primary key (legal_entity_id, member_id, position_id)
);
create index legal_entity_members_member_idx on legal_entity_members (member_id);
