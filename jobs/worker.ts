import { hostname } from 'node:os';
import type { z } from 'zod';
import { isSandbox, type PaymentProvider } from '../core/billing/payment-provider.ts';
import { renewSandboxSubscriptions } from '../core/billing/sandbox-renewals.ts';
import type { Translate } from '../core/email/account-emails.ts';
import type { Mailer } from '../core/email/mailer.ts';
import { enqueueExportExpiry } from '../core/export/export-jobs.ts';
import { claimJob, completeJob, failJob, releaseJob, requeueStale, retryDelayMs } from '../core/jobs/queue.ts';
import { enqueueDailyReports } from '../core/monitoring/enqueue-reports.ts';
import type { Lang, Reference } from '../core/reference/reference-data.ts';
import type { Db } from '../db/client.ts';
import { bulkDataJob, enqueueDailyBulkData } from './bulk-data.job.ts';
import { enrichmentJob } from './enrichment.job.ts';
import { exportExpiryJob, exportJob } from './export.job.ts';
import { monitoringReportsJob } from './monitoring-reports.job.ts';
import { deliverWebhooks } from './webhooks.ts';

// The worker loop (DESIGN.md "Jobs"): claims due jobs from the jobs table one at a time
// (core/jobs/queue.ts, FOR UPDATE SKIP LOCKED), runs their handler, and records success or failure
// (retried with a growing delay, then failed for good). It runs in the server process by default
// and as a process of its own with `npm run cli -- jobs work`; any number of them can share a
// database. Each tick it also takes back jobs of workers that died and enqueues the daily run,
// and every WEBHOOKS_EVERY_MS it collects and sends webhook deliveries (ADR 0018); with the sandbox
// payment provider it renews the subscriptions whose period is over (ADR 0019). Exports run here
// too, and expired ones are deleted hourly (ADR 0031).

export type JobServices = {
  db: Db;
  reference: Reference;
  mailer: Mailer;
  siteUrl: string;
  translate: (lang: Lang) => Translate;
  /** Webhooks may post to loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE_HOSTS; development only). */
  allowPrivateWebhookHosts?: boolean;
  /** The payment provider: the sandbox's subscriptions are renewed by the worker (ADR 0019). */
  payments?: PaymentProvider;
  /** Where the bulk data snapshots are written (BULK_DATA_DIR, ADR 0036). */
  bulkDataDir?: string;
};

