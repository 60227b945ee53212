-- Companies found to be one (docs/decisions/0014-importers.md "Merges"): an import whose record's
-- keys name two companies merges the second into the first. The merged company's URI keeps
-- answering, with a permanent redirect to the survivor's profile.
create table company_merges (
  merged_id bigint primary key,
  merged_uri text not null unique,
  merged_name text not null,
  survivor_id bigint not null references legal_entities (id) on delete cascade,
  import_id bigint references imports (id),
  merged_at timestamptz not null default now()
);
create index company_merges_survivor_idx on company_merges (survivor_id);
