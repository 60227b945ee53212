// The whole app over a private copy of the test template, for `app.inject()` tests:
//
//   let t: TestApp;
//   beforeAll(async () => { t = await buildTestApp(); });
//   afterAll(() => t.close());
//   const response = await t.app.inject({ method: 'GET', url: '/api/health' });

import type { FastifyInstance } from 'fastify';
import { type ApiLimits, scaledApiLimits } from '../../core/api-keys/api-limits.ts';
import type { PaymentProvider } from '../../core/billing/payment-provider.ts';
import type { LegalNotice } from '../../core/legal/legal-notice.ts';
import type { Reference } from '../../core/reference/reference-data.ts';
import type { HelpDeskSettings } from '../../core/support/help-desk.ts';
import type { Db } from '../../db/client.ts';
import { type AppOptions, buildApp, type TrustProxy } from '../../server/app.ts';
import type { PageCacheOptions } from '../../server/plugins/page-cache.ts';
import { openTestDatabase } from './test-database.ts';

export type TestAppOptions = {
  /** Pages too: 'build' needs `npm run build` output; false (default) is the JSON API only. */
  pages?: 'build' | 'dev' | false;
  /** The public URL the app believes it has (links, canonical URLs). */
  siteUrl?: string;
  /** Fastify log level; 'silent' by default. */
  logLevel?: string;
  /** Proxies to believe (TRUST_PROXY); none by default, as in production. */
  trustProxy?: TrustProxy;
  /** Run the job worker in the app (monitoring reports); off by default: tests drain jobs themselves. */
  jobs?: { pollMs?: number };
  /** The payment provider (default: the sandbox with a secret of its own). */
  payments?: PaymentProvider;
  /**
   * Requests per hour of /api per plan. Tests make many calls from one address, so by default
   * the limits are far above the published ones; tests of the limits pass API_PLAN_LIMITS.
   */
  apiLimits?: ApiLimits;
  /** Who runs support tickets (default: the built-in desk). */
  helpDesk?: HelpDeskSettings;
  /** Webhooks may point at loopback (a local test server); off by default, as in production. */
  allowPrivateWebhookHosts?: boolean;
  /** The operator's legal notice (default: not set, as without LEGAL_* settings). */
  legalNotice?: LegalNotice;
  /** Keep guests' pages as production does (PAGE_CACHE_SECONDS); off by default. */
  pageCache?: PageCacheOptions;
  /** Told of every answer with its route's pattern (server/app.ts). */
  onResponse?: AppOptions['onResponse'];
  /** Where bulk data snapshots are kept (BULK_DATA_DIR; default var/bulk-data). */
  bulkDataDir?: string;
};

const TEST_API_LIMITS = scaledApiLimits(10_000);

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  reference: Reference;
  /** Closes the app, then the database. */
  close(): Promise<void>;
};

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { db, reference } = await openTestDatabase();
  try {
    const app = await buildApp({
      db,
      reference,
      siteUrl: options.siteUrl ?? 'http://localhost:3000',
      pages: options.pages ?? false,
      logLevel: options.logLevel ?? 'silent',
      trustProxy: options.trustProxy,
      jobs: options.jobs,
      payments: options.payments,
      apiLimits: options.apiLimits ?? TEST_API_LIMITS,
      helpDesk: options.helpDesk,
      allowPrivateWebhookHosts: options.allowPrivateWebhookHosts,
      legalNotice: options.legalNotice,
      pageCache: options.pageCache,
      onResponse: options.onResponse,
      bulkDataDir: options.bulkDataDir,
    });
    await app.ready();
    return {
      app,
      db,
      reference,
      close: async () => {
        await app.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
