import { type Db, execScript } from '../../db/client.ts';

// After a large import (docs/decisions/0014-importers.md "Refresh"): the written tables vacuumed and
// analyzed. What depends on the companies an import changed (export documents, the lexicon,
// counts, monitoring) is refreshed after each batch by afterCompanyWrite (core/companies/company-writes.ts).

/** Companies created or changed from which an import vacuums and analyzes what it wrote (core/imports/run-import.ts). */
export const VACUUM_AFTER = 10_000;

/** The tables an import writes (core/imports/write-companies.ts, company-fields.ts) and refreshes, parents first. */
export const IMPORTED_TABLES = [
  'legal_entities',
  'members',
  'legal_entity_names',
  'legal_entity_addresses',
  'legal_entity_dates',
  'legal_entity_identifiers',
  'legal_entity_industries',
  'legal_entity_statuses',
  'legal_entity_legal_forms',
  'legal_entity_members',
  'company_keys',
  'company_source_records',
  'company_changes',
  'company_provenance',
  'export_documents',
  'name_words',
  'name_word_deletes',
];

/**
 * After a large import: the planner's statistics of the written tables, and VACUUM's visibility
 * map and free space (an update leaves dead rows and index entries behind; without the visibility
 * map, counts and the lexicon's index-only scans read every heap row), as a fresh load has them —
 * search stays as fast as after a fresh load (docs/decisions/0014-importers.md "Refresh").
 * Autovacuum would come to it, later; VACUUM cannot run in a transaction.
 */
export async function vacuumImported(db: Db): Promise<void> {
  for (const table of IMPORTED_TABLES) {
    const statement = `vacuum (analyze) "${table}"`;
    if (db.pool) await db.pool.query(statement);
    else await execScript(db, statement);
  }
}
