// The app's pool (db/client.ts, ADR 0024): a request that finds every pooled connection busy waits
// for one (a burst queues) instead of failing after the 5 s bound of opening a connection, while a
// server that never answers a new connection still fails within that bound (a 503 for the request).
import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, openPostgres } from '../../db/client.ts';
import { isDatabaseUnavailable } from '../../db/database-unavailable.ts';
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
