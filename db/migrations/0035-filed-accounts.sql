-- Filed accounts (inline XBRL) and the figures derived from them (docs/decisions/0037-inline-xbrl-accounts.md,
-- "Import and product").
--
-- A filing is kept once: the same bytes (sha256) or the same file of the same kind (a monthly zip's entry name)
-- is the same filing, so importing it twice changes nothing. Every fact is kept; the figures users see
-- (financial_statements) are derived from them and can be derived again by a better mapping.
--
-- Size: a month of Companies House accounts is ~10 GB of XHTML and some 50-60 million facts. A fact row
-- therefore holds no text it shares with others: the concept is an id (xbrl_concepts, a few thousand rows),
-- the period and dimensions are its context's (filing_contexts, a dozen per filing), a number is a numeric,
-- not text; ~40 bytes of data a fact.

create table xbrl_concepts (
  id int generated always as identity primary key,
  namespace text not null,
  local_name text not null,
  unique (namespace, local_name)
);

create table filings (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  id bigint generated always as identity,
  kind text not null check (kind in ('ch-accounts', 'sec-ixbrl')),
  source_name text not null,
  sha256 text not null,
  period_end date,
  -- The filing's own name of the entity and its number (CH company number or SEC CIK), as filed.
  entity_name text,
  entity_number text,
  fact_count int not null,
  import_id bigint references imports (id) on delete set null,
  imported_at timestamptz not null default now(),
  primary key (legal_entity_id, id),
  unique (id)
);
create unique index filings_sha256_idx on filings (sha256);
create unique index filings_kind_source_name_idx on filings (kind, source_name);
create index filings_company_idx on filings (legal_entity_id, period_end desc);

-- A context of a filing: its period (an instant has only period_end; forever has neither) and dimensions.
create table filing_contexts (
  legal_entity_id bigint not null,
  filing_id bigint not null,
  context_no smallint not null,
  period_start date,
  period_end date,
  instant boolean not null,
  -- [{ "axis": "ns#local", "member": "ns#local" | null, "typed": text | null }], null for none.
  dimensions jsonb,
  primary key (legal_entity_id, filing_id, context_no),
  foreign key (legal_entity_id, filing_id) references filings (legal_entity_id, id) on delete cascade
);

create table filing_facts (
  legal_entity_id bigint not null,
  filing_id bigint not null,
  position int not null,
  context_no smallint not null,
  concept_id int not null references xbrl_concepts (id),
  -- A numeric fact's value (after format, scale and sign); null when nil or not numeric.
  amount numeric,
  -- A non-numeric fact's text; null when nil or numeric.
  value text,
  -- The decimals attribute; 32767 stands for INF.
  decimals smallint,
  -- The unit ('iso4217:GBP', 'xbrli:pure'); a numeric fact always has one.
  unit text,
  currency char(3),
  hidden boolean not null default false,
  primary key (legal_entity_id, filing_id, position),
  foreign key (legal_entity_id, filing_id, context_no) references filing_contexts (legal_entity_id, filing_id, context_no)
    on delete cascade
);

-- The figures of the normalised set beside the existing ones (revenue, profit = profit after tax,
-- total_assets, equity = net assets keep their meaning).
alter table financial_statements
  add column gross_profit numeric(18, 2),
  add column operating_profit numeric(18, 2),
  add column profit_before_tax numeric(18, 2),
  add column current_assets numeric(18, 2),
  add column cash numeric(18, 2),
  add column total_liabilities numeric(18, 2),
  add column average_employees int,
  -- 1 company only, 2 consolidated (group); null for statements that do not say (the demo's).
  add column scope_id smallint,
  -- 1 the filing's current year, 2 its prior-year comparative.
  add column basis_id smallint,
  -- The filing the figures come from (filings.id); null for statements not from a filing.
  add column filing_id bigint;
create index financial_statements_filing_idx on financial_statements (legal_entity_id, period_end, scope_id);
-- Scope and basis are enum fields of the section, filterable: their keyset indexes like the other
-- reference columns.
create index financial_statements_scope_id_idx on financial_statements (scope_id, period_end desc, id desc);
create index financial_statements_basis_id_idx on financial_statements (basis_id, period_end desc, id desc);
