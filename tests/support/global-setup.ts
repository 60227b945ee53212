// Vitest global setup (runs once per run in the main process, before any test file): builds the
// test template and tells the workers where it is (`inject('testDatabase')`).
//
// PGlite (default): one database is filled and dumped to a tar file; each test file loads a
// private copy of it (test-database.ts). Its first stage (schema and reference data) is also kept
// as a data directory that the CLI tests copy (cli-data-dir.ts). Both are cached under the OS temp
// directory, keyed by a hash of what fills them (template-cache.ts, ADR 0039): the next run, and
// the browser tier's Vitest process started beside the others' (scripts/test.ts), reuse them.
// PostgreSQL (project env REGISTRA_TEST_DB=postgres, server at TEST_DATABASE_URL): the template
// is the database `registra_test_template`; each test file creates its own copy from it.

import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type Db, openPglite, openPostgres } from '../../db/client.ts';
import { cachedTemplate } from './template-cache.ts';
import {
  databaseUrl,
  fillCompanies,
  fillSchema,
  fillTemplate,
  POSTGRES_DATABASE_PREFIX,
  POSTGRES_TEMPLATE,
  quoteIdentifier,
  TEMPLATE_SEED,
  type TestDatabaseSource,
} from './template-database.ts';

// Several projects (integration, e2e) use the same template: build it once per process.
type Shared = {
  pglite?: Promise<PgliteTemplate>;
  postgres?: Promise<TestDatabaseSource>;
  users: number;
};
const KEY = Symbol.for('registra.test-template');
const holder = globalThis as unknown as Record<symbol, Shared>;
holder[KEY] ??= { users: 0 };
const shared = holder[KEY];

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const wantsPostgres = project.config.env?.REGISTRA_TEST_DB === 'postgres';
  shared.users += 1;
  if (wantsPostgres) {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('The integration-postgres project needs TEST_DATABASE_URL (a PostgreSQL server URL).');
    shared.postgres ??= buildPostgresTemplate(url);
    project.provide('testDatabase', await shared.postgres);
  } else {
    project.provide('testDatabase', { kind: 'pglite', templateFile: (await pgliteTemplate()).file });
  }
  // The CLI tests run on PGlite data directories in every project.
  project.provide('cliDataDir', (await pgliteTemplate()).cliDataDir);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    // The PGlite template stays in its cache (template-cache.ts) for the next run.
    const postgres = shared.postgres;
    shared.pglite = undefined;
    shared.postgres = undefined;
    if (postgres) await dropRunDatabases(await postgres);
  };
}

type PgliteTemplate = { file: string; cliDataDir: string };

function pgliteTemplate(): Promise<PgliteTemplate> {
  shared.pglite ??= cachedTemplate(buildPgliteTemplate).then((dir) => ({
    file: join(dir, 'template.tar'),
    cliDataDir: join(dir, 'cli-data'),
  }));
  return shared.pglite;
}

/** Builds the PGlite template into `dir`: the CLI's data directory first, then the tar file the tests load. */
async function buildPgliteTemplate(dir: string): Promise<void> {
  const started = Date.now();
  // WAL segments of 1 MB instead of 16: the tar every test file loads shrinks from 78 to about
  // 45 MB (two 16 MB segments, mostly zeros, were a third of it), and each copy opens faster.
  const schema = await openPglite({ dataDir: join(dir, 'cli-data'), initdb: ['--wal-segsize=1'] });
  let stage: Blob;
  try {
    // PostgreSQL zeroes its shared buffers at every start: at the default 128 MB, about half of the CPU
    // of opening a copy (ADR 0039). The template (some 30 MB) never fills 16 MB, and no test depends on
    // the setting. Set here, it holds for the CLI's data directory and for every copy of the template.
    await schema.pglite!.exec("alter system set shared_buffers = '16MB'");
    await fillSchema(schema);
    stage = await checkpointedDump(schema);
  } finally {
    await schema.close();
  }
  const db = await openPglite({ loadDataDir: stage });
  try {
    await fillCompanies(db);
    await dropTemplateDatabases(db);
    const dump = await checkpointedDump(db);
    await writeFile(join(dir, 'template.tar'), new Uint8Array(await dump.arrayBuffer()));
    console.log(`Test template (PGlite, ${TEMPLATE_SEED.companies} companies) built in ${seconds(started)}: ${dir}`);
  } finally {
    await db.close();
  }
}

/**
 * PostgreSQL's template0 and template1 are a third of the tar (some 600 files, 14 MB) that every copy
 * unpacks; the copies never connect to them or create a database (ADR 0039). The CLI's data
 * directory keeps them: it is a whole installation, as `db migrate` leaves one.
 */
async function dropTemplateDatabases(db: Db): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await db.pglite!.exec(`alter database ${name} is_template false`);
    await db.pglite!.exec(`drop database ${name}`);
  }
}

/**
 * The data directory as a tar, after a checkpoint and without the WAL segments PostgreSQL keeps for
 * later use (ADR 0039). PGlite dumps the files as they are: without a checkpoint, the last one lies
 * before most of the fill, and every copy opened from the tar replays that WAL (some 16 MB) before
 * its first query; after it, the segments it recycled (renamed for later use, 17 of the tar's
 * 62 MB) would still be unpacked by every copy. A copy creates the segments it needs as it writes.
 */
async function checkpointedDump(db: Db): Promise<Blob> {
  const pglite = db.pglite!;
  await pglite.exec('CHECKPOINT');
  const { rows } = await pglite.query<{ segment: string }>('select pg_walfile_name(pg_current_wal_lsn()) as segment');
  const current = rows[0].segment;
  const fs = pglite.Module.FS;
  const wal = `${PGlite.paths.PGDATA}/pg_wal`;
  for (const name of fs.readdir(wal)) {
    // Segment names are 24 hexadecimal digits that sort in WAL order; later ones hold nothing yet.
    if (/^[0-9A-F]{24}$/.test(name) && name > current) fs.unlink(`${wal}/${name}`);
  }
  return pglite.dumpDataDir('none');
}

async function buildPostgresTemplate(url: string): Promise<TestDatabaseSource> {
  const started = Date.now();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${quoteIdentifier(POSTGRES_TEMPLATE)} with (force)`);
    await admin.query(`create database ${quoteIdentifier(POSTGRES_TEMPLATE)}`);
  } finally {
    await admin.end();
  }
  // Closed before any copy is made: PostgreSQL copies a template only while nobody is connected to it.
  const db = await openPostgres(databaseUrl(url, POSTGRES_TEMPLATE), 1);
  try {
    await fillTemplate(db);
  } finally {
    await db.close();
  }
  console.log(`Test template (PostgreSQL, ${TEMPLATE_SEED.companies} companies) built in ${seconds(started)}`);
  return { kind: 'postgres', url, template: POSTGRES_TEMPLATE, run: randomBytes(3).toString('hex') };
}

/** Drops the per-file databases of this run that a test file left behind (the template stays for inspection). */
async function dropRunDatabases(source: TestDatabaseSource): Promise<void> {
  if (source.kind !== 'postgres') return;
  const admin = new pg.Client({ connectionString: source.url });
  await admin.connect();
  try {
    const left = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `${POSTGRES_DATABASE_PREFIX}${source.run}\\_%`,
    ]);
    for (const { datname } of left.rows)
      await admin.query(`drop database if exists ${quoteIdentifier(datname)} with (force)`);
  } finally {
    await admin.end();
  }
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
