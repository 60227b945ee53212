-- The industry classification becomes NACE Rev. 2 (docs/decisions/0017-industry-classification.md).
-- The NAICS 2017 tree goes: its rows, their names, and every reference to a NAICS industry id.
-- loadReferenceData (db/reference/load-reference-data.ts) then loads the NACE Rev. 2 tree into the
-- emptied table at the next start, with ids disjoint from the NAICS ones (an old link or saved
-- filter naming a NAICS id finds no industry rather than a wrong one). Companies of a database
-- seeded before this migration keep everything but their industries: the demo data is generated,
-- so `npm run seed` gives them NACE industries; imported companies take theirs from the next
-- import (core/industries/source-codes.ts maps each source's codes onto NACE Rev. 2).
update legal_entities set primary_industry_id = null where primary_industry_id is not null;
delete from legal_entity_industries;
update connections set company_industry_id = null where company_industry_id is not null;
update transactions set company_industry_id = null where company_industry_id is not null;
update permits set company_industry_id = null where company_industry_id is not null;
update real_estate set company_industry_id = null where company_industry_id is not null;
update contacts set company_industry_id = null where company_industry_id is not null;
update aircraft set company_industry_id = null where company_industry_id is not null;
update bank_accounts set company_industry_id = null where company_industry_id is not null;
update facilities set company_industry_id = null where company_industry_id is not null;
update financial_statements set company_industry_id = null where company_industry_id is not null;
update industrial_designs set company_industry_id = null where company_industry_id is not null;
update inspections set company_industry_id = null where company_industry_id is not null;
update liabilities set company_industry_id = null where company_industry_id is not null;
update mergers_and_acquisitions set company_industry_id = null where company_industry_id is not null;
update patents set company_industry_id = null where company_industry_id is not null;
update plant_variety_rights set company_industry_id = null where company_industry_id is not null;
update registers set company_industry_id = null where company_industry_id is not null;
update taxes set company_industry_id = null where company_industry_id is not null;
update trademarks set company_industry_id = null where company_industry_id is not null;
update vehicles set company_industry_id = null where company_industry_id is not null;
update vessels set company_industry_id = null where company_industry_id is not null;
update violations set company_industry_id = null where company_industry_id is not null;
-- Export documents hold industry ids and names: exports read live until they are rebuilt.
delete from export_documents;
delete from translations where entity = 'industry';
delete from industries;
comment on column industries.code is 'NACE Rev. 2 code: a section letter (A), a division (01), later a group (01.1) or class (01.11)';
