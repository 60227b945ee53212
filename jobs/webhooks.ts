import { collectDeliveries, sendDueDeliveries } from '../core/webhooks/deliveries.ts';
import type { JobLog, JobServices } from './worker.ts';

// The webhooks' part of a worker tick (docs/decisions/0018-change-feed-and-webhooks.md): new changes
// of tracked companies become deliveries, then the due deliveries are sent. Not a queued job: it
// runs on every worker's tick, and its claims (SKIP LOCKED) keep workers from doing it twice.

export async function deliverWebhooks(services: JobServices, log: JobLog): Promise<void> {
  const collected = await collectDeliveries(services.db, services.reference);
  const sent = await sendDueDeliveries(services.db, {
    allowPrivateHosts: services.allowPrivateWebhookHosts ?? false,
    reference: services.reference,
  });
  if (collected + sent.delivered + sent.retrying + sent.failed > 0) log.info({ collected, ...sent }, 'webhooks');
}
