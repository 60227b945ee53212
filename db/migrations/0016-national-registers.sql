-- The national registers (docs/decisions/0016-national-registers.md): what a member controls, in its
-- source's words: the natures of control of a person with significant control (Companies House PSC:
-- ownership-of-shares-75-to-100-percent, voting-rights-25-to-50-percent, …). Null when the source gives none.
alter table legal_entity_members add column natures text[];
