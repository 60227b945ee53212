// Database restarts under load: does the app stay up, answer 503 (never 500, never hang) while
// PostgreSQL is away, recover by itself, and lose no write it acknowledged?
//
//   node bench/pg-restart.ts [--workers N] [--outage-seconds S]
//
// It starts its own PostgreSQL (initdb into a temporary folder, a free loopback port; as root the
// server runs as the `postgres` user), starts the app on it (server/main.ts with a few hundred demo
// companies; the production build is made first when missing), and runs a bounded load — reads of
// pages and the data API, and writes a client knows succeeded (company lists created through the
// API by signed-in users, each 201 remembered) — through two faults: `pg_ctl restart -m fast`, then
// a stop and a start after S seconds of outage. It prints the requests by status, every error
// other than a 503, whether the app process survived, the recovery time after each fault (from
// PostgreSQL accepting connections again to the first successful request), and the lost writes
// (acknowledged lists missing from the database afterwards; must be 0). Everything it started is
// stopped and the folder removed, also on failure or Ctrl-C.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { freePort, OwnPostgres, ownPostgresFolder } from '../scripts/own-postgres.ts';
import { makeBenchUsers } from './bench-users.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: '8' },
    'outage-seconds': { type: 'string', default: '3' },
  },
});
const WORKERS = Number(args.workers);
const OUTAGE_MS = Number(args['outage-seconds']) * 1000;
/** Load before the first fault, between the faults and after the last. */
const PHASE_MS = 4_000;
/** A request taking longer than this counts as hung. */
const HANG_MS = 15_000;
const COMPANIES = 300;
/** Signed-in users the writes are spread over (each may keep 200 lists). */
const USERS = 20;
const LISTS_PER_USER = 200;

const READS = [
  '/companies/search/?jurisdiction=276',
  '/liabilities/search/?filed_on:from=2015',
  '/api/site/data/v1/legal_entities?count=20',
  '/api/site/data/v1/vessels?gross_tonnage:from=100',
];

type Outcome = { started: number; ended: number; kind: 'read' | 'write'; status: number | string };
type Writer = { id: number; cookie: string; csrf: string; made: number };
type Fault = { name: string; back: number };

// ---- the app ----

function startApp(databaseUrl: string, port: number): ChildProcess {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_COMPANIES: String(COMPANIES),
      // Every read reaches the database.
      PAGE_CACHE_SECONDS: '0',
      // Many requests from one address: far above the anonymous limit (ADR 0020).
      API_LIMIT_FACTOR: '100000',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString().split('\n').filter(Boolean));
    log.splice(0, Math.max(0, log.length - 200));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  appLog = log;
  return child;
}
let appLog: string[] = [];

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the app exited (${child.exitCode}):\n${appLog.slice(-20).join('\n')}`);
    const ok = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error('the app did not become ready within 3 minutes');
}

// ---- load ----

async function request(base: string, kind: Outcome['kind'], init: RequestInit & { path: string }): Promise<Outcome> {
  const started = Date.now();
  try {
    const response = await fetch(`${base}${init.path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    await response.arrayBuffer();
    return { started, ended: Date.now(), kind, status: response.status };
  } catch (error) {
    const name = (error as Error).name === 'TimeoutError' ? 'hung' : `network: ${(error as Error).message}`;
    return { started, ended: Date.now(), kind, status: name };
  }
}

