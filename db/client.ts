import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

/** The database the app talks to: PGlite (embedded) or a PostgreSQL server, behind one Kysely. */
export type Db = {
  kind: 'pglite' | 'postgres';
  kysely: Kysely<Database>;
  /** Set on PostgreSQL: the pool, for COPY and other driver-level work. */
  pool?: pg.Pool;
  /** Set on PGlite: the instance, for dumpDataDir and bulk work. */
  pglite?: PGlite;
  close(): Promise<void>;
};

// Same value shapes from both drivers: int8 as number (ids stay below 2^53), dates as 'YYYY-MM-DD',
// numeric as string (exact), timestamps as Date, bytea as Buffer.
const BYTEA = 17;
const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);

/** A request waits at most this long for a new connection while the server is unreachable (then a 503). */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A request waits at most this long for one of the pool's connections while all are busy (then a
 * 503): as long as the default statement bound (STATEMENT_TIMEOUT_SECONDS), so that a burst of
 * requests queues instead of failing. node-postgres's pool uses one `connectionTimeoutMillis` for
 * both waits; with the 5 s of connecting for both, 200 clients on one process's 10 connections got
 * 503s from the queue while the server was up (ADR 0024). The clients connect with their own bound.
 */
export const POOL_WAIT_MS = 30_000;

/**
 * When the work a statement belongs to began (`performance.now()`): the server sets it for each
 * request (server/app.ts). A busy pool serves the oldest work first.
 */
export const workStarted = new AsyncLocalStorage<number>();

type ConnectCallback = Parameters<pg.Pool['connect']>[0] & {};

/** What waits for one of the pool's connections: the start of its work, and how to hand it one. */
type Waiter = { since: number; order: number; grant: () => void };

/**
 * node-postgres's pool, but a busy pool hands a freed connection to the statement of the oldest
 * work (the request that arrived first) instead of the statement that asked first (ADR 0024). With
 * first come, first served, a request of six statements queued six times behind every newer
 * request's first statement: under 200 clients its list writes took 30 s while one-statement pages
 * took 8. Oldest first, a request queues about once, and latency follows arrival order.
 */
class OldestFirstPool extends pg.Pool {
  #free: number;
  #waiting: Waiter[] = [];
  #order = 0;

  constructor(config: pg.PoolConfig & { max: number }) {
    super(config);
    this.#free = config.max;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const checkout = this.#checkout();
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, (error?: Error | boolean) => client.release(error)),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }

  override async end(): Promise<void> {
    for (const waiter of this.#waiting.splice(0)) waiter.grant();
    return super.end();
  }

  async #checkout(): Promise<pg.PoolClient> {
    await this.#turn();
    let client: pg.PoolClient;
    try {
      // Never queues in pg's own pool: at most `max` connections are out, counted here.
      client = await super.connect();
    } catch (error) {
      this.#handOn();
      throw error;
    }
    const release = client.release;
    let released = false;
    client.release = (error?: Error | boolean) => {
      release.call(client, error);
      if (released) return;
      released = true;
      this.#handOn();
    };
    return client;
  }

  /** Resolves when this work may take a connection: at once while one is free, else in age order. */
  #turn(): Promise<void> {
    if (this.#free > 0 && this.#waiting.length === 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        since: workStarted.getStore() ?? performance.now(),
        order: this.#order++,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      // The message node-postgres gives its own queue bound (db/database-unavailable.ts: a 503).
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(new Error('timeout exceeded when trying to connect'));
      }, POOL_WAIT_MS);
      timer.unref();
      this.#waiting.push(waiter);
    });
  }

  /** A connection came back: to the oldest waiting work, else to the free ones. */
  #handOn(): void {
    if (this.#waiting.length === 0) {
      this.#free++;
      return;
    }
    let oldest = 0;
    for (let i = 1; i < this.#waiting.length; i++) {
      const w = this.#waiting[i];
      const o = this.#waiting[oldest];
      if (w.since < o.since || (w.since === o.since && w.order < o.order)) oldest = i;
    }
    const [waiter] = this.#waiting.splice(oldest, 1);
    waiter.grant();
  }
}

