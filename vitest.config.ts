import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Three tiers (STYLE.md): unit (pure core/ logic), integration (the app through app.inject() over
// a real database: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set), e2e (real Chromium).
// `npm test` runs them all; `npx vitest run --project unit` runs one.

const GLOBAL_SETUP = ['tests/support/global-setup.ts'];
const INTEGRATION_FILES = ['tests/integration/**/*.test.ts'];
/** Tests of a PostgreSQL server's own behaviour (its connections killed, its restarts): that project only. */
const POSTGRES_ONLY_FILES = ['tests/integration-postgres/**/*.test.ts'];
/**
 * Files that never open the test database: the CLI runs on its own PGlite data directory
 * (DATABASE_URL unset), so the PostgreSQL project would run them a second time, identically.
 */
const WITHOUT_TEST_DATABASE = [
  'tests/integration/cli.test.ts',
  'tests/integration/enrich-cli.test.ts',
  'tests/integration/export-cli.test.ts',
  'tests/integration/import-cli.test.ts',
  'tests/integration/jobs-cli.test.ts',
];

const integration = (
  name: string,
  env: Record<string, string>,
  include = INTEGRATION_FILES,
  exclude: string[] = [],
) => ({
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    environment: 'node' as const,
    isolate: false,
    globalSetup: GLOBAL_SETUP,
    env,
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
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          // The seed generator's tests build thousands of companies: a few seconds on a quiet
          // machine, more than Vitest's default 5 s on a busy one beside another test file.
          testTimeout: 30_000,
        },
      },
      integration('integration', { REGISTRA_TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL
        ? [
            integration(
              'integration-postgres',
              { REGISTRA_TEST_DB: 'postgres' },
              [...INTEGRATION_FILES, ...POSTGRES_ONLY_FILES],
              WITHOUT_TEST_DATABASE,
            ),
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: GLOBAL_SETUP,
          env: { REGISTRA_TEST_DB: 'pglite' },
          // One browser journey at a time: each file starts its own server and Chromium. After
          // the other tiers (a group of its own: one worker where they have two).
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
