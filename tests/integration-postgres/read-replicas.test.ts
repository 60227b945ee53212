// Read replicas (docs/decisions/0024-processes-and-replicas.md): the test starts its own primary and
// a streaming replica (initdb, pg_basebackup -R, loopback ports) and checks that stale-tolerant
// reads (search) are served by the replica and a user's own data by the primary (read your
// writes), that a replica too far behind or stopped is set aside — its reads go to the primary,
// with no error for the reader — and that it serves again once back.

import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openPostgres } from '../../db/client.ts';
import { openReplicaReads, type ReadsDb } from '../../db/replicas.ts';
import { OwnPostgres, ownPostgresFolder, removeOwnPostgres } from '../../scripts/own-postgres.ts';
import { type Started, startServer, stopServer } from '../support/app-processes.ts';
import { createSignedInUser } from '../support/users.ts';

if (inject('testDatabase').kind !== 'postgres')
  throw new Error('tests/integration-postgres/ run only in the integration-postgres project');

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
const LEI_FILE = '/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml';
const IMPORTED_NAME = 'AFRINVEST SECURITIES LIMITED';
const SEARCH = `/companies/search/?q=${encodeURIComponent('Afrinvest Securities')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`waited ${ms} ms for ${what}`);
}

/** The port of the server a statement ran on. */
async function portOf(db: Db): Promise<number> {
  const row = await sql<{ port: number }>`select inet_server_port() as port`.execute(db.kysely);
  return Number(row.rows[0].port);
}

describe('read replicas', () => {
  let dir = '';
  let primary: OwnPostgres;
  let replica: OwnPostgres;
  let primaryDb: Db;
  let app: Started | undefined;
  const opened: ReadsDb[] = [];

  /** Runs on the replica (pausing and resuming its replay). */
  const onReplica = async (statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: replica.url('registra') });
    await client.connect();
    try {
      return (await client.query(statement, values)).rows;
    } finally {
      await client.end();
    }
  };
  /** The replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const [{ lsn }] = (await primaryDb.pool?.query('select pg_current_wal_lsn()::text as lsn'))?.rows ?? [];
    await waitFor('the replica to catch up', async () => {
      const [row] = await onReplica('select pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) <= 0 as ok', [lsn]);
      return row.ok === true;
    });
  };

  beforeAll(async () => {
    dir = await ownPostgresFolder('registra-replicas-');
    primary = await OwnPostgres.in(dir, 'primary');
    await primary.init();
    await primary.start({ durable: false });
    const admin = new pg.Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('create database registra');
    await admin.end();
    replica = await OwnPostgres.in(dir, 'replica');
    await replica.initReplicaOf(primary);
    await replica.start({ durable: false });
    // The app migrates and seeds the primary; the replica follows.
    app = await startServer(primary.url('registra'), {
      SEED_COMPANIES: '60',
      DATABASE_REPLICA_URLS: replica.url('registra'),
      DATABASE_REPLICA_MAX_LAG_SECONDS: '300',
      PAGE_CACHE_SECONDS: '0',
      LOG_LEVEL: 'warn',
      // The reads below are a load from one address: several hundred data API calls in seconds, past
      // the anonymous plan's 100 an hour on a fast machine (README, API_LIMIT_FACTOR).
      API_LIMIT_FACTOR: '100',
    });
    primaryDb = await openPostgres(primary.url('registra'), 2);
  }, 300_000);

  afterAll(async () => {
    if (app) await stopServer(app);
    for (const reads of opened) await reads.close();
    await primaryDb?.close();
    await removeOwnPostgres(dir, [replica, primary].filter(Boolean));
  });

  it('sends statements of the reads Db to the replica, and to the primary when asked for none', async () => {
    const reads = await openReplicaReads(primaryDb, [replica.url('registra')], { maxLagMs: 60_000 });
    opened.push(reads);
    expect(reads.replicas()[0]).toMatchObject({ usable: true, lagMs: 0 });
    expect(await portOf(reads)).toBe(replica.port);
    expect(await portOf(primaryDb)).toBe(primary.port);
    // pg.Pool's form (named prepared statements) too.
    const prepared = await reads.pool?.query({ name: 'replica-port', text: 'select inet_server_port() as port' });
    expect(Number(prepared?.rows[0].port)).toBe(replica.port);
  });

  it('serves search from the replica and a user’s own data from the primary at once', async () => {
    await caughtUp();
    // Replay paused: the replica stands still while the primary moves on.
    await onReplica('select pg_wal_replay_pause()');
    try {
      const { DATABASE_URL: _, ...env } = process.env;
      await promisify(execFile)(process.execPath, [CLI, 'import', 'gleif-lei', LEI_FILE], {
        env: { ...env, DATABASE_URL: primary.url('registra') },
        cwd: tmpdir(),
      });
      const user = await createSignedInUser(primaryDb, 'replica-reader');
      const created = await fetch(`${app?.url}/api/watchlists/users/${user.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: user.cookie, 'x-csrf-token': user.csrf },
        body: JSON.stringify({ name: 'Read my write' }),
      });
      expect(created.status).toBe(201);
      // The user's lists, read back at once: from the primary, since the replica has neither
      // the user nor the list.
      const lists = await fetch(`${app?.url}/api/watchlists/users/${user.id}`, { headers: { cookie: user.cookie } });
      expect(lists.status).toBe(200);
      expect(await lists.text()).toContain('Read my write');
      expect(await onReplica(`select 1 from watchlists where name = 'Read my write'`)).toEqual([]);
      // Search is the replica's: the imported company is not there yet.
      const stale = await fetch(`${app?.url}${SEARCH}`);
      expect(stale.status).toBe(200);
      expect(await stale.text()).not.toContain(IMPORTED_NAME);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    // Replayed: search shows it.
    await waitFor('search to show the import', async () =>
      (await (await fetch(`${app?.url}${SEARCH}`)).text()).includes(IMPORTED_NAME),
    );
  }, 60_000);

  it('sets aside a replica further behind than the bound, and takes it back once caught up', async () => {
    const reads = await openReplicaReads(primaryDb, [replica.url('registra')], { maxLagMs: 300, checkEveryMs: 100 });
    opened.push(reads);
    expect(await portOf(reads)).toBe(replica.port);
    await onReplica('select pg_wal_replay_pause()');
    try {
      await primaryDb.kysely
        .insertInto('users')
        .values({ email: 'lagging@example.com', name: 'Lag', password_hash: 'x', activated_at: new Date() })
        .execute();
      await waitFor('the replica to be set aside', async () => !reads.replicas()[0].usable);
      expect(reads.replicas()[0].problem).toMatch(/ms behind/);
      expect(await portOf(reads)).toBe(primary.port);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    await waitFor('the replica to serve again', async () => reads.replicas()[0].usable);
    expect(await portOf(reads)).toBe(replica.port);
  }, 30_000);

  it('answers every read while the replica stops (the primary takes them), and uses it again once back', async () => {
    const reads = await openReplicaReads(primaryDb, [replica.url('registra')], { maxLagMs: 60_000 });
    opened.push(reads);
    const statuses: number[] = [];
    const ports: number[] = [];
    let stopping = false;
    const pages = ['/companies/search/?jurisdiction=276', SEARCH, '/api/site/data/v1/legal_entities?count=5'];
    const load = async (n: number) => {
      for (let i = 0; !stopping || i < 3; i++) {
        const response = await fetch(`${app?.url}${pages[(n + i) % pages.length]}`);
        await response.arrayBuffer();
        statuses.push(response.status);
        ports.push(await portOf(reads));
      }
    };
    const running = Promise.all([0, 1, 2, 3].map(load));
    await sleep(500);
    await replica.stop('fast');
    await sleep(1500);
    stopping = true;
    await running;
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(ports.at(-1)).toBe(primary.port);
    expect(reads.replicas()[0].usable).toBe(false);
    // The app's reads were the replica's until it stopped: it set the replica aside too.
    expect(app?.output()).toMatch(/read replica \S+ set aside/);

    await replica.start({ durable: false });
    await waitFor('the replica to serve again', async () => {
      await reads.check();
      return reads.replicas()[0].usable;
    });
    expect(await portOf(reads)).toBe(replica.port);
    const page = await fetch(`${app?.url}${SEARCH}`);
    expect(page.status).toBe(200);
  }, 60_000);
});