/** A client whose connection attempt gives up after CONNECT_TIMEOUT_MS, whatever the pool's queue bound. */
class BoundedConnectClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === 'string' ? { connectionString: config } : config),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
  }
}

/**
 * A pool on a PostgreSQL server. `statementTimeoutMs` bounds every statement (the server cancels
 * it: a lock held elsewhere or a runaway query cannot hold a request for ever); without it,
 * statements run as long as they need (migrations, seeding, index builds, benchmarks).
 */
export async function openPostgres(url: string, max = 10, options: { statementTimeoutMs?: number } = {}): Promise<Db> {
  // keepAlive: a server that vanishes without closing the connection (a network cut) is noticed
  // by TCP instead of a query waiting for ever.
  const pool = new OldestFirstPool({
    connectionString: url,
    max,
    Client: BoundedConnectClient,
    connectionTimeoutMillis: POOL_WAIT_MS,
    keepAlive: true,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // A connection the server closes (restart, failover, pg_terminate_backend) emits 'error' on its
  // client; without a listener that ends the process. The pool listens to idle clients only
  // (pool 'error'), so every client gets its own listener for while it is checked out: the query
  // it runs fails on its own (a 503), and the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => console.warn(`database connection lost: ${error.message}`));
  });
  // The pool re-emits an idle client's error, already logged by the client's own listener.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kind: 'postgres', kysely, pool, close: () => kysely.destroy() };
}

export async function openPglite(
  options: {
    dataDir?: string;
    loadDataDir?: Blob | File;
    /** Options of initdb when the data directory is new (e.g. the test template's smaller WAL segments). */
    initdb?: string[];
  } = {},
): Promise<Db> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    initDbStartParams: options.initdb,
    extensions: { pg_trgm },
    parsers: {
      [INT8]: (v: string) => Number(v),
      [DATE]: (v: string) => v,
      [NUMERIC]: (v: string) => v,
      [BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex'),
    },
    // PGlite's own bytea text goes byte by byte through a string each: 8 s of CPU for the 33 MB of an
    // export file's chunks (export-file-streaming), against milliseconds for Node's hex codec.
    serializers: { [BYTEA]: byteaText },
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(pglite) }) });
  return {
    kind: 'pglite',
    kysely,
    pglite,
    close: async () => {
      await kysely.destroy();
      await pglite.close();
    },
  };
}

/** A bytea parameter as PostgreSQL's hex text (`\x…`), as node-postgres sends a Buffer. */
function byteaText(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError('A bytea parameter must be a Buffer or Uint8Array');
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

/**
 * PGlite has one connection. This pool hands it out to one holder at a time, so that two
 * Kysely transactions can never interleave their statements on it.
 */
function pglitePool(pglite: PGlite): PostgresPool {
  let tail: Promise<void> = Promise.resolve();
  const client: Omit<PostgresPoolClient, 'release'> = {
    // The overload taking a cursor is never called: no cursor constructor is configured.
    query: (async (sql: string, parameters: ReadonlyArray<unknown>) => {
      const result = await pglite.query(sql, parameters as unknown[]);
      const command = sql.trimStart().slice(0, 6).toUpperCase();
      return { command, rowCount: result.affectedRows ?? 0, rows: result.rows };
    }) as PostgresPoolClient['query'],
  };
  return {
    options: {},
    connect() {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ready = tail;
      tail = ready.then(() => held);
      return ready.then(() => ({ ...client, release: () => release() }));
    },
    end: async () => {},
  };
}

/** Runs a script of several statements (migrations, bulk steps): simple-query protocol on both drivers. */
export async function execScript(db: Db, script: string): Promise<void> {
  if (db.pglite) {
    await db.pglite.exec(script);
    return;
  }
  await db.pool?.query(script);
}
