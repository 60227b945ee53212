import { z } from 'zod';
import {
  deleteExpiredExports,
  EXPORT_EXPIRY_JOB,
  EXPORT_JOB,
  EXPORT_JOB_ATTEMPTS,
  failExportJob,
  runExportJob,
} from '../core/export/export-jobs.ts';
import type { JobDefinition } from './worker.ts';

// An export's file (core/export/export-jobs.ts runExportJob), enqueued with its charge. A failure
// is retried from the start; the last attempt's failure marks the export failed and refunds its
// credits (docs/decisions/0031-export-jobs.md). A job whose worker died is taken back by the
// queue (requeueStale) and counts an attempt: past the last one it is failed and refunded, never
// left running.

const Payload = z.object({ export_job_id: z.number().int().positive() });

export const exportJob: JobDefinition<z.infer<typeof Payload>> = {
  kind: EXPORT_JOB,
  payload: Payload,
  async run(payload, { services, log, attempt, signal }) {
    const id = payload.export_job_id;
    if (attempt > EXPORT_JOB_ATTEMPTS) {
      // Its workers stopped while running it, attempt after attempt.
      await failExportJob(services.db, id, 'the export stopped too often');
      throw new Error(`export #${id}: its attempts are spent`);
    }
    try {
      const rows = await runExportJob(services, id, signal);
      log.info({ export: id, rows }, 'export done');
    } catch (error) {
      // Stopped by a shutdown: not a failure, the worker queues it again (jobs/worker.ts).
      if (attempt >= EXPORT_JOB_ATTEMPTS && !signal.aborted) {
        await failExportJob(services.db, id, error instanceof Error ? error.message : String(error));
      }
      throw error;
    }
  },
};

/** Deletes the exports kept longer than EXPORT_KEEP_DAYS, with their files. */
const NoPayload = z.object({});

export const exportExpiryJob: JobDefinition<z.infer<typeof NoPayload>> = {
  kind: EXPORT_EXPIRY_JOB,
  payload: NoPayload,
  async run(_payload, { services, log }) {
    const deleted = await deleteExpiredExports(services.db);
    if (deleted > 0) log.info({ deleted }, 'expired exports deleted');
  },
};
