import { type Kysely, sql } from 'kysely';
import type { Db } from './client.ts';
import type { Database } from './schema.ts';

/** One connection to run statements on: scripts of several statements, and queries for their rows. */
export type Session = {
  /** Runs a script of several statements (simple-query protocol). */
  run(script: string): Promise<void>;
  rows<R>(query: string): Promise<R[]>;
};

/** Advisory locks are numbers: each name gets its own, the same in every process. */
const lockKey = (name: string) => `registra:${name}`;

const ignore = () => {};

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name`, so that processes starting
 * together on one database (migrations, demo data) take turns. The lock lives on a connection of
 * its own, `work`'s session; it is released when `work` ends, and by the server when the process
 * dies. PGlite needs none: one process holds its data directory (data-dir-lock.ts).
 */
export async function withAdvisoryLock<T>(db: Db, name: string, work: (session: Session) => Promise<T>): Promise<T> {
  const { pglite, pool } = db;
  if (pglite) {
    return work({
      run: async (script) => {
        await pglite.exec(script);
      },
      rows: async <R>(query: string) => (await pglite.query<R>(query)).rows,
    });
  }
  if (!pool) throw new Error('The database has neither PGlite nor a pool');
  const client = await pool.connect();
  // A connection lost during `work` fails the statement running on it, which reports the loss;
  // unheard, the client's own 'error' event would end the process.
  client.on('error', ignore);
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [lockKey(name)]);
    const result = await work({
      run: async (script) => {
        await client.query(script);
      },
      rows: async <R>(query: string) => (await client.query(query)).rows as R[],
    });
    await client.query('select pg_advisory_unlock(hashtext($1))', [lockKey(name)]);
    client.off('error', ignore);
    client.release();
    return result;
  } catch (error) {
    // Closed rather than returned to the pool: that ends an aborted transaction and frees the lock.
    client.off('error', ignore);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * Takes the advisory lock `name` for the rest of the transaction `trx` (PGlite too, where it costs
 * nothing): transactions of several processes that take the same lock run one after the other.
 */
export async function lockForTransaction(trx: Kysely<Database>, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${lockKey(name)}))`.execute(trx);
}
