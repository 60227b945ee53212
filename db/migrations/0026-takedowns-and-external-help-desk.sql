-- Takedowns everywhere public (docs/decisions/0021-help-support-sitemaps.md, "Takedowns"): every
-- public read leaves out the companies and people taken down by a `not in` of the few taken down,
-- which these partial indexes list without reading the tables (a handful of rows among millions).
create index legal_entities_taken_down_idx on legal_entities (id) where taken_down_at is not null;
create index members_taken_down_idx on members (id) include (name) where taken_down_at is not null;

-- An external help desk (ADR 0021, core/support/zammad-help-desk.ts): the provider's id of each
-- message copied from it or sent to it, so that reading the provider's thread again adds only
-- the messages our copy does not hold yet.
alter table support_messages add column external_id text;
create unique index support_messages_external on support_messages (topic_id, external_id) where external_id is not null;
