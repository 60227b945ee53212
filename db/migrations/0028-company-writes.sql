-- The data's version (core/imports/data-version.ts) moves with every company write
-- (afterCompanyWrite, core/companies/company-writes.ts): a seed's top-up, an import's batch, a
-- takedown, so a running app recounts its cached aggregates whoever wrote. A sequence: nextval
-- takes no lock and outlives a rolled-back transaction (a version that moves for nothing only
-- costs a recount). Called once so that the first write moves `last_value`.
create sequence company_writes;
select setval('company_writes', 1);
