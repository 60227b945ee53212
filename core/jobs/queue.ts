import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

// The jobs table (migration 0015) as a queue: enqueue, claim with SELECT … FOR UPDATE SKIP LOCKED
// (any number of workers, in any number of processes, never take the same job), complete, and fail
// — retried later with a growing delay until `max_attempts`, then kept as `failed` with its error.
// A job left `running` by a worker that died is taken back after a while (requeueStale).

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export type ClaimedJob = { id: number; kind: string; payload: unknown; attempts: number; max_attempts: number };

export type EnqueueOptions = {
  /** At most one queued job per key: enqueuing while one waits adds nothing. */
  dedupeKey?: string;
  /** Only when no job ever had this key (a daily run, once a day whatever its status). */
  once?: boolean;
  runAt?: Date;
  maxAttempts?: number;
};

/** Adds a job (inside the caller's transaction when given one); returns its id, or null when one with its key is already waiting (or ran, with `once`). */
export async function enqueueJob(
  db: Db | Kysely<Database>,
  kind: string,
  payload: Record<string, unknown> = {},
  options: EnqueueOptions = {},
): Promise<number | null> {
  const key = options.dedupeKey ?? null;
  const result = await sql<{ id: string | number }>`
    insert into jobs (kind, payload, dedupe_key, run_at, max_attempts)
    select ${kind}, ${JSON.stringify(payload)}::jsonb, ${key}::text, ${options.runAt ?? new Date()},
      ${options.maxAttempts ?? 5}
    where not ${options.once === true} or not exists (select 1 from jobs where dedupe_key = ${key}::text)
    on conflict (dedupe_key) where status = 'queued' and dedupe_key is not null do nothing
    returning id`.execute('kysely' in db ? db.kysely : db);
  return result.rows[0] ? Number(result.rows[0].id) : null;
}

/**
 * Takes the oldest job that is due (of these kinds, when given) for `worker`: one statement, whose
 * inner select skips rows another worker's statement holds, so two workers never take one job.
 */
export async function claimJob(db: Db, worker: string, kinds?: string[]): Promise<ClaimedJob | null> {
  const only = kinds && kinds.length > 0 ? sql`and kind in (${sql.join(kinds)})` : sql``;
  const result = await sql<{
    id: string | number;
    kind: string;
    payload: unknown;
    attempts: number;
    max_attempts: number;
  }>`
    update jobs set status = 'running', attempts = attempts + 1, locked_by = ${worker}, locked_at = now()
    where id = (
      select id from jobs where status = 'queued' and run_at <= now() ${only}
      order by run_at, id limit 1 for update skip locked)
    returning id, kind, payload, attempts, max_attempts`.execute(db.kysely);
  const row = result.rows[0];
  if (!row) return null;
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return { id: Number(row.id), kind: row.kind, payload, attempts: row.attempts, max_attempts: row.max_attempts };
}

export async function completeJob(db: Db, id: number): Promise<void> {
  await db.kysely
    .updateTable('jobs')
    .set({ status: 'done', finished_at: new Date(), locked_by: null, locked_at: null })
    .where('id', '=', id)
    .execute();
}

/** The delay before a failed job's next attempt: 30 s, 1, 2, 4 … minutes, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Records a failure: the job waits `delayMs` and runs again, or — its attempts spent — is marked
 * failed for good with the error (what `jobs list` and the log show). Returns the new status.
 */
export async function failJob(
  db: Db,
  job: Pick<ClaimedJob, 'id' | 'attempts' | 'max_attempts'>,
  error: unknown,
  delayMs = retryDelayMs(job.attempts),
): Promise<'queued' | 'failed'> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  const final = job.attempts >= job.max_attempts;
  await db.kysely
    .updateTable('jobs')
    .set({
      status: final ? 'failed' : 'queued',
      last_error: message,
      locked_by: null,
      locked_at: null,
      run_at: new Date(Date.now() + delayMs),
      finished_at: final ? new Date() : null,
    })
    .where('id', '=', job.id)
    .execute();
  return final ? 'failed' : 'queued';
}

/**
 * A job its worker stopped on purpose (the process shutting down): back to the queue at once, the
 * attempt not counted — it did not fail, it was interrupted, and runs again from its start (or, for
 * a job that keeps its place, from there) on the next worker.
 */
export async function releaseJob(db: Db, id: number): Promise<void> {
  await db.kysely
    .updateTable('jobs')
    .set({
      status: 'queued',
      attempts: sql<number>`greatest(attempts - 1, 0)`,
      locked_by: null,
      locked_at: null,
      last_error: 'its worker shut down while running it; it runs again',
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** Jobs running for longer than `olderThanMs` (their worker died) go back to the queue; returns how many. */
export async function requeueStale(db: Db, olderThanMs: number): Promise<number> {
  const result = await db.kysely
    .updateTable('jobs')
    .set({ status: 'queued', locked_by: null, locked_at: null, last_error: 'the worker running it stopped' })
    .where('status', '=', 'running')
    .where('locked_at', '<', new Date(Date.now() - olderThanMs))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type JobSummary = {
  id: number;
  kind: string;
  status: JobStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
};

/** The newest jobs (the CLI's `jobs list`). */
export async function recentJobs(db: Db, limit = 20): Promise<JobSummary[]> {
  const rows = await db.kysely
    .selectFrom('jobs')
    .select(['id', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'finished_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    status: r.status,
    attempts: r.attempts,
    last_error: r.last_error,
    created_at: new Date(r.created_at).toISOString(),
    finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  }));
}
