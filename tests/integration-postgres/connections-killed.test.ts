// The app's PostgreSQL connections are killed under load (pg_terminate_backend from another
// session, as a restart or a failover does): the process survives (no unhandled rejection, no
// unhandled 'error' event on a client), every failed request is a 503 (never a 500, never a
// hang), and requests succeed again within a second.
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

const unhandled: unknown[] = [];
const collect = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', collect);
process.on('uncaughtException', collect);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(async () => {
  process.off('unhandledRejection', collect);
  process.off('uncaughtException', collect);
  await t?.close();
});

/** Requests in flight at once: more than the pool's connections, so that some wait for one. */
const CONCURRENCY = 16;
/** Load goes on this long after the last kill. */
const AFTER_MS = 1_500;
/** A request taking longer than this counts as hung. */
const HANG_MS = 10_000;
const URLS = [
  '/companies/search/?jurisdiction=276',
  '/liabilities/search/?filed_on:from=2015',
  '/api/site/data/v1/legal_entities?count=20',
  '/api/site/data/v1/vessels?gross_tonnage:from=100',
  '/api/health/ready',
];

type Outcome = { started: number; ended: number; status: number | 'hung' };

async function timed(url: string): Promise<Outcome> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), HANG_MS);
  });
  const answer = t.app.inject({ method: 'GET', url }).then((r) => r.statusCode);
  const status = await Promise.race([answer, hung]);
  clearTimeout(timer);
  return { started, ended: Date.now(), status };
}

/**
 * Terminates every session of the app's database but its own, with requests surely in flight:
 * it first holds a lock that every read of companies waits for, so that the app's connections
 * are checked out, mid-query, when they are killed. Returns how many it killed.
 */
async function killConnections(database: string): Promise<number> {
  const source = inject('testDatabase');
  if (source?.kind !== 'postgres') throw new Error('this file runs in the integration-postgres project only');
  const admin = new pg.Client({ connectionString: databaseUrlOf(source.url, database) });
  await admin.connect();
  try {
    await admin.query('begin');
    await admin.query('lock table legal_entities in access exclusive mode');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const result = await admin.query<{ killed: boolean }>(
      'select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    await admin.query('commit');
    return result.rows.filter((r) => r.killed).length;
  } finally {
    await admin.end();
  }
}

function databaseUrlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

it('survives its connections being killed mid-load, answers 503 meanwhile and recovers within a second', async () => {
  const database = (
    await t.db.kysely.selectNoFrom((eb) => eb.fn<string>('current_database').as('name')).executeTakeFirstOrThrow()
  ).name;
  const outcomes: Outcome[] = [];
  let until = Number.POSITIVE_INFINITY;
  const worker = async (n: number) => {
    for (let i = n; Date.now() < until; i++) outcomes.push(await timed(URLS[i % URLS.length]));
  };
  const kills: { at: number; killed: number }[] = [];
  const killer = async () => {
    for (const delay of [700, 800, 700]) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      kills.push({ at: Date.now(), killed: await killConnections(database) });
    }
    until = Date.now() + AFTER_MS;
  };
  await Promise.all([...Array.from({ length: CONCURRENCY }, (_, n) => worker(n)), killer()]);

  // The kills hit the app's connections (else this test would test nothing).
  expect(kills.reduce((sum, k) => sum + k.killed, 0)).toBeGreaterThan(0);
  const statuses = new Map<string, number>();
  for (const o of outcomes) statuses.set(String(o.status), (statuses.get(String(o.status)) ?? 0) + 1);
  console.log(
    `${outcomes.length} requests: ${JSON.stringify([...statuses])}; killed ${JSON.stringify(kills.map((k) => k.killed))}`,
  );
  // Requests were in flight when their connections were killed; each failed one is a 503: no 500, no hang.
  expect(statuses.get('503') ?? 0).toBeGreaterThan(0);
  expect(
    [...statuses.keys()].filter((s) => s !== '200' && s !== '503'),
    JSON.stringify([...statuses]),
  ).toEqual([]);
  // After each kill, a request started within a second of it succeeds (the pool reconnects).
  for (const kill of kills) {
    const first = outcomes
      .filter((o) => o.started >= kill.at && o.status === 200)
      .sort((a, b) => a.started - b.started)[0];
    expect(first, `no success after the kill at ${kill.at}`).toBeDefined();
    expect(first.started - kill.at).toBeLessThan(1_000);
  }
  expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(outcomes.length / 2);
  // Still serving, and nothing went unhandled.
  expect((await t.app.inject({ method: 'GET', url: '/companies/search/' })).statusCode).toBe(200);
  expect(unhandled).toEqual([]);
});
