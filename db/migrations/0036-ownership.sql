-- One ownership graph (ADR 0038): each company's place in its ownership tree, derived from the
-- sources (GLEIF Level 2 direct-consolidation relationships, then a corporate person with
-- significant control holding a majority band) and kept by core/ownership/ownership-tree.ts after
-- every company write (core/companies/company-writes.ts). A company has a row when it has a
-- parent in Registra or has subsidiaries. The links themselves are read from their sources
-- (lei_relationships, lei_reporting_exceptions, legal_entity_members): this table is what the walks
-- and the filters need at scale.
create table ownership_tree (
  legal_entity_id bigint primary key references legal_entities (id) on delete cascade,
  parent_id bigint references legal_entities (id) on delete set null,  -- the direct parent; null at a top
  parent_source text check (parent_source in ('gleif', 'psc', 'bods')),
  parent_reference text,                    -- the source's record: "{child LEI}>{parent LEI}", a PSC member id
  ultimate_id bigint not null,              -- the top of the chain walked up (itself at a top)
  depth int not null,                       -- 0 at a top, 1 for its direct subsidiaries, …
  ancestors bigint[] not null,              -- parent, grandparent, … up to the top: "in the group of"
  ultimate_country char(2),                 -- the top's country: "ultimate parent in"
  cycle boolean not null default false,     -- the walk up came back to a company already on it
  name text not null,                       -- the company's name, the order a group's level is paged in
  child_count int not null default 0
);
create index ownership_tree_children_idx on ownership_tree (parent_id, name, legal_entity_id) where parent_id is not null;
create index ownership_tree_ancestors_idx on ownership_tree using gin (ancestors);
create index ownership_tree_ultimate_country_idx on ownership_tree (ultimate_country, legal_entity_id) where depth > 0;
