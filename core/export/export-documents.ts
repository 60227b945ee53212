import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { exportDocumentsQuery, exportDocumentVersion } from './read-company-rows.ts';

// Export documents (docs/decisions/0008-export.md "Export documents"): per company, the row of the
// export's query with every section, stored so that an export reads one document per company
// instead of ~17 pages of the normalised tables. The rule that keeps them true: whatever writes a
// company's data (or a member, or the name of a company that is a member elsewhere) refreshes
// the documents of the companies it touched, here; the reader reads live whatever has no document
// of the current version, so a missing refresh is slower, never wrong.

/** Companies per statement: a transaction each (the documents of ~2,000 companies, a few MB). */
const CHUNK = 2_000;

/** Fewer companies without a current document than this are refreshed when the server starts (seconds). */
export const REFRESH_AT_START_LIMIT = 50_000;

export type RefreshResult = { companies: number; seconds: number };

/**
 * Rebuilds the export documents of `ids` (their stored documents of any version replaced; unknown
 * ids ignored), or of every company with 'all' (the table emptied first; exports read live until a
 * company's document is back). On PostgreSQL two sessions share the work.
 */
export async function refreshExportDocuments(
  db: Db,
  target: readonly number[] | 'all',
  onProgress?: (done: number, total: number) => void,
): Promise<RefreshResult> {
  const began = performance.now();
  const version = exportDocumentVersion(db);
  const chunks: { source: RawBuilder<unknown>; replace: RawBuilder<unknown> | null; size: number }[] = [];
  if (target === 'all') {
    await sql`truncate export_documents`.execute(db.kysely);
    const bounds = await db.kysely
      .selectFrom('legal_entities')
      .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max'), eb.fn.countAll<number>().as('count')])
      .executeTakeFirstOrThrow();
    // Ranges of ids (in the order the rows were loaded, so that the reads are close together).
    const min = Number(bounds.min ?? 0);
    const max = Number(bounds.max ?? -1);
    const step = Math.max(1, Math.ceil(((max - min + 1) / Math.max(1, Number(bounds.count))) * CHUNK));
    for (let from = min; from <= max; from += step) {
      const to = Math.min(max, from + step - 1);
      chunks.push({
        source: sql`(select id, id as ord from legal_entities where id between ${from} and ${to}) t`,
        replace: null,
        size: Math.min(CHUNK, Number(bounds.count)),
      });
    }
  } else {
    const ids = [...new Set(target)].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      chunks.push({
        source: sql`unnest(${chunk}::bigint[]) with ordinality as t (id, ord)`,
        replace: sql`delete from export_documents where legal_entity_id = any(${chunk}::bigint[])`,
        size: chunk.length,
      });
    }
  }
  const total = chunks.reduce((n, c) => n + c.size, 0);
  let companies = 0;
  let done = 0;
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) {
      const { source, replace, size } = chunk;
      const inserted = await db.kysely.transaction().execute(async (trx) => {
        // As the reader: the query's estimate crosses jit_above_cost, and compiling would cost more than it saves.
        await sql`set local jit = off`.execute(trx);
        if (replace) await replace.execute(trx);
        const result = await sql`insert into export_documents (legal_entity_id, version, document)
          select d.id, ${version}, d.document from (${exportDocumentsQuery(source)}) d`.execute(trx);
        return Number(result.numAffectedRows ?? 0);
      });
      companies += inserted;
      done += size;
      onProgress?.(Math.min(done, total), total);
    }
  };
  await Promise.all(db.pool ? [worker(), worker()] : [worker()]);
  return { companies, seconds: (performance.now() - began) / 1000 };
}

/** The ids of the companies without an export document of the current version, in id order (at most `limit`). */
export async function companiesWithoutExportDocuments(db: Db, limit?: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`select b.id from legal_entities b
    where not exists (select 1 from export_documents d
      where d.legal_entity_id = b.id and d.version = ${exportDocumentVersion(db)})
    order by b.id${limit === undefined ? sql`` : sql` limit ${limit}`}`.execute(db.kysely);
  return rows.rows.map((r) => Number(r.id));
}

/**
 * At start: companies without a current document (a database from before export documents, an
 * interrupted seed, a changed document query) are refreshed now when they are few; when they are
 * many, the log says so and what to run — exports read them live meanwhile.
 */
export async function ensureExportDocuments(db: Db, log: (message: string) => void): Promise<void> {
  const missing = await companiesWithoutExportDocuments(db, REFRESH_AT_START_LIMIT + 1);
  if (missing.length === 0) return;
  if (missing.length <= REFRESH_AT_START_LIMIT) {
    const result = await refreshExportDocuments(db, missing);
    log(
      `Built the export documents of ${result.companies.toLocaleString('en')} companies in ${result.seconds.toFixed(1)} s.`,
    );
    return;
  }
  log(
    `More than ${REFRESH_AT_START_LIMIT.toLocaleString('en')} companies have no current export document: their exports read the normalised tables (slower) until \`npm run cli -- db refresh-export-documents\` builds them.`,
  );
}
