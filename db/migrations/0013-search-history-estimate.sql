-- A search whose count was estimated (past the exact count, core/search/count-matches.ts) is kept
-- as such: the history pages say "About 52,000 companies" as the search page did, not "52,000".
-- Entries kept before this column were taken as exact.
alter table search_history add column results_is_estimate boolean not null default false;
