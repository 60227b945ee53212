import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { refreshExportDocuments } from '../export/export-documents.ts';
import { bumpDataVersion, forgetAggregates } from '../imports/data-version.ts';
import { enqueueReportsAfterImport } from '../monitoring/enqueue-reports.ts';
import { refreshOwnershipTree } from '../ownership/ownership-tree.ts';
import { type NameChange, rebuildNameWords, refreshNameWords } from './name-words.ts';

// What a company write changes besides the company's own rows — the one home for it. Every writer
// (the seed, an import's batches and its end, merges within them, `demo advance` through the
// import, a takedown or restore) calls afterCompanyWrite once it has committed:
// - the export documents (ADR 0008) of the companies written, and of the companies on whose
//   boards a written company or person sits (a member's name and visibility are in them);
// - the search lexicon: moved by the changed names, or rebuilt;
// - the ownership tree (ADR 0038): the companies written and everything below them, or rebuilt;
// - the whole-table aggregates (counts, facet cubes, statistics): forgotten in this process, and
//   the data's version moved so that every other process recounts (core/imports/data-version.ts);
// - monitoring: the reports of an import's changes enqueued (ADR 0015) when the writer asks.

export type CompanyWrite = {
  /** Companies created, changed, merged into, taken down or restored; 'all': every company (a fresh load). */
  companies: readonly number[] | 'all';
  /** People (members) taken down or restored: the documents of the companies they sit on. */
  people?: readonly number[];
  /** The search names that changed; 'all' rebuilds the lexicon (a load, or names not known). */
  names: readonly NameChange[] | 'all';
  /** The import whose changes monitoring reports: its run is enqueued (once the import is done). */
  reportImport?: number;
};

export type CompanyWriteRefresh = {
  /** Export documents rebuilt. */
  documents: number;
  seconds: { lexicon: number; documents: number };
};

export async function afterCompanyWrite(db: Db, write: CompanyWrite): Promise<CompanyWriteRefresh> {
  const since = (t: number): number => (performance.now() - t) / 1000;
  const lexiconFrom = performance.now();
  if (write.names === 'all') await rebuildNameWords(db);
  else await refreshNameWords(db, write.names);
  const lexicon = since(lexiconFrom);

  await refreshOwnershipTree(db, write.companies);

  const documentsFrom = performance.now();
  const target = write.companies === 'all' ? 'all' : await withBoards(db, write.companies, write.people ?? []);
  const documents = target === 'all' || target.length > 0 ? (await refreshExportDocuments(db, target)).companies : 0;
  const documentsSeconds = since(documentsFrom);

  forgetAggregates(db);
  await bumpDataVersion(db);
  if (write.reportImport !== undefined) await enqueueReportsAfterImport(db, write.reportImport);
  return { documents, seconds: { lexicon, documents: documentsSeconds } };
}

/**
 * `companies` and the companies on whose boards they (as member companies) or `people` sit: a
 * member's name, its company's name and whether either is taken down are part of the board's
 * export document (core/companies/parts/members.ts). Two index lookups per id.
 */
async function withBoards(db: Db, companies: readonly number[], people: readonly number[]): Promise<number[]> {
  if (companies.length === 0 && people.length === 0) return [];
  const boards = await sql<{ id: string | number }>`
    select distinct x.legal_entity_id as id from legal_entity_members x
    where x.member_id in (
      select m.id from members m where m.legal_entity_id = any(${[...companies]}::bigint[])
      union all
      select unnest(${[...people]}::bigint[]))`.execute(db.kysely);
  return [...new Set([...companies, ...boards.rows.map((r) => Number(r.id))])];
}
