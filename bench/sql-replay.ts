// The SQL a call sends, recorded and replayed without the app (bench/cpu.ts, bench/bare-server.ts;
// docs/decisions/0040-cpu-per-request.md). A recording keeps each statement with the number of the
// call's statements that had finished when it was sent: statements sent with the same number were in
// flight together (a Promise.all in the app) and replay together; the next number waits for them, as
// the app waited. Several recorded calls (a page's independent loaders) replay side by side.

import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { Db } from '../db/client.ts';
import type { Database } from '../db/schema.ts';

export type Statement = { sql: string; parameters: unknown[]; after: number };
/** One recorded call's statements. */
export type Group = Statement[];
/** A request's calls, which ran side by side. */
export type Plan = Group[];

/** A Db on `db`'s pool that records the statements of whatever runs on it into `group`. */
export function recordingDb(db: Db, group: Group): Db {
  const pool = db.pool!;
  let finished = 0;
  const wrapped: PostgresPool = {
    options: {},
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (async (text: string, parameters: unknown[]) => {
          group.push({ sql: text, parameters, after: finished });
          try {
            return await client.query(text, parameters);
          } finally {
            finished++;
          }
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: async () => {},
  };
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: wrapped }) });
  return { kind: 'postgres', kysely, close: async () => {} };
}

/** Records each call on its own recording Db, running them side by side as the app does. */
export async function recordPlan(db: Db, calls: ((d: Db) => Promise<unknown>)[]): Promise<Plan> {
  const plan: Plan = calls.map(() => []);
  await Promise.all(calls.map((call, i) => call(recordingDb(db, plan[i]))));
  return plan;
}

/** Runs a plan's statements on a bare pool: groups side by side, each group's waves in order. */
export async function replayPlan(pool: pg.Pool, plan: Plan): Promise<unknown[][]> {
  const results = await Promise.all(
    plan.map(async (group) => {
      const rows: unknown[] = [];
      const waves = Map.groupBy(group, (s) => s.after);
      for (const after of [...waves.keys()].sort((a, b) => a - b)) {
        const answers = await Promise.all(waves.get(after)!.map((s) => pool.query(s.sql, s.parameters as unknown[])));
        for (const a of answers) rows.push(...a.rows);
      }
      return rows;
    }),
  );
  return results;
}
