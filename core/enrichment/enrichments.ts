import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { enrichmentCredits } from '../billing/catalogue.ts';
import { lockUser, recordCredits, spendCredits } from '../billing/ledger.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { AppError } from '../errors/app-error.ts';
import { compactIdentifier } from '../identifiers/normalize-identifier.ts';
import { enqueueJob } from '../jobs/queue.ts';
import type { FeatureReason } from '../matching/explain.ts';
import { countryOf, domainOf } from '../matching/features.ts';
import type { FeatureId, MatchQuery } from '../matching/match-companies.ts';
import { visibleCompanyIds } from '../takedowns/visible.ts';
import type { ColumnMapping } from './enrichment-fields.ts';
import { cleanMapping, isUsableMapping, rowQuery, type Upload } from './read-upload.ts';

// An enrichment's life (ADR 0020 "Enrichment"): an upload is kept as a draft (its rows as read,
// its columns guessed); running it charges the credits, marks it queued and enqueues its job in
// one transaction, so that there is never a charge without a job or a job without a charge; a
// run that fails for good gives the credits back (a reversal row) once. Review decisions are kept
// per user and normalised input, and the next upload's job applies them.

export const ENRICHMENT_JOB = 'enrichment';
/** Attempts of an enrichment's job before it fails for good (and is refunded). */
export const ENRICHMENT_ATTEMPTS = 3;

export type EnrichmentStatus = 'draft' | 'queued' | 'running' | 'done' | 'failed';
export type RowOutcome = 'matched' | 'review' | 'accepted' | 'rejected' | 'unmatched';

export type Enrichment = {
  id: number;
  userId: number;
  fileName: string;
  columns: string[];
  mapping: ColumnMapping;
  rowsTotal: number;
  rowsDone: number;
  credits: number;
  status: EnrichmentStatus;
  error: string | null;
  createdAt: string;
};

/** A candidate's feature as kept for the review: what was compared, as data (its words in any language, ADR 0032). */
export type CandidateFeature = { id: FeatureId; value: number; reason: FeatureReason };

export type Candidate = {
  id: number;
  uri: string;
  name: string;
  country: string | null;
  score: number;
  /** Absent on rows matched before the features were kept. */
  features?: CandidateFeature[];
};

/** Rows inserted per statement when an upload is kept. */
const INSERT_ROWS = 1_000;

const parseJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** Keeps an upload as a draft of the user's (nothing charged yet). */
export async function createEnrichment(
  db: Db,
  userId: number,
  upload: Upload,
  mapping: ColumnMapping,
): Promise<number> {
  return db.kysely.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('enrichments')
      .values({
        user_id: userId,
        file_name: upload.fileName.slice(0, 300),
        columns: JSON.stringify(upload.columns),
        mapping: JSON.stringify(mapping),
        rows_total: upload.rows.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    for (let at = 0; at < upload.rows.length; at += INSERT_ROWS) {
      await tx
        .insertInto('enrichment_rows')
        .values(
          upload.rows.slice(at, at + INSERT_ROWS).map((cells, i) => ({
            enrichment_id: id,
            row_number: at + i + 1,
            cells: JSON.stringify(cells),
          })),
        )
        .execute();
    }
    return id;
  });
}

/** One of the user's enrichments; another user's (or none) is a 404, never a 403 that would confirm it exists. */
export async function getEnrichment(db: Db, userId: number, id: number): Promise<Enrichment> {
  const row = await db.kysely
    .selectFrom('enrichments')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No enrichment of yours has this number.');
  return toEnrichment(row);
}

/** An enrichment by id, whoever's (the job's read). */
export async function getEnrichmentById(db: Db, id: number): Promise<Enrichment> {
  const row = await db.kysely.selectFrom('enrichments').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No enrichment #${id}.`);
  return toEnrichment(row);
}

function toEnrichment(row: {
  id: number;
  user_id: number;
  file_name: string;
  columns: unknown;
  mapping: unknown;
  rows_total: number;
  rows_done: number;
  credits: number;
  status: EnrichmentStatus;
  error: string | null;
  created_at: Date;
}): Enrichment {
  const columns = parseJson(row.columns) as string[];
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    fileName: row.file_name,
    columns,
    mapping: cleanMapping(parseJson(row.mapping), columns.length),
    rowsTotal: row.rows_total,
    rowsDone: row.rows_done,
    credits: row.credits,
    status: row.status,
    error: row.error,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The user's enrichments, newest first. */
export async function listEnrichments(db: Db, userId: number, limit = 20): Promise<Enrichment[]> {
  const rows = await db.kysely
    .selectFrom('enrichments')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toEnrichment);
}

