-- Every record section is monitored (docs/decisions/0027-monitored-records.md): a company's records
-- added, changed or removed through core/records/record-writes.ts are company_changes rows of field
-- `records.<table>`, and a tracking of an existing company chooses what it is told about.

-- What a tracking reports: 'company' (the company's own fields) and record tables (`trademarks`,
-- `violations`, …); null = everything.
alter table existing_objects_tracking add column sections text[];

-- Ids of the records written after the seed: far above the seed's (writing company id × 64 + n,
-- db/seed/record-factory.ts), so that a record's id stays unique within its table.
create sequence record_ids start with 1000000000000;
