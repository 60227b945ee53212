import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { ApiLimits } from '../core/api-keys/api-limits.ts';
import {
  createPaddleProvider,
  createSandboxProvider,
  type PaddleSettings,
  type PaymentProvider,
} from '../core/billing/payment-provider.ts';
import type { Translate } from '../core/email/account-emails.ts';
import { createMailer, type MailSettings } from '../core/email/mailer.ts';
import { i18nFor } from '../core/i18n/i18n.ts';
import { watchDataVersion } from '../core/imports/data-version.ts';
import type { Lang } from '../core/reference/reference-data.ts';
import type { AppServices } from '../core/services.ts';
import { workStarted } from '../db/client.ts';
import { startWorker } from '../jobs/worker.ts';
import { registerApi } from './api/index.ts';
import { registerApiLimits } from './plugins/api-limits.ts';
import { registerCachePolicy } from './plugins/cache-policy.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerFlags } from './plugins/flags.ts';
import { createPageCache, type PageCacheOptions } from './plugins/page-cache.ts';
import { registerReconciliationAccess, withoutApiKey } from './plugins/reconciliation-access.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSessions } from './plugins/session.ts';
import { registerSitemaps } from './plugins/sitemaps.ts';
import { registerSsr } from './plugins/ssr.ts';
import { registerVisitors } from './plugins/visitors.ts';

/**
 * Which proxies' X-Forwarded-* headers to believe (TRUST_PROXY): none, the nearest `n` hops, or
 * the proxies' addresses and CIDR ranges. Client addresses (rate limits) and HTTPS come from them.
 */
export type TrustProxy = false | number | string[];

export type AppOptions = Omit<AppServices, 'mailer' | 'payments'> & {
  /** Paddle's keys; without them the sandbox provider takes payments (docs/decisions/0019-billing.md). */
  paddle?: PaddleSettings | null;
  /** A provider of the caller's (tests: the sandbox with a known secret); wins over `paddle`. */
  payments?: PaymentProvider;
  /** Outgoing mail; without SMTP settings (the default), emails stay in the development outbox. */
  mail?: MailSettings;
  /** Serve pages: 'build' (production build), 'dev' (Vite with hot reload) or false (API only). */
  pages: 'build' | 'dev' | false;
  logLevel?: string;
  /** Keep rendered pages for anonymous readers this long (off when absent or 0). */
  pageCache?: PageCacheOptions;
  /** Off by default: a client could then name any address in X-Forwarded-For. */
  trustProxy?: TrustProxy;
  /**
   * Poll the data's version this often (ms) and recount aggregates and drop kept pages when an
   * import (another process) changed the data: core/imports/data-version.ts. Off when absent.
   */
  watchDataMs?: number;
  /** Run the job worker in this process (jobs/worker.ts); off when absent (tests drain jobs themselves). */
  jobs?: { pollMs?: number };
  /** Requests per hour of /api per plan; the published ones (core/limits.ts) when absent. */
  apiLimits?: ApiLimits;
  /**
   * Tests: told of every answer, with its route's pattern (the OpenAPI statuses sweep records what
   * each operation answers: tests/integration/openapi-drift.test.ts).
   */
  onResponse?: (answer: { method: string; route: string | undefined; status: number }) => void;
};

/** The translate function of emails in a language. */
function translatorFor(lang: Lang): Translate {
  const { t } = i18nFor(lang);
  return (key, values) => (values ? t(key, values) : t(key));
}

/** Builds the whole app (API and pages) without listening, for main.ts and for tests (app.inject). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logLevel && options.logLevel !== 'silent'
        ? {
            level: options.logLevel,
            // Fastify's own fields, the URL without an API key given as a parameter (ADR 0034).
            serializers: {
              req: (request: FastifyRequest) => ({
                method: request.method,
                url: withoutApiKey(request.url),
                host: request.host,
                remoteAddress: request.ip,
                remotePort: request.socket?.remotePort,
              }),
            },
          }
        : false,
    trustProxy: trustProxySetting(options.trustProxy ?? false),
  });
  // Each request's statements carry its arrival, so that a busy pool serves the oldest request
  // first (db/client.ts, ADR 0024). Fastify runs the rest of the request, its body's parsing and
  // its handler included, within this hook's context.
  app.addHook('onRequest', (_request, _reply, done) => workStarted.run(performance.now(), done));
  const mailer = createMailer({
    db: options.db,
    settings: options.mail ?? { from: 'Registra <no-reply@localhost>' },
    log: app.log,
    translate: translatorFor,
  });
  const payments =
    options.payments ?? (options.paddle ? createPaddleProvider(options.paddle) : createSandboxProvider());
  const services: AppServices = {
    db: options.db,
    reference: options.reference,
    siteUrl: options.siteUrl,
    mailer,
    payments,
    reads: options.reads,
    helpDesk: options.helpDesk,
    allowPrivateWebhookHosts: options.allowPrivateWebhookHosts,
    legalNotice: options.legalNotice,
    bulkDataDir: options.bulkDataDir,
  };
  if (options.jobs) {
    const worker = startWorker({
      services: { ...services, translate: translatorFor },
      log: app.log,
      pollMs: options.jobs.pollMs,
    });
    // The running job finishes (and may still send mail) before the mailer closes.
    app.addHook('onClose', () => worker.stop());
  }
  app.addHook('onClose', () => mailer.close());
  await registerSecurityHeaders(app, { reportOnly: options.pages === 'dev', origins: payments.origins });
  // CORS and JSONP of the reconciliation service (ADR 0034): before compression (its JSONP text)
  // and the session and limit hooks (their errors carry the CORS headers).
  registerReconciliationAccess(app);
  await registerCompression(app);
  registerCachePolicy(app);
  registerErrorHandler(app);
  registerSessions(app, services);
  registerApiLimits(app, services, options.apiLimits);
  registerVisitors(app, services);
  const { onResponse } = options;
  if (onResponse) {
    app.addHook('onResponse', async (request, reply) => {
      onResponse({ method: request.method, route: request.routeOptions.url, status: reply.statusCode });
    });
  }
  await app.register(async (api) => registerApi(api, services), { prefix: '/api' });
  // robots.txt and the sitemaps (ADR 0021).
  registerSitemaps(app, services);
  // Flags as SVG files (ADR 0022).
  registerFlags(app);
  const pageCache =
    options.pageCache && options.pageCache.ttlSeconds > 0 && options.pages === 'build'
      ? createPageCache(options.pageCache)
      : undefined;
  if (options.pages) await registerSsr(app, services, options.pages === 'dev', pageCache);
  if (options.watchDataMs) {
    // The replicas' version too: their aggregates and the pages read from them change when the
    // replica has replayed the import, which may be a moment after the primary (ADR 0024).
    for (const db of new Set([options.db, options.reads ?? options.db])) {
      const stop = watchDataVersion(db, options.watchDataMs, () => pageCache?.clear());
      app.addHook('onClose', async () => stop());
    }
  }
  return app;
}

/**
 * Fastify's form of the setting. A hop count is a function: Fastify takes a bare number as "trust
 * nobody" (a hop count cannot tell a proxy from a client that sends the header itself), so a count
 * is only for a server reachable solely through its proxies — README says so; addresses are safer.
 */
function trustProxySetting(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return trust > 0 ? (_address: string, hop: number) => hop < trust : false;
  return trust;
}
