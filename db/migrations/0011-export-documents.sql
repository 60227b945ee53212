-- Export documents (docs/decisions/0008-export.md "Export documents"): per company, what a company
-- export reads for every selectable section, as one JSON document — the row of the export's own
-- query (core/export/read-company-rows.ts companyRowsQuery) with every section — so that a batch
-- of an export is one index scan and one heap (or TOAST) read per company instead of ~17 page
-- reads across the normalised tables. A separate table, kept out of the search's way; keyed by
-- legal_entity_id like every company-scoped table (it shards with its company).
--
-- `version` identifies the query a document was built with (a hash of its SQL): the reader takes
-- only documents of the current version and reads any other company live, so a changed query or
-- a company without a document never exports wrong or empty data. Written only by
-- refreshExportDocuments (core/export/export-documents.ts): the seed after each load, and
-- `npm run cli -- db refresh-export-documents` for a database that predates this table. Until
-- then the table is empty and exports read live.
create table export_documents (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  version integer not null,
  document json not null,
  primary key (legal_entity_id, version)
);
