import type { Db } from '../../db/client.ts';
import { siteLink } from '../accounts/account-links.ts';
import { exportCredits } from '../billing/catalogue.ts';
import { creditBalance, lockUser, recordCredits, spendCredits } from '../billing/ledger.ts';
import type { Mailer } from '../email/mailer.ts';
import { AppError } from '../errors/app-error.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { notify } from '../notifications/notifications.ts';
import type { Lang, Reference } from '../reference/reference-data.ts';
import { exportRequestOf } from './export-call.ts';
import { dropExportFile, exportFileSink } from './export-files.ts';
import { expectedExportRows, exportFileOf, prepareExport } from './run-export.ts';

// Exports as background jobs (docs/decisions/0031-export-jobs.md). Starting one checks the call
// as the download does, counts its rows, and — in one transaction — charges them (ADR 0019),
// keeps the export and enqueues its job: never a charge without a job or a job without a charge.
// The worker writes the file into the database with its progress; an export that fails for good
// gives its credits back once (an `export_refund` row). Done, the user is notified (and emailed
// when their settings say so); the file is kept EXPORT_KEEP_DAYS, then an hourly job deletes it.

export const EXPORT_JOB = 'export';
export const EXPORT_EXPIRY_JOB = 'export-expiry';
/** Attempts of an export's job before it fails for good (and is refunded). */
export const EXPORT_JOB_ATTEMPTS = 3;
/** Days a finished (or failed) export is kept and listed. */
export const EXPORT_KEEP_DAYS = 7;
const DAY_MS = 86_400_000;

export type ExportJobStatus = 'queued' | 'running' | 'done' | 'failed';

export type ExportJob = {
  id: number;
  userId: number;
  section: string;
  /** The download's parameters (format, scope, the search's filters…). */
  params: string;
  fileName: string;
  contentType: string;
  status: ExportJobStatus;
  rowsTotal: number;
  rowsWritten: number;
  credits: number;
  sizeBytes: number | null;
  etag: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string;
};

type Row = {
  id: number | string;
  user_id: number | string;
  section: string;
  params: string;
  file_name: string;
  content_type: string;
  status: ExportJobStatus;
  rows_total: number;
  rows_written: number;
  credits: number;
  size_bytes: number | string | null;
  etag: string | null;
  error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
  expires_at: Date | string;
};

