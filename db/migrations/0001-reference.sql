-- Reference data: small tables keyed by int id with a uri, and one translations table.
-- A display name is the translation with language_id 41 (English), falling back to uri.
create extension if not exists pg_trgm;

create table languages (
  id int primary key,
  uri text not null unique,
  code char(2) not null unique
);

create table translations (
  entity text not null,           -- 'location', 'industry', 'status', ... (the reference table)
  entity_id int not null,
  language_id int not null references languages (id),
  name text not null,
  name_full text,
  name_short text,
  primary key (entity, entity_id, language_id)
);

create table location_types (
  id int primary key,
  uri text not null unique
);

create table locations (
  id int primary key,
  location_type_id int not null references location_types (id),
  uri text not null unique,
  country_code char(2) not null,          -- two-letter ISO 3166-1 code (a subdivision carries its country's)
  subdivision_code text,                  -- ISO 3166-2 code for subdivisions
  parent_id int references locations (id),
  flag_location_id int not null references locations (id) -- whose flag to show (a state shows its country's)
);
create index locations_parent_idx on locations (parent_id);

create table location_aliases (
  location_id int not null references locations (id),
  alias text not null,
  primary key (location_id, alias)
);

create table industries (
  id int primary key,
  uri text not null unique,
  code text not null unique,              -- NAICS code
  level smallint not null,                -- 1 = sector … 5 = national industry
  parent_id int references industries (id)
);
create index industries_parent_idx on industries (parent_id);

create table currencies (
  id int primary key,
  uri text not null unique,
  code char(3) not null unique,
  numeric_code char(3),
  minor_unit smallint
);

-- Small enumerations, each with translations.
create table legal_entity_kinds (id int primary key, uri text not null unique);
create table sizes (id int primary key, uri text not null unique);
create table statuses (id int primary key, uri text not null unique); -- id 1 = active
create table employee_ranges (
  id int primary key,
  uri text not null unique,
  min_employees int not null,
  max_employees int                        -- null = open-ended
);
create table name_types (id int primary key, uri text not null unique);
create table address_types (id int primary key, uri text not null unique);
create table date_types (id int primary key, uri text not null unique);
create table identifier_types (id int primary key, uri text not null unique);
create table indicator_types (id int primary key, uri text not null unique);
create table contact_types (id int primary key, uri text not null unique);
create table positions (id int primary key, uri text not null unique);
