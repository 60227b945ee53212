-- A "none of these" review decision keeps the candidates it rejected (docs/decisions/0032-review-decisions.md):
-- POST /api/match leaves them out for the same user and the same input. Older decisions have none.
alter table enrichment_decisions add column rejected bigint[] not null default '{}';