function toExportJob(row: Row): ExportJob {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    section: row.section,
    params: row.params,
    fileName: row.file_name,
    contentType: row.content_type,
    status: row.status,
    rowsTotal: row.rows_total,
    rowsWritten: row.rows_written,
    credits: row.credits,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    etag: row.etag,
    error: row.error,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/** The share of rows written, 0–100 (a done export is 100, an empty one too). */
export function exportProgress(job: Pick<ExportJob, 'status' | 'rowsTotal' | 'rowsWritten'>): number {
  if (job.status === 'done') return 100;
  if (job.rowsTotal === 0) return 0;
  return Math.min(99, Math.floor((job.rowsWritten / job.rowsTotal) * 100));
}

/**
 * Starts an export of the user's: the call checked (400 naming a bad parameter, 404 for a list
 * not theirs), its rows counted, and the charge, the export and its job in one transaction (402
 * when the balance is short: nothing is kept). Returns the export and the balance after.
 */
export async function startExportJob(
  db: Db,
  reference: Reference,
  userId: number,
  sectionId: string,
  params: URLSearchParams,
  now = new Date(),
): Promise<{ job: ExportJob; balance: number }> {
  const request = await exportRequestOf(db, reference, userId, sectionId, params);
  const rows = await expectedExportRows(db, reference, request);
  const credits = exportCredits(rows);
  const { fileName, contentType } = exportFileOf({ ...request, now });
  return db.kysely.transaction().execute(async (tx) => {
    // The user's row first, as every spend takes it (spendCredits takes it again, already held).
    await lockUser(tx, userId);
    const row = await tx
      .insertInto('export_jobs')
      .values({
        user_id: userId,
        section: request.section.id,
        params: params.toString(),
        file_name: fileName,
        content_type: contentType,
        rows_total: rows,
        credits,
        created_at: now,
        expires_at: new Date(now.getTime() + EXPORT_KEEP_DAYS * DAY_MS),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    const balance =
      credits > 0
        ? await spendCredits(tx, userId, credits, 'export', {
            note: `${request.section.id}: ${rows} rows, export #${id}`,
          })
        : await creditBalance(tx, userId);
    const jobId = await enqueueJob(
      tx,
      EXPORT_JOB,
      { export_job_id: id },
      { dedupeKey: `export:${id}`, maxAttempts: EXPORT_JOB_ATTEMPTS },
    );
    await tx.updateTable('export_jobs').set({ job_id: jobId }).where('id', '=', id).execute();
    return { job: toExportJob({ ...row, job_id: jobId } as Row), balance };
  });
}

/** One of the user's exports; another user's (or none, or one expired) is a 404, never a 403 that would confirm it exists. */
export async function getExportJob(db: Db, userId: number, id: number, now = new Date()): Promise<ExportJob> {
  const row = await db.kysely
    .selectFrom('export_jobs')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No export of yours has this number.');
  return toExportJob(row);
}

/** The user's exports of the last EXPORT_KEEP_DAYS, newest first. */
export async function listExportJobs(db: Db, userId: number, limit = 50, now = new Date()): Promise<ExportJob[]> {
  const rows = await db.kysely
    .selectFrom('export_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toExportJob);
}

export type ExportJobServices = {
  db: Db;
  reference: Reference;
  mailer?: Mailer;
  siteUrl?: string;
  translate?: (lang: Lang) => (key: string, options?: Record<string, unknown>) => string;
};

/**
 * Writes an export's file (the worker's part): marked running, an earlier attempt's chunks
 * dropped, the rows read in batches and written into the database as they come, the rows written
 * kept up to date for the progress; then done, and the user told. An export already done or
 * failed is left as it is. Returns the rows written (null when there was nothing to do).
 */
export async function runExportJob(
  services: ExportJobServices,
  id: number,
  signal?: AbortSignal,
): Promise<number | null> {
  const { db, reference } = services;
  const row = await db.kysely
    .updateTable('export_jobs')
    .set({ status: 'running', started_at: new Date(), rows_written: 0, error: null })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  const job = toExportJob(row);
  await dropExportFile(db, id);
  const request = await exportRequestOf(db, reference, job.userId, job.section, new URLSearchParams(job.params));
  const prepared = await prepareExport(db, reference, { ...request, now: new Date(job.createdAt) });
  const { sink, stored } = exportFileSink(db, id);
  let progress = Promise.resolve();
  const written = await prepared.write(sink, (rows) => {
    // A worker shutting down stops the export between two batches; its next attempt starts over.
    signal?.throwIfAborted();
    // One small update per batch of rows, in order; the last is awaited before the end.
    progress = progress.then(async () => {
      await db.kysely.updateTable('export_jobs').set({ rows_written: rows }).where('id', '=', id).execute();
    });
  });
  const file = await stored;
  await progress;
  const done = await db.kysely
    .updateTable('export_jobs')
    .set({
      status: 'done',
      rows_written: written,
      size_bytes: file.size,
      etag: file.etag,
      finished_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  if (done) await tellExportDone(services, { ...job, rowsWritten: written });
  return written;
}

/**
 * Marks an export failed for good, drops what it wrote and gives its credits back (an
 * `export_refund` row): once, however often it is called — only the call that moves the status to
 * failed refunds. The user is notified.
 */
export async function failExportJob(db: Db, id: number, error: string): Promise<boolean> {
  const failed = await db.kysely.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('export_jobs')
      .set({ status: 'failed', error: error.slice(0, 2000), finished_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .returning(['user_id', 'credits', 'file_name'])
      .executeTakeFirst();
    if (!row) return null;
    if (row.credits > 0) {
      await recordCredits(tx, Number(row.user_id), row.credits, 'export_refund', {
        note: `export #${id} failed, given back`,
      });
    }
    return row;
  });
  if (!failed) return false;
  await dropExportFile(db, id);
  await notify(db, Number(failed.user_id), 'export_failed', { export: String(id), name: failed.file_name });
  return true;
}

/** The dashboard's notification, and an email when the user's notification settings ask for one (ADR 0011). */
async function tellExportDone(services: ExportJobServices, job: ExportJob): Promise<void> {
  const { db } = services;
  await notify(db, job.userId, 'export_ready', {
    export: String(job.id),
    name: job.fileName,
    count: String(job.rowsWritten),
  });
  if (!services.mailer || !services.siteUrl) return;
  const user = await db.kysely
    .selectFrom('users')
    .select(['email', 'name', 'language', 'email_notifications', 'activated_at'])
    .where('id', '=', job.userId)
    .executeTakeFirst();
  if (!user?.activated_at || !user.email_notifications.includes('export_ready')) return;
  const lang = user.language as Lang;
  await services.mailer.sendAccountEmail('export_ready', {
    to: user.email,
    name: user.name,
    lang,
    link: siteLink(services.siteUrl, lang, `/dashboard/exports/${job.id}/`),
  });
}

/** Deletes the exports whose EXPORT_KEEP_DAYS are over (their files go with them); returns how many. */
export async function deleteExpiredExports(db: Db, now = new Date()): Promise<number> {
  const result = await db.kysely.deleteFrom('export_jobs').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Enqueues the deletion of expired exports once an hour (every worker's tick asks; the first wins). */
export async function enqueueExportExpiry(db: Db, now = new Date()): Promise<void> {
  const hour = now.toISOString().slice(0, 13);
  await enqueueJob(db, EXPORT_EXPIRY_JOB, {}, { dedupeKey: `${EXPORT_EXPIRY_JOB}:${hour}`, once: true });
}
