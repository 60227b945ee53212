import type { Db } from '../db/client.ts';
import type { PaymentProvider } from './billing/payment-provider.ts';
import type { Mailer } from './email/mailer.ts';
import type { LegalNotice } from './legal/legal-notice.ts';
import type { Reference } from './reference/reference-data.ts';
import type { HelpDeskSettings } from './support/help-desk.ts';

/** What the JSON API and the web app's loaders and actions get from the server. */
export type AppServices = {
  /** The primary: writes, and every read of a user's own data (read back at once). */
  db: Db;
  /**
   * Reads that may be a moment stale — search, profiles, directories, the public data API: read
   * replicas when DATABASE_REPLICA_URLS names some (db/replicas.ts), else absent (the primary).
   */
  reads?: Db;
  reference: Reference;
  siteUrl: string;
  mailer: Mailer;
  /** Who takes payments: Paddle when configured, else the sandbox (core/billing/payment-provider.ts). */
  payments: PaymentProvider;
  /** Who runs support tickets: the built-in desk (absent) or Zammad (HELPDESK=zammad, ADR 0021). */
  helpDesk?: HelpDeskSettings;
  /**
   * Webhooks may point at loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE_HOSTS: development
   * and tests only); else they are refused when made and when sent (core/webhooks/public-hosts.ts).
   */
  allowPrivateWebhookHosts?: boolean;
  /** Who operates the site, for the legal notice (LEGAL_* settings); absent or null: not set. */
  legalNotice?: LegalNotice | null;
  /** Where the bulk data snapshots are kept (BULK_DATA_DIR, ADR 0036); absent: var/bulk-data. */
  bulkDataDir?: string;
};

/** The request as the server saw it: the client's address and agent, HTTPS or not, and the origins that are this site. */
export type ClientRequest = { ip: string; userAgent: string; secure: boolean; siteOrigins: string[] };

/** The database of stale-tolerant reads (docs/decisions/0024-processes-and-replicas.md): the replicas', else the primary. */
export function staleReads(services: Pick<AppServices, 'db' | 'reads'>): Db {
  return services.reads ?? services.db;
}
