-- Typo tolerance for short words: every name word under each of its one-letter deletions
-- ("bank" under "ank", "bnk", "bak", "ban"), so a query word with a swapped, missing, extra or
-- wrong letter finds its word through a few index probes (symmetric delete).
create table name_word_deletes (
  variant text not null,
  word text not null references name_words (word) on delete cascade,
  primary key (variant, word)
);

-- Jurisdiction and status together are the most common filter pair: one index serves the
-- sorted page, keyset paging and the bounded count.
create index legal_entities_jurisdiction_status_idx
  on legal_entities (jurisdiction_id, status_id, registration_sort desc, id desc);
