// The first answer of each section after a restart (ADR 0041): the app is started afresh on a
// PostgreSQL database (server/main.ts, production build, page cache off, no jobs worker), and as
// soon as it says it is ready each of 27 pages is asked for once, one after the other — the 22
// section searches, the home page, a company profile, the two company directories and the data
// API's companies — then once more (the warm answer, for comparison). Repeated over --restarts
// starts; the median of each page's first answers is its result (goal ≤ 50 ms).
//
//   node bench/first-answers.ts [--restarts N] [--order forward|reverse]
//
// DATABASE_URL: default postgres://postgres@127.0.0.1:5432/registra_bench (read; the app starts
// on it as bench/run.ts does). The production build is made first when missing. PostgreSQL itself
// is not restarted here (it is shared): each start is a new app process with new connections —
// cold catalog caches of its sessions, no prepared plans, modules not yet loaded or compiled.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { SECTIONS } from '../core/sections/sections.ts';
import { freePort } from '../scripts/own-postgres.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GOAL_MS = 50;

const { values: args } = parseArgs({
  options: {
    restarts: { type: 'string', default: '3' },
    order: { type: 'string', default: 'forward' },
  },
});
const RESTARTS = Number(args.restarts);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The 27 pages: every section's search, then the pages outside the sections. */
async function pages(): Promise<{ name: string; path: string }[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const company = await client.query<{ uri: string }>(
    'select uri from legal_entities order by registration_sort desc, id desc limit 1',
  );
  await client.end();
  return [
    ...SECTIONS.map((s) => ({ name: `${s.id} search`, path: `/${s.id}/search/` })),
    { name: 'home', path: '/' },
    { name: 'company profile', path: `/companies/details/${company.rows[0].uri}/` },
    { name: 'jurisdictions directory', path: '/companies/directories/jurisdictions/' },
    { name: 'industries directory', path: '/companies/directories/industries/' },
    { name: 'data API companies', path: '/api/site/data/v1/legal_entities?count=20' },
  ];
}

function startApp(port: number): { child: ChildProcess; ready: Promise<void>; log: string[] } {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_COMPANIES: '0',
      PAGE_CACHE_SECONDS: '0',
      JOBS_WORKER: 'off',
      API_LIMIT_FACTOR: '100000',
      LOG_LEVEL: 'error',
      // WARM_UP=off in the environment measures the start without the warm-up (server/warm-up.ts).
      WARM_UP: process.env.WARM_UP ?? 'on',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the app was not ready in 5 minutes:\n${log.join('\n')}`)),
      300_000,
    );
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        log.push(line);
        if (line.startsWith('Registra is ready')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}):\n${log.slice(-20).join('\n')}`));
    });
  });
  return { child, ready, log };
}

async function timed(base: string, path: string): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  // As a browser: HTML first, compressed.
  const response = await fetch(`${base}${path}`, {
    signal: AbortSignal.timeout(30_000),
    headers: { accept: 'text/html,application/json', 'accept-encoding': 'br, gzip' },
  });
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'build/server/index.js'))) {
    console.log('Building the app (react-router build)…');
    await run(join(ROOT, 'node_modules/.bin/react-router'), ['build'], { cwd: ROOT });
  }
  const list = await pages();
  if (args.order === 'reverse') list.reverse();
  const first = new Map<string, number[]>(list.map((p) => [p.name, []]));
  const warm = new Map<string, number[]>(list.map((p) => [p.name, []]));
  const statuses = new Map<string, Set<number>>(list.map((p) => [p.name, new Set()]));
  for (let r = 0; r < RESTARTS; r++) {
    const port = await freePort();
    const started = performance.now();
    const app = startApp(port);
    try {
      await app.ready;
      const base = `http://127.0.0.1:${port}`;
      for (const line of app.log.filter((l) => /^(Warm|Facet)/.test(l))) console.log(`  app: ${line}`);
      console.log(
        `start ${r + 1}: ready in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')})`,
      );
      // The bench's own HTTP client is loaded and connected first (its first request costs
      // ~100 ms of module loading on this side), on the health route, which reads nothing.
      await timed(base, '/api/health');
      for (const page of list) {
        const { ms, status } = await timed(base, page.path);
        first.get(page.name)?.push(ms);
        statuses.get(page.name)?.add(status);
      }
      for (const page of list) warm.get(page.name)?.push((await timed(base, page.path)).ms);
    } finally {
      await stop(app.child);
    }
  }
  const width = Math.max(...list.map((p) => p.name.length));
  console.log(`\n${'page'.padEnd(width)}  first answers (ms)          median  warm  status`);
  let over = 0;
  for (const page of list) {
    const times = first.get(page.name) ?? [];
    const m = median(times);
    if (m > GOAL_MS) over += 1;
    console.log(
      `${page.name.padEnd(width)}  ${times
        .map((t) => t.toFixed(0).padStart(5))
        .join(' ')
        .padEnd(26)}  ${m.toFixed(0).padStart(6)}  ${median(warm.get(page.name) ?? [])
        .toFixed(0)
        .padStart(4)}  ${[...(statuses.get(page.name) ?? [])].join(',')}${m > GOAL_MS ? '  OVER' : ''}`,
    );
  }
  console.log(`\n${over} of ${list.length} pages above ${GOAL_MS} ms (median of ${RESTARTS} starts' first answers)`);
}

await main();
