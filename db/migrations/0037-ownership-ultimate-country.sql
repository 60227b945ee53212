-- "Ultimate parent in <country>" (ADR 0038): a company's ultimate_country is the country of the
-- ultimate parent GLEIF states for it (a current IS_ULTIMATELY_CONSOLIDATED_BY to a company in
-- Registra, of its first LEI that states one) when there is one, else of the top of its chain.
-- The rule's home is statedUltimateCountries in core/ownership/ownership-tree.ts, which every
-- refresh of the tree applies; this recomputes, once, the rows written before it by the chain's top
-- alone (those of the companies with a stated ultimate parent; the others' top stays theirs).
update ownership_tree t set ultimate_country = s.country_code
from (
  select distinct on (c.legal_entity_id) c.legal_entity_id as id, l.country_code
  from ownership_tree x
  join company_keys c on c.legal_entity_id = x.legal_entity_id and c.scheme = 'lei'
  join lei_relationships r on r.start_lei = c.key and r.relationship_type = 'IS_ULTIMATELY_CONSOLIDATED_BY'
    and coalesce(r.relationship_status, 'ACTIVE') = 'ACTIVE' and (r.period_end is null or r.period_end > current_date)
  join company_keys p on p.scheme = 'lei' and p.key = r.end_lei
  join legal_entities u on u.id = p.legal_entity_id
  join locations l on l.id = u.jurisdiction_id
  where l.country_code is not null
  order by c.legal_entity_id, c.key, r.end_lei
) s
where s.id = t.legal_entity_id and t.ultimate_country is distinct from s.country_code;
