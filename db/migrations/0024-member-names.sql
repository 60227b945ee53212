-- People search and search suggestions (ADR 0022, docs/decisions/0022-responsive-people-search-ux.md).
-- A member's name holding the words typed, anywhere in it: a trigram index.
create index members_name_trgm_idx on members using gin (name gin_trgm_ops);
-- Suggestions while typing: the first names in byte order that start with what was typed (a range
-- on the "C" collation reads the index in order and stops after a few rows, whatever the database's
-- collation).
create index legal_entities_search_name_prefix_idx on legal_entities ((search_name collate "C"));
create index members_name_prefix_idx on members ((lower(name) collate "C"));
