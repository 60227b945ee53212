// A private copy of the test template for one test file (see global-setup.ts): PGlite by default,
// PostgreSQL in the integration-postgres project. Open it in beforeAll and close it in afterAll:
//
//   let t: TestDatabase;
//   beforeAll(async () => { t = await openTestDatabase(); });
//   afterAll(() => t.db.close());
//
// The copy holds the schema, the reference data and TEMPLATE_SEED's companies; a test that needs
// particular rows makes them itself. Closing a PostgreSQL copy drops it.

import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { loadReference, type Reference } from '../../core/reference/reference-data.ts';
import { type Db, openPglite, openPostgres } from '../../db/client.ts';
import {
  databaseUrl,
  POSTGRES_DATABASE_PREFIX,
  quoteIdentifier,
  type TestDatabaseSource,
} from './template-database.ts';

export { TEMPLATE_SEED } from './template-database.ts';

export type TestDatabase = { db: Db; reference: Reference };

/** Opens a fresh copy of the test template (about 0.7 s on PGlite). `db.close()` releases (and on PostgreSQL drops) it. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const source = inject('testDatabase');
  if (!source) throw new Error('No test template: run the tests through vitest.config.ts (its globalSetup builds it).');
  const db = source.kind === 'pglite' ? await openPgliteCopy(source.templateFile) : await openPostgresCopy(source);
  try {
    return { db, reference: await loadReference(db) };
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function openPgliteCopy(templateFile: string): Promise<Db> {
  return openPglite({ loadDataDir: await openAsBlob(templateFile, { type: 'application/x-tar' }) });
}

async function openPostgresCopy(source: Extract<TestDatabaseSource, { kind: 'postgres' }>): Promise<Db> {
  const copy = await createPostgresCopy(source);
  const db = await openPostgres(copy.url);
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      await copy.drop();
    },
  };
}

/** A new database on the test server copied from the template: its URL, and drop() for when done (PostgreSQL only). */
export async function createPostgresCopy(
  source: Extract<TestDatabaseSource, { kind: 'postgres' }>,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${POSTGRES_DATABASE_PREFIX}${source.run}_${randomBytes(4).toString('hex')}`;
  await adminQuery(source.url, `create database ${quoteIdentifier(name)} template ${quoteIdentifier(source.template)}`);
  return {
    url: databaseUrl(source.url, name),
    drop: () => adminQuery(source.url, `drop database if exists ${quoteIdentifier(name)} with (force)`),
  };
}

async function adminQuery(url: string, statement: string): Promise<void> {
  // CREATE DATABASE … TEMPLATE fails while another session copies the same template: retry briefly.
  for (let attempt = 1; ; attempt++) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(statement);
      return;
    } catch (error) {
      const busy = error instanceof Error && /is being accessed by other users/.test(error.message);
      if (!busy || attempt >= 20) throw error;
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}
