-- People search and suggestions by name (issue 15, docs/decisions/0022-responsive-people-search-ux.md):
-- a member's name holding the words typed, anywhere in it, answered by a trigram index.
create index members_name_trgm_idx on members using gin (name gin_trgm_ops);
