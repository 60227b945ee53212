// A setup file of every tier (vitest.config.ts): the CPU time (user + system) the worker spent on
// each test file — its imports, hooks and tests — kept in the file's meta for the tier-times
// reporter. Steadier than wall time on a shared machine; it leaves out child processes (the CLI,
// nginx, Chromium) and the PostgreSQL server's share of a query.
import { afterAll } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Seconds of CPU (user + system) this file cost its worker. */
    cpu?: number;
  }
}

const started = process.cpuUsage();
// Registered first, so it runs last: after the file's own afterAll hooks have closed what it opened.
// biome-ignore lint/correctness/noEmptyPattern: Vitest reads a hook's first argument as fixtures, which must be a pattern.
afterAll(({}, suite) => {
  const used = process.cpuUsage(started);
  suite.meta.cpu = (used.user + used.system) / 1e6;
});
