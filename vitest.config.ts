import { configDefaults, defineConfig } from 'vitest/config';

// Three tiers (STYLE.md): unit (pure core/ logic), integration (the app through app.inject() over
// a real database: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set), e2e (real Chromium).
// `npm test` runs them all; `npx vitest run --project unit` runs one.

const GLOBAL_SETUP = ['tests/support/global-setup.ts'];
const INTEGRATION_FILES = ['tests/integration/**/*.test.ts'];
/** Integration tests of what only a PostgreSQL server has (several processes on one database). */
const POSTGRES_ONLY_FILES = ['tests/integration/**/*.postgres.test.ts'];

const integration = (name: string, env: Record<string, string>, exclude: string[] = []) => ({
  test: {
    name,
    include: INTEGRATION_FILES,
    exclude: [...configDefaults.exclude, ...exclude],
    environment: 'node' as const,
    globalSetup: GLOBAL_SETUP,
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      integration('integration', { REGISTRA_TEST_DB: 'pglite' }, POSTGRES_ONLY_FILES),
      ...(process.env.TEST_DATABASE_URL ? [integration('integration-postgres', { REGISTRA_TEST_DB: 'postgres' })] : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: GLOBAL_SETUP,
          env: { REGISTRA_TEST_DB: 'pglite' },
          // One browser journey at a time: each file starts its own server and Chromium.
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
