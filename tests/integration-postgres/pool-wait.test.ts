// The app's pool (db/client.ts, ADR 0024): a request that finds every pooled connection busy waits
// for one (a burst queues) instead of failing after the 5 s bound of opening a connection, while a
// server that never answers a new connection still fails within that bound (a 503 for the request).
// A freed connection goes to the oldest request's statement, and each request's statements carry
// its arrival (server/app.ts).
import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, openPostgres, workStarted } from '../../db/client.ts';
import { isDatabaseUnavailable } from '../../db/database-unavailable.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let t: TestDatabase;
let one: Db;

beforeAll(async () => {
  t = await openTestDatabase();
  const pool = t.db.pool;
  if (!pool) throw new Error('tests/integration-postgres/ run only in the integration-postgres project');
  one = await openPostgres((pool.options as { connectionString: string }).connectionString, 1);
});
afterAll(async () => {
  await one?.close();
  await t?.db.close();
});

it('a statement waits past the 5 s connect bound for the busy pool’s only connection, then runs', async () => {
  const started = Date.now();
  const busy = sql`select pg_sleep(6)`.execute(one.kysely);
  const queued = sql<{ n: number }>`select 1 as n`.execute(one.kysely);
  const [, result] = await Promise.all([busy, queued]);
  expect(result.rows[0].n).toBe(1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(6_000);
}, 20_000);

it('a server that accepts but never answers fails the connection within the connect bound, as unavailable', async () => {
  const sockets: Socket[] = [];
  const silent: Server = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  const db = await openPostgres(`postgres://postgres@127.0.0.1:${port}/none`, 1);
  const started = Date.now();
  const error = await sql`select 1`.execute(db.kysely).then(
    () => null,
    (e: unknown) => e,
  );
  const waited = Date.now() - started;
  await db.close();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect(waited).toBeGreaterThanOrEqual(4_500);
  expect(waited).toBeLessThan(15_000);
}, 30_000);

it('hands a freed connection to the statement of the oldest work, not of the first to ask', async () => {
  const done: string[] = [];
  const run = (name: string, since: number, statement = sql`select 1`) =>
    workStarted.run(since, () => statement.execute(one.kysely).then(() => done.push(name)));
  const busy = run('busy', 0, sql`select pg_sleep(0.5)`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Asked first, but its request arrived after the other's (a request's first statement against an
  // older request's next one).
  const younger = run('younger', 2_000);
  const older = run('older', 1_000);
  const background = one.kysely
    .selectNoFrom(sql`1`.as('n'))
    .execute()
    .then(() => done.push('background'));
  await Promise.all([busy, younger, older, background]);
  // Work outside a request counts from when it asked: after both requests here.
  expect(done).toEqual(['busy', 'older', 'younger', 'background']);
});

it('runs every request, a body’s too, in its arrival’s context, through awaited statements', async () => {
  const app = { app: await buildApp({ db: t.db, reference: t.reference, siteUrl: 'http://localhost', pages: false }) };
  try {
    app.app.post('/probe', async () => {
      const before = workStarted.getStore();
      await sql`select 1`.execute(t.db.kysely);
      return { before, after: workStarted.getStore() };
    });
    app.app.get('/probe', async () => ({ before: workStarted.getStore(), after: workStarted.getStore() }));
    // Over a socket, with a body of several chunks: they arrive in events of the socket.
    const base = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const sent = performance.now();
    const [post, get] = await Promise.all([
      fetch(`${base}/probe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ a: 'x'.repeat(500_000) }),
      }),
      fetch(`${base}/probe`),
    ]);
    const [posted, got] = [await post.json(), await get.json()];
    for (const { before, after } of [posted, got] as { before: number; after: number }[]) {
      expect(before).toBeGreaterThanOrEqual(sent);
      expect(after).toBe(before);
    }
    expect(posted.before).not.toBe(got.before);
  } finally {
    await app.app.close();
  }
});
