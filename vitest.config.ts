import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import UnitFirstSequencer from './tests/support/sequencer.ts';

// Three tiers (STYLE.md): unit (pure core/ logic), integration (the app through app.inject() over
// a real database: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set), e2e (real Chromium).
// `npm test` runs them all; `npx vitest run --project unit` runs one.

const GLOBAL_SETUP = ['tests/support/global-setup.ts'];
/** Each file's CPU time, for the tier-times reporter (`npm test`'s `Times:`). */
const SETUP_FILES = ['tests/support/file-cpu.ts'];
const INTEGRATION_FILES = ['tests/integration/**/*.test.ts'];
/** Tests of a PostgreSQL server's own behaviour (its connections killed, its restarts): that project only. */
const POSTGRES_ONLY_FILES = ['tests/integration-postgres/**/*.test.ts'];
/**
 * The integration files that also run on PostgreSQL (ADR 0039). Both engines run the same SQL
 * (PGlite is PostgreSQL compiled to WebAssembly); what differs is below it. A file runs on both when
 * its subject is one of those differences; a file that only passes through them on the way to
 * something else (a page's markup, sign-in, a sweep over every route) runs on PGlite alone, because
 * the files listed here already run that path on PostgreSQL. The CLI tests never open the test
 * database (the CLI runs on its own PGlite data directory), so they are never here.
 */
const ENGINE_DEPENDENT_FILES = [
  // Code that branches on the engine: named prepared statements for a company's page, its records,
  // provenance, LEI details and what buying it reveals (core/companies/prepared-query.ts), facet counts (core/search/facets.ts), two export workers
  // (core/export/export-documents.ts), VACUUM after an import (core/imports/vacuum-imported.ts),
  // the seed's COPY (db/seed/seed-companies.ts).
  'api-companies',
  'company-as-of',
  'company-history',
  'api-facets',
  'section-pages',
  'export',
  'export-documents',
  'export-file-streaming',
  'export-jobs',
  'export-reader',
  'imports-framework',
  'imports-gleif',
  'import-merges',
  'import-industries',
  'import-visibility',
  'national-register-imports',
  'company-writes',
  'demo-advance',
  'demo-monitoring',
  // The drivers: node-postgres and PGlite parse values each their own way (db/client.ts).
  'schema-types',
  'record-tables',
  // A company's ownership is read as json_agg columns (core/ownership/ownership.ts); its pages too.
  'ownership',
  'ownership-pages',
  // The profile's kept parts (ADR 0040): the data's version read before the company, through a pool on PostgreSQL.
  'profile-parts',
  // Search pages kept the same way (ADR 0043): the version and the counts' state read before the search.
  'search-parts',
  // More than one session at a time: PGlite has one connection, so its transactions never meet;
  // on PostgreSQL they lock, wait and conflict (the job queue's SKIP LOCKED, advisory locks,
  // credits spent at once, limits counted at once), and a pool can fail to connect.
  'monitoring-jobs',
  'monitoring-notifications',
  'monitored-records',
  'change-feed-webhooks',
  'webhook-limits',
  'rate-limits',
  'billing',
  'credit-ledger-properties',
  'paddle-payments',
  'takedown-everywhere',
  'knowledge-base',
  'database-outage',
  // The planner and the search SQL: estimates come from the server's statistics; trigram, typo
  // and identifier matching, the filter grammar's every shape, and the order of text.
  'count-estimates',
  'filter-fuzz',
  'filter-parameters',
  'api-search-post',
  'near-name-search',
  'typo-search',
  'identifier-search',
  'header-search',
  'suggest-api',
  'find-company-ids',
  'matching',
  'reconciliation',
  'people-told-apart',
  'industry-names',
].map((name) => `tests/integration/${name}.test.ts`);
// A renamed or removed file must not leave PostgreSQL quietly running less.
for (const file of ENGINE_DEPENDENT_FILES) {
  if (!existsSync(file)) throw new Error(`vitest.config.ts: ${file} is listed as engine-dependent but does not exist`);
}

/**
 * Every tier runs the libraries as production does (ADR 0039): React's development build (Vitest's
 * NODE_ENV is `test`) checks every element and prop as it renders, which doubled the CPU of a page
 * here (a search page with its error: 12–17 against 24–25 ms), and it is not what users are served. The
 * app itself never reads NODE_ENV. Set in every project, so that whichever file a worker runs first
 * imports the same builds.
 */
const TEST_ENV = { NODE_ENV: 'production' };
// And packages resolve as for `npm start`: Vitest hands its workers Vite's `development` export condition
// unless NODE_ENV is production in this process (Vite's isProduction), which gave every tier React Router's
// development build.
process.env.NODE_ENV = TEST_ENV.NODE_ENV;

const integration = (name: string, env: Record<string, string>, include = INTEGRATION_FILES) => ({
  test: {
    name,
    include,
    environment: 'node' as const,
    isolate: false,
    globalSetup: GLOBAL_SETUP,
    setupFiles: SETUP_FILES,
    env: { ...TEST_ENV, ...env },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// isolate: false: a worker runs file after file without re-importing the modules they share
// (the app, React Router's build, PGlite), which cost the integration tiers about a fifth of their
// time. Each file still opens its own database copy and app; the test files keep no state of
// their own outside them (the process listeners they add, they remove in afterAll), and the app's
// caches are keyed by the database or reference data they belong to.

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single file at a time on a two-core
    // machine, leaving a core idle while a file waits on its database. Two files at a time keep
    // both busy (a PostgreSQL file's queries run in the server, beside a PGlite file's worker).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Vitest's order, but the unit tier (one long file among short ones) before the integration tiers.
    sequence: { sequencer: UnitFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          setupFiles: SETUP_FILES,
          env: TEST_ENV,
          // The seed generator's tests build thousands of companies: a few seconds on a quiet
          // machine, more than Vitest's default 5 s on a busy one beside another test file.
          testTimeout: 30_000,
        },
      },
      integration('integration', { REGISTRA_TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL
        ? [
            integration('integration-postgres', { REGISTRA_TEST_DB: 'postgres' }, [
              ...ENGINE_DEPENDENT_FILES,
              ...POSTGRES_ONLY_FILES,
            ]),
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: GLOBAL_SETUP,
          setupFiles: SETUP_FILES,
          env: { ...TEST_ENV, REGISTRA_TEST_DB: 'pglite' },
          // One browser journey at a time: each file starts its own server and Chromium. In one
          // Vitest process, after the other tiers (a group of its own: one worker where they have
          // two); `npm test` runs it in a process of its own beside them instead (ADR 0039).
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
