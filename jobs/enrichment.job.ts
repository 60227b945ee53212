import { z } from 'zod';
import { ENRICHMENT_ATTEMPTS, ENRICHMENT_JOB, failEnrichment } from '../core/enrichment/enrichments.ts';
import { runEnrichment } from '../core/enrichment/run-enrichment.ts';
import type { JobDefinition } from './worker.ts';

// Matches an enrichment's rows (core/enrichment/run-enrichment.ts); enqueued with its charge
// (core/enrichment/enrichments.ts startEnrichment). A failure is retried where it stopped; the
// last attempt's failure marks the enrichment failed and refunds its credits (ADR 0020 "Enrichment").

const Payload = z.object({ enrichment_id: z.number().int().positive() });

export const enrichmentJob: JobDefinition<z.infer<typeof Payload>> = {
  kind: ENRICHMENT_JOB,
  payload: Payload,
  async run(payload, { services, log, attempt, signal }) {
    try {
      await runEnrichment(services.db, services.reference, payload.enrichment_id, undefined, { signal });
      log.info({ enrichment: payload.enrichment_id }, 'enrichment done');
    } catch (error) {
      // Stopped by a shutdown: not a failure, the worker queues it again (jobs/worker.ts).
      if (attempt >= ENRICHMENT_ATTEMPTS && !signal.aborted) {
        await failEnrichment(
          services.db,
          payload.enrichment_id,
          error instanceof Error ? error.message : String(error),
        );
      }
      throw error;
    }
  },
};
