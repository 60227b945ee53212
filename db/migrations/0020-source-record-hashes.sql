-- A hash of each source record as it was written (docs/decisions/0014-importers.md "Idempotency and
-- the diff"): an import compares a record's hash with it and reads the stored facts only when the
-- hashes differ, so importing the same file again reads no facts. Null for records written before.
alter table company_source_records add column facts_hash text;