/** What running a draft costs: credits for its rows (catalogue, ADR 0019). */
export function enrichmentCost(enrichment: Pick<Enrichment, 'rowsTotal'>): number {
  return enrichmentCredits(enrichment.rowsTotal);
}

/**
 * Runs a draft with the mapping chosen: in one transaction, the charge (402 when the balance is
 * short), the status and the job. A second submission finds it no longer a draft (409), so it is
 * charged once.
 */
export async function startEnrichment(db: Db, userId: number, id: number, mapping: ColumnMapping): Promise<number> {
  if (!isUsableMapping(mapping)) {
    throw new AppError(
      'bad_request',
      'mapping: choose the column of the company name, registration number, LEI, VAT number or website',
      { parameter: 'mapping' },
    );
  }
  return db.kysely.transaction().execute(async (tx) => {
    // The user's row first, as every spend takes it (spendCredits takes it again, already held),
    // then the enrichment's: a second submission waits here and then finds it no longer a draft.
    await lockUser(tx, userId);
    const enrichment = await tx
      .selectFrom('enrichments')
      .select(['id', 'rows_total', 'status'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!enrichment) throw new AppError('not_found', 'No enrichment of yours has this number.');
    if (enrichment.status !== 'draft') {
      throw new AppError('conflict', 'This enrichment has already been run.', { status: enrichment.status });
    }
    const credits = enrichmentCredits(enrichment.rows_total);
    const balance = await spendCredits(tx, userId, credits, 'enrichment', { note: `enrichment #${id}` });
    const jobId = await enqueueJob(
      tx,
      ENRICHMENT_JOB,
      { enrichment_id: id },
      { dedupeKey: `enrichment:${id}`, maxAttempts: ENRICHMENT_ATTEMPTS },
    );
    await tx
      .updateTable('enrichments')
      .set({ status: 'queued', credits, mapping: JSON.stringify(mapping), job_id: jobId })
      .where('id', '=', id)
      .execute();
    return balance;
  });
}

/**
 * Marks a run failed for good and gives its credits back (an `enrichment_refund` row): once, however
 * often it is called — only the call that moves the status to failed refunds.
 */
export async function failEnrichment(db: Db, id: number, error: string): Promise<boolean> {
  return db.kysely.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('enrichments')
      .set({ status: 'failed', error: error.slice(0, 2000), finished_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .returning(['user_id', 'credits'])
      .executeTakeFirst();
    if (!row) return false;
    if (row.credits > 0) {
      await recordCredits(tx, Number(row.user_id), row.credits, 'enrichment_refund', {
        note: `enrichment #${id} failed`,
      });
    }
    return true;
  });
}

/**
 * A row's input as the engine compares it (normalised name, country code, numbers and website
 * compacted): the key of a user's review decisions, so that "ACME GmbH; DE" and "Acme  gmbh; Germany" are one.
 */
export function inputKey(query: MatchQuery): string {
  return [
    query.name ? normalizeName(query.name) : '',
    query.country ? (countryOf(query.country) ?? query.country.trim().toLowerCase()) : '',
    query.registration_number ? compactIdentifier(query.registration_number) : '',
    query.lei ? compactIdentifier(query.lei) : '',
    query.vat ? compactIdentifier(query.vat) : '',
    query.domain ? (domainOf(query.domain) ?? '') : '',
  ].join('|');
}

export type ReviewRow = { rowNumber: number; cells: string[]; score: number | null; candidates: Candidate[] };

/** Rows waiting for the user's review (uncertain matches), in file order. */
export async function reviewRows(db: Db, userId: number, id: number, limit = 50): Promise<ReviewRow[]> {
  await getEnrichment(db, userId, id);
  const rows = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['row_number', 'cells', 'score', 'candidates'])
    .where('enrichment_id', '=', id)
    .where('outcome', '=', 'review')
    .orderBy('row_number')
    .limit(limit)
    .execute();
  const candidatesOf = rows.map((r) => (parseJson(r.candidates) as Candidate[] | null) ?? []);
  // The candidates are a copy made when the file was matched: a company taken down since is left out (ADR 0021).
  const visible = new Set(await visibleCompanyIds(db, [...new Set(candidatesOf.flat().map((c) => c.id))]));
  return rows.map((r, i) => ({
    rowNumber: r.row_number,
    cells: parseJson(r.cells) as string[],
    score: r.score,
    candidates: candidatesOf[i].filter((c) => visible.has(c.id)),
  }));
}

