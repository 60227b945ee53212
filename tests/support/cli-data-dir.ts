// A PGlite data directory for `npm run cli` in a test, copied from the test template's first stage
// (schema and reference data, no companies; global-setup.ts): the CLI opens it already migrated
// instead of creating and migrating a new database on its first command (ADR 0039).
//
//   const dataDir = await cliDataDir(join(dir, 'db'));   // DATA_DIR for the CLI
//   run(process.execPath, cliArgs('import', source, file), { env: cliEnv(dataDir) });

import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

/**
 * Node's arguments for a CLI command in a test. `--liftoff-only`: V8 runs PGlite's WebAssembly as its
 * baseline compiler makes it, without optimizing PostgreSQL's hot functions in the background — work
 * that pays back over a long import, never over a test's command of a second or two, and that cost
 * each spawn some 2 s of CPU and 1.7 s of waiting here (3.4 → 1.0 s for a 10-record import; ADR 0039).
 * The command runs the same code with the same results.
 */
export function cliArgs(...args: string[]): string[] {
  return ['--liftoff-only', CLI, ...args];
}

/**
 * The environment of a spawned `cli/main.ts` on PGlite in `dataDir` (never DATABASE_URL). The CLI
 * processes share a module compile cache (NODE_COMPILE_CACHE): each spawn then skips compiling the
 * ~460 modules a command loads, 0.3 s of CPU a command (bench/RESULTS.md, ADR 0039). Node keys it
 * by each file's content, so an edited module is compiled again.
 */
export function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...env } = process.env;
  return { ...env, DATA_DIR: dataDir, NODE_COMPILE_CACHE: join(tmpdir(), 'registra-cli-compile-cache') };
}

/** Copies the migrated, empty data directory to `to` (default: a new temporary directory) and returns its path. */
export async function cliDataDir(to?: string): Promise<string> {
  const template = inject('cliDataDir');
  if (!template)
    throw new Error('No CLI template: run the tests through vitest.config.ts (its globalSetup builds it).');
  const dir = to ?? join(await mkdtemp(join(tmpdir(), 'registra-cli-data-')), 'data');
  await cp(template, dir, { recursive: true });
  return dir;
}
