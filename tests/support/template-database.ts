// The one test template: schema, reference data and a small deterministic set of companies.
// Built once per test run (by global-setup.ts) and copied for every test file.

import { loadKnowledgeBase } from '../../core/kb/load-knowledge-base.ts';
import type { Db } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { loadReferenceData } from '../../db/reference/load-reference-data.ts';
import { seedCompanies } from '../../db/seed/seed-companies.ts';

/** What the template holds: tests may rely on these numbers (400 companies from seed 7). */
export const TEMPLATE_SEED = { companies: 400, seed: 7 } as const;

/** Name of the PostgreSQL template database; each test file gets a copy of it. */
export const POSTGRES_TEMPLATE = 'registra_test_template';

/** Prefix of the per-file PostgreSQL databases (`registra_test_<run>_<file>`). */
export const POSTGRES_DATABASE_PREFIX = 'registra_test_';

/** What global-setup.ts hands to the test workers through `provide`/`inject('testDatabase')`. */
export type TestDatabaseSource =
  | { kind: 'pglite'; templateFile: string }
  | { kind: 'postgres'; url: string; template: string; run: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseSource;
    /**
     * A PGlite data directory as `npm run cli -- db migrate` leaves it (schema and reference data,
     * no companies): the CLI tests copy it instead of migrating a new one (cli-data-dir.ts, ADR 0039).
     */
    cliDataDir: string;
  }
}

/** Fills an empty database: migrations, reference data, the help content, then the seeded companies. */
export async function fillTemplate(db: Db): Promise<void> {
  await fillSchema(db);
  await fillCompanies(db);
}

/** The first stage, what the CLI's `db migrate` makes: the schema and the reference data. */
export async function fillSchema(db: Db): Promise<void> {
  await migrate(db);
  await loadReferenceData(db);
}

/** The second stage: the help content and TEMPLATE_SEED's companies. */
export async function fillCompanies(db: Db): Promise<void> {
  await loadKnowledgeBase(db);
  await seedCompanies(db, { companies: TEMPLATE_SEED.companies, seed: TEMPLATE_SEED.seed });
}

/** The URL of another database on the same PostgreSQL server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Double-quotes an identifier for SQL (database names cannot be bound as parameters). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