/** How many rows have each outcome. */
export async function outcomeCounts(db: Db, id: number): Promise<Record<RowOutcome, number>> {
  const rows = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['outcome', sql<number>`count(*)::int`.as('n')])
    .where('enrichment_id', '=', id)
    .where('outcome', 'is not', null)
    .groupBy('outcome')
    .execute();
  const counts: Record<RowOutcome, number> = { matched: 0, review: 0, accepted: 0, rejected: 0, unmatched: 0 };
  for (const r of rows) if (r.outcome) counts[r.outcome] = Number(r.n);
  return counts;
}

/**
 * The user's decision on a row: a company of its candidates (accept the best, or pick another) or
 * none (reject). Kept for the row and, by its normalised input, for the user's next uploads.
 */
export async function decideRow(
  db: Db,
  userId: number,
  id: number,
  rowNumber: number,
  companyId: number | null,
): Promise<{ outcome: 'accepted' | 'rejected'; company: Candidate | null }> {
  const enrichment = await getEnrichment(db, userId, id);
  if (enrichment.status !== 'done') throw new AppError('conflict', 'The enrichment has not finished yet.');
  const row = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['cells', 'candidates', 'outcome'])
    .where('enrichment_id', '=', id)
    .where('row_number', '=', rowNumber)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `row: the file has no row ${rowNumber}`, { parameter: 'row' });
  const candidates = (parseJson(row.candidates) as Candidate[] | null) ?? [];
  if (companyId !== null && !candidates.some((c) => c.id === companyId)) {
    throw new AppError('bad_request', 'company: choose one of the row’s candidates', { parameter: 'company' });
  }
  const key = inputKey(rowQuery(parseJson(row.cells) as string[], enrichment.mapping));
  // "None of these" names the candidates it rejects: the match API leaves them out (ADR 0032).
  const rejected = companyId === null ? candidates.map((c) => c.id) : [];
  await db.kysely.transaction().execute(async (tx) => {
    await tx
      .updateTable('enrichment_rows')
      .set({
        outcome: companyId === null ? 'rejected' : 'accepted',
        company_id: companyId,
        score: companyId === null ? null : (candidates.find((c) => c.id === companyId)?.score ?? null),
        remembered: false,
      })
      .where('enrichment_id', '=', id)
      .where('row_number', '=', rowNumber)
      .execute();
    await tx
      .insertInto('enrichment_decisions')
      .values({ user_id: userId, input_key: key, company_id: companyId, rejected })
      .onConflict((oc) =>
        oc.columns(['user_id', 'input_key']).doUpdateSet({ company_id: companyId, rejected, decided_at: new Date() }),
      )
      .execute();
  });
  return {
    outcome: companyId === null ? 'rejected' : 'accepted',
    company: candidates.find((c) => c.id === companyId) ?? null,
  };
}

/** Rows decided at once by "accept all at or above" (one statement each). */
const ACCEPT_BATCH = 1_000;

/**
 * "Accept all at or above N %": the best candidate (the first the public may still see) of every
 * row still to review whose score is at least `threshold` (0–1) is accepted, and remembered like a
 * decision made by hand. Answers the rows accepted, each with its company (in row order).
 */
