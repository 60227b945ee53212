-- The BODS importer (ADR 0038 "BODS importer"): two sources now state a company's shareholders
-- (the UK PSC register and BODS statements), so each membership row says which import wrote it and
-- an import replaces only its own rows (a BODS import leaves the PSC's rows, and the other way
-- round). BODS states a holding's share as numbers, not as a PSC band code: they are kept as the
-- percent bounds it gives (exact → both). A BODS statement with an unspecified interested party
-- (a reporting exception with its reason) is kept per company and source.
alter table legal_entity_members
  add column source text,         -- the import source that wrote the row; null: a seed, or written before 0038
  add column share_min numeric,   -- percent, the source's stated lower bound (null: not stated)
  add column share_max numeric;   -- percent, the source's stated upper bound (null: not stated)

-- The rows the PSC importer wrote before (its shareholders with natures of control) are its own.
update legal_entity_members x set source = 'ch-psc'
where x.natures is not null
  and x.position_id = (select id from positions where uri = 'shareholder')
  and exists (select 1 from company_source_records r where r.legal_entity_id = x.legal_entity_id and r.source = 'ch-psc');

create table company_reporting_exceptions (
  legal_entity_id bigint not null references legal_entities (id) on delete cascade,
  source text not null,
  position smallint not null,     -- the order the source states them in
  reason text not null,           -- BODS unspecified-party reason (noBeneficialOwners, subjectExemptFromDisclosure, …)
  description text,
  primary key (legal_entity_id, source, position)
);