async function load(
  base: string,
  writers: Writer[],
  stop: () => boolean,
  outcomes: Outcome[],
  acknowledged: Set<string>,
) {
  let n = 0;
  const worker = async (w: number) => {
    while (!stop()) {
      const i = n++;
      const writer = writers[i % writers.length];
      if (i % 5 === 0 && writer.made < LISTS_PER_USER) {
        const name = `bench list ${w}-${i}`;
        writer.made += 1;
        const outcome = await request(base, 'write', {
          path: `/api/watchlists/users/${writer.id}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: writer.cookie, 'x-csrf-token': writer.csrf },
          body: JSON.stringify({ name }),
        });
        if (outcome.status === 201) acknowledged.add(`${writer.id}\t${name}`);
        outcomes.push(outcome);
      } else {
        outcomes.push(await request(base, 'read', { path: READS[i % READS.length], method: 'GET' }));
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
}

// ---- the run ----

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const dir = await ownPostgresFolder('registra-pg-restart-');
  let server: OwnPostgres | undefined;
  let app: ChildProcess | undefined;
  const cleanup = async () => {
    if (app && app.exitCode === null) {
      app.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => app?.once('exit', resolve)), sleep(5_000)]);
      if (app.exitCode === null) app.kill('SIGKILL');
    }
    if (server) await server.stop('immediate').catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  const interrupted = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  // A bounded run: whatever hangs, everything is stopped after five minutes.
  const guard = setTimeout(() => {
    console.error('pg-restart: no result after 5 minutes, stopping');
    interrupted();
  }, 300_000);
  try {
    server = new OwnPostgres(dir, await freePort());
    await server.init();
    await server.start();
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database registra');
    await admin.end();
    const databaseUrl = server.url().replace(/\/postgres$/, '/registra');

    if (!existsSync(join(ROOT, 'build/server/index.js'))) {
      console.log('Building the app (react-router build)…');
      await run(join(ROOT, 'node_modules/.bin/react-router'), ['build'], { cwd: ROOT });
    }
    const appPort = await freePort();
    const base = `http://127.0.0.1:${appPort}`;
    console.log(
      `PostgreSQL on port ${server.port} (${dir}); starting the app on ${appPort} with ${COMPANIES} companies…`,
    );
    app = startApp(databaseUrl, appPort);
    await waitReady(base, app);
    const writers: Writer[] = (await makeBenchUsers(databaseUrl, USERS, 'restart-bench')).map((user) => ({
      ...user,
      made: 0,
    }));

    const outcomes: Outcome[] = [];
    const acknowledged = new Set<string>();
    let done = false;
    const running = load(base, writers, () => done, outcomes, acknowledged);
    const faults: Fault[] = [];
    await sleep(PHASE_MS);
    console.log('pg_ctl restart -m fast…');
    await server.restart();
    faults.push({ name: 'restart -m fast', back: Date.now() });
    await sleep(PHASE_MS);
    console.log(`pg_ctl stop -m fast, ${OUTAGE_MS / 1000} s away, pg_ctl start…`);
    await server.stop('fast');
    const downAt = Date.now();
    await sleep(OUTAGE_MS);
    await server.start();
    faults.push({ name: `stop, ${((Date.now() - downAt) / 1000).toFixed(1)} s away, start`, back: Date.now() });
    await sleep(PHASE_MS);
    done = true;
    await running;

    const survived = app.exitCode === null && app.signalCode === null;
    const health = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );

    // Acknowledged writes missing from the database.
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const stored = await check.query<{ user_id: string; name: string }>(
      'select user_id, name from watchlists where user_id = any($1::bigint[])',
      [writers.map((w) => w.id)],
    );
    await check.end();
    const present = new Set(stored.rows.map((r) => `${r.user_id}\t${r.name}`));
    const lost = [...acknowledged].filter((key) => !present.has(key));

    report(outcomes, faults, acknowledged.size, stored.rows.length, lost.length, survived, health);
    if (!survived || lost.length > 0) process.exitCode = 1;
  } catch (error) {
    console.error(`pg-restart failed: ${(error as Error).message}`);
    if (appLog.length > 0) console.error(appLog.slice(-20).join('\n'));
    process.exitCode = 1;
  } finally {
    clearTimeout(guard);
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

function report(
  outcomes: Outcome[],
  faults: Fault[],
  acknowledged: number,
  stored: number,
  lost: number,
  survived: boolean,
  health: number | string,
): void {
  const byStatus = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.kind} ${o.status}`;
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  console.log(`\nRequests: ${outcomes.length} (${WORKERS} at a time)`);
  for (const [key, count] of [...byStatus].sort()) console.log(`  ${key.padEnd(28)} ${count}`);
  const other = outcomes.filter((o) => typeof o.status !== 'number' || (o.status >= 300 && o.status !== 503));
  console.log(`Errors other than 503: ${other.length}`);
  const kinds = new Map<string, number>();
  for (const o of other) kinds.set(`${o.kind} ${o.status}`, (kinds.get(`${o.kind} ${o.status}`) ?? 0) + 1);
  for (const [key, count] of kinds) console.log(`  ${key}: ${count}`);
  const slowest = Math.max(...outcomes.map((o) => o.ended - o.started));
  console.log(`Slowest request: ${slowest} ms`);
  console.log(`App process survived: ${survived ? 'yes' : 'NO'} (readiness afterwards: ${health})`);
  for (const fault of faults) {
    const first = outcomes
      .filter((o) => o.ended >= fault.back && typeof o.status === 'number' && o.status < 300)
      .sort((a, b) => a.ended - b.ended)[0];
    console.log(
      `Recovery after ${fault.name}: ${first ? `${first.ended - fault.back} ms` : 'none'} from PostgreSQL accepting connections to the first success`,
    );
  }
  console.log(`Writes acknowledged: ${acknowledged}, in the database: ${stored}, lost: ${lost}`);
}

await main();
