-- Facets counted from a sample (core/search/facets.ts fromSample: a search the facet cube cannot
-- answer, such as a registration range, a kind, a number of employees or an industry below its
-- sector) read the first 2,001 matching rows' facet columns. With them in the filter's index the
-- sample is an index-only scan: a two-year registration range took ~12 ms of heap reads for 2,001
-- rows scattered over the table at 1M companies, and takes ~0.7 ms from the index alone.
-- The facet columns are legal_entities' facet dimensions (core/sections/companies.ts `facets`):
-- jurisdiction, primary industry, status, size.
drop index legal_entities_registered_idx;
create index legal_entities_registered_idx on legal_entities (registration_sort desc, id desc)
  include (jurisdiction_id, primary_industry_id, status_id, size_id);
drop index legal_entities_industry_idx;
create index legal_entities_industry_idx on legal_entities (primary_industry_id, registration_sort desc, id desc)
  include (jurisdiction_id, status_id, size_id);
drop index legal_entities_employees_idx;
create index legal_entities_employees_idx on legal_entities (employees_id, registration_sort desc, id desc)
  include (jurisdiction_id, primary_industry_id, status_id, size_id);
drop index legal_entities_kind_idx;
create index legal_entities_kind_idx on legal_entities (kind_id, registration_sort desc, id desc)
  include (jurisdiction_id, primary_industry_id, status_id, size_id);
