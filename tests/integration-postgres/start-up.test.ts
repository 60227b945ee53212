// Several app processes starting together on one empty PostgreSQL database (PostgreSQL only: PGlite
// is one process's): migrations, reference data and demo data are written once, every process
// starts, and demo data comes only when asked for (SEED_COMPANIES).

import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openPostgres } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { loadReferenceData } from '../../db/reference/load-reference-data.ts';
import { type Started, startServer, stopServer } from '../support/app-processes.ts';
import { databaseUrl, POSTGRES_DATABASE_PREFIX, quoteIdentifier } from '../support/template-database.ts';

const source = inject('testDatabase');
if (source.kind !== 'postgres')
  throw new Error('tests/integration-postgres/ run only in the integration-postgres project');
const serverUrl = source.url;

const migrationFiles = async () =>
  (await readdir(new URL('../../db/migrations/', import.meta.url))).filter((f) => /^\d{4}-.+\.sql$/.test(f)).sort();

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const created: string[] = [];
/** A new empty database on the test server (dropped after the file). */
async function emptyDatabase(): Promise<string> {
  const name = `${POSTGRES_DATABASE_PREFIX}${source.kind === 'postgres' ? source.run : ''}_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${quoteIdentifier(name)}`);
  created.push(name);
  return databaseUrl(serverUrl, name);
}
afterAll(async () => {
  for (const name of created) await admin(`drop database if exists ${quoteIdentifier(name)} with (force)`);
});

async function count(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(query)).rows[0].n);
  } finally {
    await client.end();
  }
}

describe('processes starting together on one PostgreSQL database', () => {
  let url: string;
  const servers: Started[] = [];
  beforeAll(async () => {
    url = await emptyDatabase();
  });
  afterAll(async () => {
    for (const server of servers) await stopServer(server);
  });

  it('start together on an empty database, which is migrated once and gets demo data only when asked', async () => {
    // One start without SEED_COMPANIES (a server database: none), two asking for 50 (made once).
    const started = await Promise.all([
      startServer(url),
      startServer(url, { SEED_COMPANIES: '50' }),
      startServer(url, { SEED_COMPANIES: '50' }),
    ]);
    servers.push(...started);
    for (const server of started) {
      const page = await fetch(`${server.url}/companies/search/`);
      expect(page.status).toBe(200);
    }
    const files = await migrationFiles();
    expect(await count(url, 'select count(*) as n from schema_migrations')).toBe(files.length);
    expect(await count(url, 'select count(distinct name) as n from schema_migrations')).toBe(files.length);
    expect(await count(url, 'select count(*) as n from languages')).toBeGreaterThan(100);
    expect(await count(url, 'select count(*) as n from legal_entities')).toBe(50);
    const generated = started.map((server) => server.output().includes('Generating'));
    expect(generated[0]).toBe(false);
    expect(generated.filter(Boolean)).toHaveLength(1);
    for (const server of started) expect(await stopServer(server)).toBe(0);
  }, 120_000);
});

describe('migrate() and loadReferenceData() twice at once, in one process', () => {
  let dbs: Db[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.close();
  });

  it('apply each migration once and load the reference data once', async () => {
    const url = await emptyDatabase();
    // A pool of one connection: the lock's session must be the one that migrates.
    dbs = [await openPostgres(url, 1), await openPostgres(url, 1)];
    const ran = await Promise.all(dbs.map((db) => migrate(db)));
    const files = await migrationFiles();
    expect([...ran[0], ...ran[1]].sort()).toEqual(files);
    await Promise.all(dbs.map((db) => loadReferenceData(db)));
    const languages = await dbs[0].kysely.selectFrom('languages').select('code').execute();
    expect(languages.length).toBeGreaterThan(100);
    expect(new Set(languages.map((l) => l.code)).size).toBe(languages.length);
  });
});
