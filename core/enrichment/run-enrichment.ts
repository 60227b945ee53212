import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { isMatchable, matchCompanies } from '../matching/match-companies.ts';
import type { Reference } from '../reference/reference-data.ts';
import { type Candidate, getEnrichmentById, inputKey, type RowOutcome, rememberedDecisions } from './enrichments.ts';
import { rowQuery } from './read-upload.ts';

// An enrichment's job (ADR 0020 "Enrichment"): the rows not matched yet, a batch at a time, through
// the matching engine; each row's outcome — the automatic match, a review (the best candidate
// between REVIEW_THRESHOLD and the automatic match, or two alike), or none — unless the user
// decided on the same input before, whose decision is taken again. Each batch's outcomes and the
// progress are written in one transaction, so that a retried job goes on where it stopped.

/** A best candidate scoring at least this, but no automatic match, is left for the user's review. */
export const REVIEW_THRESHOLD = 0.5;
/** Rows matched at a time (one POST /api/match's worth). */
export const ENRICHMENT_BATCH = 100;
/** Batches matched at once (each batch's probes already run side by side on the pool). */
export const PARALLEL_BATCHES = 4;

type Outcome = {
  row_number: number;
  outcome: RowOutcome;
  score: number | null;
  company_id: number | null;
  candidates: Candidate[] | null;
  remembered: boolean;
};

/** Matches the enrichment's remaining rows; `onProgress` hears the rows done so far. */
export async function runEnrichment(
  db: Db,
  reference: Reference,
  id: number,
  onProgress?: (done: number, total: number) => void,
  options: { parallel?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const parallel = options.parallel ?? PARALLEL_BATCHES;
  const enrichment = await getEnrichmentById(db, id);
  if (enrichment.status === 'done' || enrichment.status === 'failed') return;
  await db.kysely.updateTable('enrichments').set({ status: 'running' }).where('id', '=', id).execute();
  let after = 0;
  for (;;) {
    // Between two pages a worker shutting down stops it; it resumes where it stopped.
    options.signal?.throwIfAborted();
    const rows = await db.kysely
      .selectFrom('enrichment_rows')
      .select(['row_number', 'cells'])
      .where('enrichment_id', '=', id)
      .where('outcome', 'is', null)
      .where('row_number', '>', after)
      .orderBy('row_number')
      .limit(ENRICHMENT_BATCH * parallel)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1].row_number;
    const batches: (typeof rows)[] = [];
    for (let at = 0; at < rows.length; at += ENRICHMENT_BATCH) batches.push(rows.slice(at, at + ENRICHMENT_BATCH));
    const outcomes = (await Promise.all(batches.map((batch) => matchBatch(db, reference, enrichment, batch)))).flat();
    const done = await db.kysely.transaction().execute(async (tx) => {
      await sql`
        update enrichment_rows r
        set outcome = v.outcome, score = v.score, company_id = v.company_id, candidates = v.candidates,
          remembered = v.remembered
        from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
          as v(row_number int, outcome text, score real, company_id bigint, candidates jsonb, remembered boolean)
        where r.enrichment_id = ${id} and r.row_number = v.row_number`.execute(tx);
      const row = await tx
        .updateTable('enrichments')
        .set((eb) => ({ rows_done: eb('rows_done', '+', outcomes.length) }))
        .where('id', '=', id)
        .returning('rows_done')
        .executeTakeFirstOrThrow();
      return row.rows_done;
    });
    onProgress?.(done, enrichment.rowsTotal);
  }
  await db.kysely
    .updateTable('enrichments')
    .set({ status: 'done', finished_at: new Date(), rows_done: enrichment.rowsTotal })
    .where('id', '=', id)
    .execute();
  onProgress?.(enrichment.rowsTotal, enrichment.rowsTotal);
}

async function matchBatch(
  db: Db,
  reference: Reference,
  enrichment: { userId: number; mapping: Parameters<typeof rowQuery>[1] },
  rows: { row_number: number; cells: unknown }[],
): Promise<Outcome[]> {
  const queries = rows.map((r) =>
    rowQuery((typeof r.cells === 'string' ? JSON.parse(r.cells) : r.cells) as string[], enrichment.mapping),
  );
  const keys = queries.map(inputKey);
  const decisions = await rememberedDecisions(db, enrichment.userId, keys);
  const toMatch = queries.map((q, i) => ({ q, i })).filter(({ q, i }) => !decisions.has(keys[i]) && isMatchable(q));
  const results = await matchCompanies(
    db,
    reference,
    toMatch.map(({ q }) => q),
    { limit: 5 },
  );
  const resultOf = new Map(toMatch.map(({ i }, n) => [i, results[n]]));
  return rows.map((row, i): Outcome => {
    const decided = decisions.get(keys[i])?.companyId;
    if (decided !== undefined) {
      return {
        row_number: row.row_number,
        outcome: decided === null ? 'rejected' : 'accepted',
        score: null,
        company_id: decided,
        candidates: null,
        remembered: true,
      };
    }
    const result = resultOf.get(i);
    const candidates = (result?.candidates ?? []).map(
      (c): Candidate => ({
        id: c.id,
        uri: c.uri,
        name: c.name,
        country: c.country,
        score: c.score,
        // Kept as data, so that the review explains each in the reader's language (ADR 0032).
        features: c.features.map((f) => ({ id: f.id, value: f.value, reason: f.reason })),
      }),
    );
    const best = candidates[0];
    if (result?.match) {
      return {
        row_number: row.row_number,
        outcome: 'matched',
        score: result.match.score,
        company_id: result.match.id,
        candidates,
        remembered: false,
      };
    }
    const review = best !== undefined && best.score >= REVIEW_THRESHOLD;
    return {
      row_number: row.row_number,
      outcome: review ? 'review' : 'unmatched',
      score: best?.score ?? null,
      company_id: null,
      candidates: candidates.length > 0 ? candidates : null,
      remembered: false,
    };
  });
}
