import { z } from 'zod';
import { buildMonitoringReports } from '../core/monitoring/build-reports.ts';
import { MONITORING_REPORTS_JOB } from '../core/monitoring/enqueue-reports.ts';
import { tellUsers } from '../core/monitoring/tell-users.ts';
import type { JobDefinition } from './worker.ts';

// Builds every tracking's reports up to the newest change, then tells the users who got some
// (notifications and one digest email each). Enqueued after imports and daily (core/monitoring/enqueue-reports.ts).

const Payload = z.object({
  reason: z.enum(['import', 'write', 'daily', 'manual']),
  import_id: z.number().int().optional(),
  day: z.string().optional(),
});

export const monitoringReportsJob: JobDefinition<z.infer<typeof Payload>> = {
  kind: MONITORING_REPORTS_JOB,
  payload: Payload,
  async run(_payload, { services, log }) {
    const built = await buildMonitoringReports(services.db, services.reference);
    const reports = [...built.users.values()].reduce((n, u) => n + u.updateReports.length + u.newReports.length, 0);
    const digests = await tellUsers(services.db, built, services);
    log.info({ upTo: built.upTo, users: built.users.size, reports, digests }, 'monitoring reports built');
  },
};