export type JobLog = {
  info(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
};

export type JobDefinition<P> = {
  kind: string;
  payload: z.ZodType<P>;
  /**
   * Runs the job. `signal` aborts when the worker is stopped (the process shutting down): a long job
   * checks it between its steps and throws (`signal.throwIfAborted()`); the job then goes back to the
   * queue without its attempt counted (core/jobs/queue.ts releaseJob), and whatever the job marks
   * failed on its last attempt must not be marked so for an abort.
   */
  run(payload: P, context: { services: JobServices; log: JobLog; attempt: number; signal: AbortSignal }): Promise<void>;
};

/** Every kind of job there is. */
export const JOB_DEFINITIONS: JobDefinition<never>[] = [
  monitoringReportsJob as JobDefinition<never>,
  enrichmentJob as JobDefinition<never>,
  exportJob as JobDefinition<never>,
  exportExpiryJob as JobDefinition<never>,
  bulkDataJob as JobDefinition<never>,
];

export type WorkerOptions = {
  services: JobServices;
  log: JobLog;
  definitions?: JobDefinition<never>[];
  /** This worker's name in `jobs.locked_by` (default host:pid:n). */
  name?: string;
  /** How often an idle worker looks for work (default 2 s). */
  pollMs?: number;
  /** The delay before a failed job's next attempt (default core/jobs/queue.ts retryDelayMs). */
  retryDelay?: (attempts: number) => number;
  /** A running job older than this is taken back (default 15 minutes). */
  staleAfterMs?: number;
  /** Enqueue the daily reports run (default true). */
  daily?: boolean;
  /** How often a worker collects and sends webhook deliveries (default WEBHOOKS_EVERY_MS). */
  webhooksEveryMs?: number;
};

/** Webhooks are collected and sent every this often, by every worker (their SKIP LOCKED claims share the work). */
const WEBHOOKS_EVERY_MS = 10_000;
/** The sandbox's subscriptions whose period is over are renewed this often. */
const RENEWALS_EVERY_MS = 60_000;

let workers = 0;

/** Runs one due job, if there is one; true when it ran one (whatever the outcome). */
export async function runOneJob(
  options: WorkerOptions,
  name: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<boolean> {
  const definitions = options.definitions ?? JOB_DEFINITIONS;
  const job = await claimJob(
    options.services.db,
    name,
    definitions.map((d) => d.kind),
  );
  if (!job) return false;
  const definition = definitions.find((d) => d.kind === job.kind);
  try {
    if (!definition) throw new Error(`no handler for jobs of kind ${job.kind}`);
    const payload = definition.payload.safeParse(job.payload);
    if (!payload.success) throw new Error(`bad payload: ${payload.error.issues[0]?.message ?? 'invalid'}`);
    await definition.run(payload.data, {
      services: options.services,
      log: options.log,
      attempt: job.attempts,
      signal,
    });
    await completeJob(options.services.db, job.id);
  } catch (error) {
    if (signal.aborted) {
      // Stopped, not failed: queued again for the next worker.
      await releaseJob(options.services.db, job.id);
      options.log.info({ job: job.id, kind: job.kind }, 'job stopped by its worker; queued again');
      return true;
    }
    const status = await failJob(options.services.db, job, error, (options.retryDelay ?? retryDelayMs)(job.attempts));
    options.log.error(
      {
        job: job.id,
        kind: job.kind,
        attempt: job.attempts,
        status,
        err: error instanceof Error ? error.message : String(error),
      },
      status === 'failed' ? 'job failed for good' : 'job failed; it will be retried',
    );
  }
  return true;
}

/** Runs due jobs until none is left; returns how many ran. */
export async function drainJobs(options: WorkerOptions): Promise<number> {
  const name = options.name ?? `${hostname()}:${process.pid}:drain`;
  let ran = 0;
  while (await runOneJob(options, name)) ran += 1;
  return ran;
}

export type Worker = { stop(): Promise<void> };

/**
 * Starts the loop; `stop()` aborts the running job's signal (a long job stops at its next step and is
 * queued again; a short one may still finish) and ends the loop.
 */
export function startWorker(options: WorkerOptions): Worker {
  workers += 1;
  const name = options.name ?? `${hostname()}:${process.pid}:${workers}`;
  const pollMs = options.pollMs ?? 2000;
  let stopped = false;
  let webhooksAt = 0;
  let renewalsAt = 0;
  let wake: (() => void) | null = null;
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      try {
        await requeueStale(options.services.db, options.staleAfterMs ?? 15 * 60_000);
        if (options.daily !== false) {
          await enqueueDailyReports(options.services.db);
          // Exports kept past their days are deleted by an hourly job (docs/decisions/0031-export-jobs.md).
          await enqueueExportExpiry(options.services.db);
          // The daily snapshot where the process was given a place for it (server and CLI: BULK_DATA_DIR).
          if (options.services.bulkDataDir) await enqueueDailyBulkData(options.services.db);
        }
        if (Date.now() - webhooksAt >= (options.webhooksEveryMs ?? WEBHOOKS_EVERY_MS)) {
          webhooksAt = Date.now();
          await deliverWebhooks(options.services, options.log);
        }
        const { payments } = options.services;
        if (payments && isSandbox(payments) && Date.now() - renewalsAt >= RENEWALS_EVERY_MS) {
          renewalsAt = Date.now();
          const renewed = await renewSandboxSubscriptions({ db: options.services.db, payments });
          if (renewed > 0) options.log.info({ renewed }, 'sandbox subscriptions renewed');
        }
        while (!stopped && (await runOneJob(options, name, stopping.signal))) {
          // Drain what is due before sleeping.
        }
      } catch (error) {
        // The database away, say: log and try again on the next tick; the loop never dies.
        options.log.error({ err: error instanceof Error ? error.message : String(error) }, 'job worker tick failed');
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();
  return {
    async stop() {
      stopped = true;
      stopping.abort(new Error('the job worker is stopping'));
      (wake as (() => void) | null)?.();
      await loop;
    },
  };
}
