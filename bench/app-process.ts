// Servers a bench starts as child processes (the app's server/main.ts, another checkout's, or a
// bench server): each on a free loopback port, ready when it prints its ready text, and never
// outliving the bench, however it ends. Used by bench/cpu.ts and bench/scale-words.ts.

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The environment of an app process a bench starts: production build, no jobs, no seeding, quiet logs. */
export const BENCH_APP_ENV = {
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  SEED_COMPANIES: '0',
  SITE_URL: 'http://bench.invalid',
  PAGE_CACHE_SECONDS: '60',
  LOG_LEVEL: 'error',
  JOBS_WORKER: 'off',
  // The API's hourly limits stay in force (their per-request work is measured) but never refuse the bench.
  API_LIMIT_FACTOR: '1000000',
};
/** What server/main.ts prints once it answers. */
export const APP_READY = 'Facet counts ready';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});
process.on('uncaughtException', (error) => {
  console.error(error);
  process.exit(1);
});

/**
 * Starts a child node process and waits for `readyText` on its standard output; returns it, its
 * base URL and its inspector's address. `script` is relative to bench/ or an absolute path (another
 * checkout's server/main.ts, run from that checkout's root).
 */
export async function start(
  script: string,
  argv: string[],
  env: Record<string, string>,
  readyText: string,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; base: string; inspector: Promise<string> }> {
  const port = await freePort();
  const path = script.startsWith('/') ? script : fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, [...nodeOptions, path, ...argv], {
    cwd: script.startsWith('/')
      ? path.replace(/\/server\/main\.ts$/, '')
      : fileURLToPath(new URL('../', import.meta.url)),
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const inspector = new Promise<string>((resolve) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const ws = /ws:\/\/\S+/.exec(chunk);
      if (ws) resolve(ws[0]);
      else if (!chunk.includes('For help, see')) process.stderr.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 15 minutes`)), 900_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes(readyText)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
  return { child, base: `http://127.0.0.1:${port}`, inspector };
}
