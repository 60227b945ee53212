-- The companies a signed-in user compares side by side (spec §1 "company comparison", §4 "saved
-- cookies restore … comparison companies"): one row per user, the company ids in the order they
-- were added. Guests keep theirs in the `comparison` cookie instead (docs/decisions/0009).
-- Companies are referred to by id without a foreign key, like every list a user keeps (0006):
-- readers join legal_entities and skip ids that no longer exist.

create table saved_comparisons (
  user_id bigint primary key references users (id) on delete cascade,
  -- At most 5 (core/comparison/comparison-set.ts MAX_COMPARED_COMPANIES).
  legal_entity_ids bigint[] not null default '{}' check (cardinality(legal_entity_ids) <= 5),
  updated_at timestamptz not null default now()
);
