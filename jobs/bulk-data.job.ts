import { z } from 'zod';
import { buildBulkSnapshot } from '../core/bulk/build-bulk-snapshot.ts';
import { bulkDataDirOf } from '../core/bulk/bulk-data-dir.ts';
import { enqueueJob } from '../core/jobs/queue.ts';
import type { Db } from '../db/client.ts';
import type { JobDefinition } from './worker.ts';

// Builds the daily bulk data snapshot and its change files (ADR 0036); enqueued once a UTC day by
// whichever worker comes first; `npm run cli -- bulk build` builds one at once.

export const BULK_DATA_JOB = 'bulk-data';

const Payload = z.object({ reason: z.enum(['daily', 'manual']), day: z.string().optional() });

export const bulkDataJob: JobDefinition<z.infer<typeof Payload>> = {
  kind: BULK_DATA_JOB,
  payload: Payload,
  async run(_payload, { services, log, signal }) {
    const started = Date.now();
    const manifest = await buildBulkSnapshot(services.db, services.reference, {
      dir: bulkDataDirOf(services),
      signal,
    });
    const companies = manifest.files.find((f) => f.section === 'companies' && f.kind === 'snapshot')?.rows ?? 0;
    log.info(
      { snapshot: manifest.snapshot, companies, files: manifest.files.length, ms: Date.now() - started },
      'bulk data snapshot built',
    );
  },
};

/** The daily snapshot (UTC day): once a day whatever its outcome; a failed build is retried by the queue. */
export function enqueueDailyBulkData(db: Db, now = new Date()): Promise<number | null> {
  const day = now.toISOString().slice(0, 10);
  return enqueueJob(
    db,
    BULK_DATA_JOB,
    { reason: 'daily', day },
    { dedupeKey: `${BULK_DATA_JOB}:daily:${day}`, once: true },
  );
}
