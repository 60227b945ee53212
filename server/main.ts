import cluster from 'node:cluster';
import { setImmediate } from 'node:timers/promises';
import { cachedLegalEntityCounts } from '../core/api/legal-entity-statistics.ts';
import { scaledApiLimits } from '../core/api-keys/api-limits.ts';
import { countCompaniesByIndustry, countCompaniesByJurisdiction } from '../core/companies/count-companies.ts';
import { ensureExportDocuments } from '../core/export/export-documents.ts';
import { i18nFor, LANGUAGES } from '../core/i18n/i18n.ts';
import { loadKnowledgeBase } from '../core/kb/load-knowledge-base.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { warmFacets } from '../core/search/facets.ts';
import { SECTIONS } from '../core/sections/sections.ts';
import { withAdvisoryLock } from '../db/advisory-lock.ts';
import { type Db, openPostgres } from '../db/client.ts';
import { openDatabase } from '../db/open-database.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';
import { openReplicaReads } from '../db/replicas.ts';
import { seedDemoOwnership } from '../db/seed/demo-ownership.ts';
import { seedCompanies } from '../db/seed/seed-companies.ts';
import { buildApp } from './app.ts';
import { superviseAppProcesses } from './app-processes.ts';
import { demoCompanies, helpDeskSettings, legalNoticeSettings, mailSettings, paddleSettings, readEnv } from './env.ts';
import { warmUp } from './warm-up.ts';

// A start-up failure (bad environment, database in use or unreachable) is one clear line, not a trace.
const startupFailure = (error: Error) => {
  console.error(`Registra could not start: ${error.message}`);
  process.exit(1);
};
process.on('uncaughtException', startupFailure);

const env = readEnv();
// The help desk's settings are checked before any work (a missing ZAMMAD_TOKEN stops start-up, named).
const helpDesk = helpDeskSettings(env);
const legalNotice = legalNoticeSettings(env);
const dev = process.argv.includes('--dev');
/** How long a stopping process waits for its requests and its running job before it exits anyway. */
const SHUTDOWN_DEADLINE_MS = 20_000;
// A site open to the public names its operator (Impressum, § 5 DDG); the page never invents one.
if (!dev && legalNotice === null)
  console.warn(
    'The legal notice is not set: /info/legal-notice/ says the operator has not set it. Set LEGAL_OPERATOR, LEGAL_ADDRESS and LEGAL_EMAIL (README, Configuration).',
  );
const started = Date.now();

/**
 * Migrations, reference data and demo data (once per database: processes starting together take
 * turns under advisory locks). Returns the database it opened, for start-up's long work only.
 */