export async function acceptAllAbove(
  db: Db,
  userId: number,
  id: number,
  threshold: number,
): Promise<{ rowNumber: number; company: Candidate }[]> {
  const enrichment = await getEnrichment(db, userId, id);
  if (enrichment.status !== 'done') throw new AppError('conflict', 'The enrichment has not finished yet.');
  const rows = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['row_number', 'cells', 'candidates'])
    .where('enrichment_id', '=', id)
    .where('outcome', '=', 'review')
    .orderBy('row_number')
    .execute();
  const candidatesOf = rows.map((r) => (parseJson(r.candidates) as Candidate[] | null) ?? []);
  const visible = new Set(await visibleCompanyIds(db, [...new Set(candidatesOf.flat().map((c) => c.id))]));
  const chosen = rows.flatMap((r, i) => {
    const best = candidatesOf[i].find((c) => visible.has(c.id));
    if (!best || best.score < threshold) return [];
    const key = inputKey(rowQuery(parseJson(r.cells) as string[], enrichment.mapping));
    return [{ row_number: r.row_number, company_id: best.id, score: best.score, key, company: best }];
  });
  const accepted: { rowNumber: number; company: Candidate }[] = [];
  for (let at = 0; at < chosen.length; at += ACCEPT_BATCH) {
    const batch = chosen.slice(at, at + ACCEPT_BATCH);
    const companyOf = new Map(batch.map((c) => [c.row_number, c.company]));
    const rows = batch.map(({ company: _company, ...row }) => row);
    const done = await db.kysely.transaction().execute(async (tx) => {
      // Only rows still to review: one decided meanwhile (another tab) keeps its decision.
      const updated = await sql<{ key: string; company_id: number; row_number: number }>`
        update enrichment_rows r
        set outcome = 'accepted', company_id = v.company_id, score = v.score, remembered = false
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(row_number int, company_id bigint, score real, key text)
        where r.enrichment_id = ${id} and r.row_number = v.row_number and r.outcome = 'review'
        returning v.key, v.company_id, v.row_number`.execute(tx);
      const decisions = new Map(updated.rows.map((row) => [row.key, Number(row.company_id)]));
      if (decisions.size > 0) {
        await tx
          .insertInto('enrichment_decisions')
          .values(
            [...decisions].map(([key, companyId]) => ({ user_id: userId, input_key: key, company_id: companyId })),
          )
          .onConflict((oc) =>
            oc.columns(['user_id', 'input_key']).doUpdateSet((eb) => ({
              company_id: eb.ref('excluded.company_id'),
              rejected: sql<number[]>`'{}'`,
              decided_at: new Date(),
            })),
          )
          .execute();
      }
      return updated.rows.map((row) => Number(row.row_number));
    });
    for (const rowNumber of done.sort((a, b) => a - b))
      accepted.push({ rowNumber, company: companyOf.get(rowNumber) as Candidate });
  }
  return accepted;
}

/** A row's decision as made: its outcome and the company accepted (for the page that shows it after the decision). */
export async function rowDecision(
  db: Db,
  userId: number,
  id: number,
  rowNumber: number,
): Promise<{ outcome: RowOutcome; company: Candidate | null } | null> {
  await getEnrichment(db, userId, id);
  const row = await db.kysely
    .selectFrom('enrichment_rows')
    .select(['outcome', 'company_id', 'candidates'])
    .where('enrichment_id', '=', id)
    .where('row_number', '=', rowNumber)
    .executeTakeFirst();
  if (!row?.outcome || (row.outcome !== 'accepted' && row.outcome !== 'rejected')) return null;
  const candidates = (parseJson(row.candidates) as Candidate[] | null) ?? [];
  const companyId = row.company_id === null ? null : Number(row.company_id);
  return { outcome: row.outcome, company: candidates.find((c) => c.id === companyId) ?? null };
}

/** A remembered review decision: the company chosen, or none (null) and the candidates rejected. */
export type RememberedDecision = { companyId: number | null; rejected: number[] };

/**
 * The user's remembered decisions for these input keys (inputKey). One home for the enrichment's
 * job and POST /api/match (ADR 0032); another user's decisions are never read.
 */
export async function rememberedDecisions(
  db: Db,
  userId: number,
  keys: string[],
): Promise<Map<string, RememberedDecision>> {
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('enrichment_decisions')
    .select(['input_key', 'company_id', 'rejected'])
    .where('user_id', '=', userId)
    .where('input_key', 'in', wanted)
    .execute();
  return new Map(
    rows.map((d) => [
      d.input_key,
      { companyId: d.company_id === null ? null : Number(d.company_id), rejected: (d.rejected ?? []).map(Number) },
    ]),
  );
}
