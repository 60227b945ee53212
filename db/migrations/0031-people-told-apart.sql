-- People told apart (docs/decisions/0022-responsive-people-search-ux.md): the month and year of birth
-- a register publishes (Companies House's PSC register gives those two and withholds the day, for
-- privacy: no full date of birth is ever stored), and the day a position ended, where a source says it.
alter table members
  add column birth_month smallint check (birth_month between 1 and 12),
  add column birth_year smallint check (birth_year between 1800 and 2200);
alter table legal_entity_members add column until date;