async function prepareDatabase(): Promise<Db> {
  const setup = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await loadReferenceData(setup);
  // The help content (content/kb): only what changed since the last start is written (ADR 0021).
  await loadKnowledgeBase(setup);
  // Processes starting together on one database take turns: the first generates, the others find the rows.
  await withAdvisoryLock(setup, 'demo-data', async () => {
    const existing = await setup.kysely
      .selectFrom('legal_entities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // The first start generates the demo set; a start after an interrupted first one tops it up.
    const missing = demoCompanies(env) - Number(existing.n);
    if (missing > 0) {
      console.log(`Generating ${missing.toLocaleString('en')} demo companies…`);
      const seeded = await seedCompanies(setup, { companies: missing, seed: env.SEED });
      console.log(
        `Seeded ${seeded.companies.toLocaleString('en')} companies (${seeded.rows.toLocaleString('en')} rows).`,
      );
    }
    // A few ownership groups (GLEIF parents, persons with significant control), once per demo database.
    if (demoCompanies(env) > 0) await seedDemoOwnership(setup, env.SEED);
    // A database from before export documents (or an interrupted seed): built now if few, else logged with the command.
    await ensureExportDocuments(setup, (message) => console.log(message));
  });
  return setup;
}

const readyLine = (processes: number) =>
  `Registra is ready at http://localhost:${env.PORT} (${env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`}${processes > 1 ? `, ${processes} processes` : ''}, ${((Date.now() - started) / 1000).toFixed(1)} s)`;

// WEB_CONCURRENCY > 1 (PostgreSQL only, server/env.ts): this process prepares the database once,
// then runs that many app processes sharing the port (Node's cluster) and replaces one that dies.
// Everything a request relies on is in the database, so any process may answer any request
// (docs/decisions/0024-processes-and-replicas.md).
if (cluster.isPrimary && env.WEB_CONCURRENCY > 1) {
  await (await prepareDatabase()).close();
  process.off('uncaughtException', startupFailure);
  superviseAppProcesses({
    count: env.WEB_CONCURRENCY,
    onReady: () => console.log(readyLine(env.WEB_CONCURRENCY)),
    onStartFailure: (code) => {
      console.error(`Registra could not start: an app process exited with ${code} while starting`);
      process.exit(1);
    },
  });
} else {
  await serve(cluster.isPrimary ? await prepareDatabase() : undefined);
}

/** Serves the app in this process; `setup` is the database start-up prepared, when this process did. */
async function serve(setup: Db | undefined): Promise<void> {
  // Requests' statements are bounded on PostgreSQL (STATEMENT_TIMEOUT_SECONDS): the pool of start-up's
  // long work (migrations, seeding, index builds) gives way to one whose statements the server
  // cancels past the bound, a 503 for the request. PGlite has one connection and no other session.
  const statementTimeout =
    env.STATEMENT_TIMEOUT_SECONDS > 0 ? { statementTimeoutMs: env.STATEMENT_TIMEOUT_SECONDS * 1000 } : {};
  const db =
    env.DATABASE_URL && (!setup || env.STATEMENT_TIMEOUT_SECONDS > 0)
      ? await openPostgres(env.DATABASE_URL, 10, statementTimeout)
      : (setup as Db);
  if (setup && db !== setup) await setup.close();
  // Stale-tolerant reads on streaming replicas (docs/decisions/0024-processes-and-replicas.md).
  const reads =
    env.DATABASE_REPLICA_URLS.length > 0
      ? await openReplicaReads(db, env.DATABASE_REPLICA_URLS, {
          maxLagMs: env.DATABASE_REPLICA_MAX_LAG_SECONDS * 1000,
          ...statementTimeout,
        })
      : undefined;
  const reference = await loadReference(db);
  const app = await buildApp({
    db,
    reads,
    reference,
    siteUrl: env.SITE_URL,
    pages: dev ? 'dev' : 'build',
    logLevel: env.LOG_LEVEL,
    pageCache: { ttlSeconds: env.PAGE_CACHE_SECONDS, maxBytes: env.PAGE_CACHE_MB * 1024 * 1024 },
    trustProxy: env.TRUST_PROXY,
    mail: mailSettings(env),
    paddle: paddleSettings(env),
    helpDesk,
    legalNotice,
    bulkDataDir: env.BULK_DATA_DIR,
    // An import by the CLI (another process) shows within seconds: core/imports/data-version.ts.
    watchDataMs: 2000,
    apiLimits: scaledApiLimits(env.API_LIMIT_FACTOR),
    allowPrivateWebhookHosts: env.WEBHOOKS_ALLOW_PRIVATE_HOSTS === '1',
    jobs: env.JOBS_WORKER === 'on' ? {} : undefined,
  });

  let closing = false;
  const shutdown = async () => {
    // Once: Ctrl-C reaches every process of a terminal's group, and the supervisor then sends SIGTERM too.
    if (closing) return;
    closing = true;
    // Requests and the running job are given a bound: a long job stops at its next step (its
    // signal, jobs/worker.ts) and is queued again; whatever still holds the process after the bound
    // does not keep it alive.
    setTimeout(() => {
      console.error(`Shutdown took longer than ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting anyway.`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await app.close();
    await reads?.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  // The whole-table counts behind facets, panels, section totals and statistics (refreshed in the
  // background as they age), made before the server reports ready, so that no reader waits for one.
  // PostgreSQL counts before listening. PGlite listens first and answers between the statements: it
  // has one connection and runs a statement without yielding, so they run one at a time with a turn
  // of the event loop in between. Returns what to log once listening (scripts wait for that line).
  const pagesDb = reads ?? db;
  const countForPages = async (): Promise<() => void> => {
    const counting = Date.now();
    try {
      await countCompaniesByJurisdiction(pagesDb);
      await setImmediate();
      await countCompaniesByIndustry(pagesDb, reference);
      await setImmediate();
      await warmFacets(pagesDb, reference, SECTIONS);
      // The statistics of the home page and the directories.
      await cachedLegalEntityCounts(pagesDb).counts;
      const seconds = (Date.now() - counting) / 1000;
      return () => console.log(`Facet counts ready (${seconds.toFixed(1)} s)`);
    } catch (error) {
      // Not fatal: each count is then made by the first request that needs it.
      return () => console.error(`Counting facets failed: ${(error as Error).message}`);
    }
  };
  const counted = db.kind === 'postgres' ? await countForPages() : undefined;
  // Each language's translations, built once and shared with the pages (the first page in a language paid for it).
  for (const { lang } of LANGUAGES) i18nFor(lang);
  // Each page a visitor may ask for first, answered once before listening (ADR 0041): its modules,
  // compiled code and the sessions' catalog caches are then ready for the first real request.
  // PostgreSQL only, as the counts: PGlite answers between statements once listening.
  const warmed =
    db.kind === 'postgres' && env.WARM_UP === 'on'
      ? await warmUp(app, pagesDb, (message) => console.warn(message))
      : undefined;

  try {
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${env.PORT} is already in use: stop the other server or set PORT to a free port.`
        : `Could not listen on port ${env.PORT}: ${(error as Error).message}`,
    );
    await db.close();
    process.exit(1);
  }
  process.off('uncaughtException', startupFailure);
  const reportCounts = counted ?? (await countForPages());
  reportCounts();
  if (warmed) console.log(`Warmed ${warmed.pages} pages (${warmed.seconds.toFixed(1)} s)`);
  // One process says it is ready; an app process of several tells the supervising one.
  if (cluster.isPrimary) console.log(readyLine(1));
  else process.send?.({ ready: true });
}
