-- Identifiers in the search box (docs/decisions/0002-search-performance.md, "Identifiers"): each
-- identifier by its number alone — letters and digits only, upper case, without the letters before
-- and after the number and without leading zeros ("HRB 20326 B" → 20326, "00390616" → 390616,
-- "NO923609016MVA" → 923609016). The expression is core/identifiers/normalize-identifier.ts
-- identifierKeySql, spelt the same, or the planner does not use the index.
create index legal_entity_identifiers_key_idx
  on legal_entity_identifiers
  (regexp_replace(regexp_replace(upper(regexp_replace(identifier, '[^0-9A-Za-z]+', '', 'g')), '^[A-Z]*0*', ''), '[A-Z]*$', ''));
