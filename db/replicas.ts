import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { type Db, openPostgres } from './client.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import type { Database } from './schema.ts';

// Reads that may be a moment stale (search, profiles, directories, the public data API) go to
// PostgreSQL streaming replicas (DATABASE_REPLICA_URLS); everything else — writes, and a user's own
// data, read back at once — stays on the primary (docs/decisions/0024-processes-and-replicas.md).
//
// The reads' Db hands out a connection of a usable replica (in turn), else one of the primary: a
// replica is usable while it answers and is at most `maxLagMs` behind. Every `checkEveryMs` the
// primary's WAL position is compared with each replica's replayed position: a replica that has
// replayed it is current (lag 0, also when the primary is idle); one behind is as stale as the
// time since the last transaction it replayed. A replica that fails a statement (stopped, cut off)
// is set aside at once and the statement runs again on the primary, so readers see no error; a
// statement a standby cancels for a conflict with recovery also runs again on the primary.

export type ReplicaState = { url: string; usable: boolean; lagMs: number | null; problem: string | null };

export type ReadsDb = Db & {
  /** Each replica as the last check (or failure) left it. */
  replicas(): ReplicaState[];
  /** Checks every replica now (the timer does it every checkEveryMs). */
  check(): Promise<void>;
};

export type ReplicaOptions = {
  /** A replica further behind than this serves no reads (DATABASE_REPLICA_MAX_LAG_SECONDS). */
  maxLagMs: number;
  /** How often lag and reachability are checked (default 1 s). */
  checkEveryMs?: number;
  /** Connections per replica (default 10, as the primary's pool). */
  poolSize?: number;
  statementTimeoutMs?: number;
  log?: (message: string) => void;
};

type Replica = { url: string; db: Db; pool: pg.Pool; state: ReplicaState };

/** SQLSTATE 40001 from a standby: "canceling statement due to conflict with recovery". */
const RECOVERY_CONFLICT = /conflict with recovery/;

export async function openReplicaReads(primary: Db, urls: string[], options: ReplicaOptions): Promise<ReadsDb> {
  if (!primary.pool) throw new Error('read replicas need a PostgreSQL primary (DATABASE_URL)');
  const primaryPool = primary.pool;
  const log = options.log ?? ((message: string) => console.warn(message));
  const replicas: Replica[] = [];
  for (const url of urls) {
    const db = await openPostgres(url, options.poolSize ?? 10, { statementTimeoutMs: options.statementTimeoutMs });
    replicas.push({
      url,
      db,
      pool: db.pool as pg.Pool,
      // Unusable until the first check has seen it current: a replica never serves unchecked reads.
      state: { url: redact(url), usable: false, lagMs: null, problem: 'not checked yet' },
    });
  }
  const setState = (replica: Replica, usable: boolean, lagMs: number | null, problem: string | null) => {
    if (usable !== replica.state.usable)
      log(
        usable
          ? `read replica ${replica.state.url} serves reads again (${lagMs ?? 0} ms behind)`
          : `read replica ${replica.state.url} set aside: ${problem}; its reads go to the primary`,
      );
    replica.state = { url: replica.state.url, usable, lagMs, problem };
  };

  let checking: Promise<void> | null = null;
  const checkAll = async () => {
    let position: string;
    try {
      position = (await primaryPool.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0].lsn;
    } catch {
      return; // The primary away: leave the replicas as they are (their reads may go on).
    }
    await Promise.all(
      replicas.map(async (replica) => {
        try {
          const row = (
            await replica.pool.query<{ recovering: boolean; behind: string | null; since_ms: number | null }>(
              `select pg_is_in_recovery() as recovering,
                 pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::text as behind,
                 (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as since_ms`,
              [position],
            )
          ).rows[0];
          if (!row.recovering) return setState(replica, false, null, 'not a standby (pg_is_in_recovery() is false)');
          const behind = Number(row.behind ?? Number.POSITIVE_INFINITY);
          const lagMs = behind <= 0 ? 0 : Math.round(row.since_ms ?? Number.POSITIVE_INFINITY);
          if (lagMs > options.maxLagMs)
            return setState(replica, false, lagMs, `${lagMs} ms behind (more than ${options.maxLagMs} ms)`);
          setState(replica, true, lagMs, null);
        } catch (error) {
          setState(replica, false, null, (error as Error).message);
        }
      }),
    );
  };
  const check = () => {
    checking ??= checkAll().finally(() => {
      checking = null;
    });
    return checking;
  };
  await check();
  const timer = setInterval(() => void check(), options.checkEveryMs ?? 1_000);
  timer.unref();

  let turn = 0;
  const pickReplica = (): Replica | undefined => {
    const usable = replicas.filter((r) => r.state.usable);
    if (usable.length === 0) return undefined;
    turn = (turn + 1) % usable.length;
    return usable[turn];
  };

  /** A connection for reads: a replica's, falling back to the primary's when it fails. */
  const connect = async (): Promise<RoutedClient> => {
    for (let replica = pickReplica(); replica; replica = pickReplica()) {
      try {
        return routedClient(await replica.pool.connect(), replica);
      } catch (error) {
        setState(replica, false, null, (error as Error).message);
      }
    }
    return routedClient(await primaryPool.connect(), undefined);
  };

  type RoutedClient = PostgresPoolClient & { query: pg.PoolClient['query'] };

  const routedClient = (first: pg.PoolClient, from: Replica | undefined): RoutedClient => {
    let client = first;
    let replica = from;
    let inTransaction = false;
    // (A fallback whose primary connection fails leaves nothing to release.)
    let released = false;
    const query = async (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string })?.text ?? '');
      try {
        const result = await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        if (/^\s*begin/i.test(text)) inTransaction = true;
        else if (/^\s*(commit|rollback)/i.test(text)) inTransaction = false;
        return result;
      } catch (error) {
        const down = isDatabaseUnavailable(error) && (error as { code?: string }).code !== '57014';
        const conflict = RECOVERY_CONFLICT.test((error as Error).message ?? '');
        // On the primary, inside a transaction (its earlier statements ran on the replica), or a
        // plain statement error (bad input): the error stands.
        if (!replica || inTransaction || !(down || conflict)) throw error;
        if (down) setState(replica, false, null, (error as Error).message);
        client.release(down ? (error as Error) : undefined);
        released = true;
        client = await primaryPool.connect();
        released = false;
        replica = undefined;
        return (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      }
    };
    return {
      query: query as pg.PoolClient['query'],
      release: () => {
        if (!released) client.release();
        released = true;
      },
    };
  };

  const pool = {
    connect,
    /** pg.Pool's one-statement form (named prepared statements: core/companies/prepared-query.ts). */
    async query(...args: unknown[]) {
      const client = await connect();
      try {
        return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        client.release();
      }
    },
    end: async () => {},
  };
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as unknown as PostgresPool }) });
  return {
    kind: 'postgres',
    kysely,
    // Only connect() and query() are routed: enough for reads (bulk work uses the primary's Db).
    pool: pool as unknown as pg.Pool,
    replicas: () => replicas.map((r) => r.state),
    check,
    close: async () => {
      clearInterval(timer);
      await checking;
      await kysely.destroy();
      for (const replica of replicas) await replica.db.close();
    },
  };
}

/** A URL without its password, for logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(a replica)';
  }
}
