// App processes for the tests of several processes on one PostgreSQL database: `node server/main.ts`
// (the production build) as a child process on a free loopback port, and its stop.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/own-postgres.ts';

export { freePort };

const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));

export type Started = { child: ChildProcess; url: string; port: number; output: () => string };

/** `node server/main.ts` over the database `url`, resolved once it logs that it is ready. */
export async function startServer(url: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const { SEED_COMPANIES: _, DATABASE_URL: __, ...inherited } = process.env;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...inherited, ...env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  await new Promise<void>((resolve, reject) => {
    const ready = setInterval(() => {
      if (output().includes('Registra is ready')) {
        clearInterval(ready);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(ready);
      reject(new Error(`the server exited with ${code} before it was ready:\n${output()}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, port, output };
}

/** Stops a server (SIGTERM) and resolves with its exit code (null: it had to be killed). */
export function stopServer(server: Started): Promise<number | null> {
  // Ended already: with its code, or (killed by a signal, which leaves exitCode null) with null.
  if (server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve(server.child.exitCode);
  return new Promise((resolve) => {
    // A shutdown that waits longer than this (a request queued on a stopped database; past the
    // statement timeout, 30 s, any statement has ended) is ended: a test's teardown stays bounded.
    const kill = setTimeout(() => {
      // What it said is the only clue to why it did not stop.
      console.error(`The server did not stop within 45 s of SIGTERM; killing it. Its output:\n${server.output()}`);
      server.child.kill('SIGKILL');
    }, 45_000);
    server.child.once('exit', (code) => {
      clearTimeout(kill);
      resolve(code);
    });
    server.child.kill('SIGTERM');
  });
}

/** What a child process writes (stdout and stderr), so far. */
export function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: string) => {
    output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  return () => output;
}
