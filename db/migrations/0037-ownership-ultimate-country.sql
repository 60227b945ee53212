-- "Ultimate parent in <country>" (ADR 0038): a company's ultimate_country is the country of the
-- ultimate parent GLEIF states for it (a current IS_ULTIMATELY_CONSOLIDATED_BY to a company in
-- Registra, of its first LEI that states one) when there is one, else of the top of its chain.
-- The rule's home is ultimateCountry in core/ownership/ownership-tree.ts, which every refresh of the
-- tree applies; this recomputes, once, the rows written before it by the chain's top alone.
update ownership_tree t set ultimate_country = coalesce(
    (select l.country_code from company_keys c
      join lei_relationships r on r.start_lei = c.key and r.relationship_type = 'IS_ULTIMATELY_CONSOLIDATED_BY'
        and coalesce(r.relationship_status, 'ACTIVE') = 'ACTIVE' and (r.period_end is null or r.period_end > current_date)
      join company_keys p on p.scheme = 'lei' and p.key = r.end_lei
      join legal_entities u on u.id = p.legal_entity_id
      join locations l on l.id = u.jurisdiction_id
      where c.scheme = 'lei' and c.legal_entity_id = t.legal_entity_id and l.country_code is not null
      order by c.key, r.end_lei limit 1),
    (select l.country_code from legal_entities u join locations l on l.id = u.jurisdiction_id where u.id = t.ultimate_id))
where exists (select 1 from company_keys c join lei_relationships r on r.start_lei = c.key
  where c.scheme = 'lei' and c.legal_entity_id = t.legal_entity_id and r.relationship_type = 'IS_ULTIMATELY_CONSOLIDATED_BY');
