import type { Db } from '../../db/client.ts';
import { enqueueJob } from '../jobs/queue.ts';

// When monitoring reports are built (docs/decisions/0015-monitoring.md): after each import, and
// once a day. One queued run at a time is enough — a run reports every change up to the newest —
// so a burst of imports adds one job, not one each.

export const MONITORING_REPORTS_JOB = 'monitoring-reports';

/** Called by the import framework once an import is done: its changes get reported. */
export function enqueueReportsAfterImport(db: Db, importId: number): Promise<number | null> {
  return enqueueJob(
    db,
    MONITORING_REPORTS_JOB,
    { reason: 'import', import_id: importId },
    { dedupeKey: MONITORING_REPORTS_JOB },
  );
}

/** Called by a writer of changes outside an import (a company's records, core/records/record-writes.ts). */
export function enqueueReportsAfterWrite(db: Db): Promise<number | null> {
  return enqueueJob(db, MONITORING_REPORTS_JOB, { reason: 'write' }, { dedupeKey: MONITORING_REPORTS_JOB });
}

/** The daily run (UTC day): enqueued once a day by whichever worker comes first. */
export function enqueueDailyReports(db: Db, now = new Date()): Promise<number | null> {
  const day = now.toISOString().slice(0, 10);
  return enqueueJob(
    db,
    MONITORING_REPORTS_JOB,
    { reason: 'daily', day },
    { dedupeKey: `${MONITORING_REPORTS_JOB}:daily:${day}`, once: true },
  );
}
