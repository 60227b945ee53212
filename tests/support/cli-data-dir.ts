// A PGlite data directory for `npm run cli` in a test, copied from the test template's first stage
// (schema and reference data, no companies; global-setup.ts): the CLI opens it already migrated
// instead of creating and migrating a new database on its first command (ADR 0039).
//
//   const dataDir = await cliDataDir(join(dir, 'db'));   // DATA_DIR for the CLI

import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** Copies the migrated, empty data directory to `to` (default: a new temporary directory) and returns its path. */
export async function cliDataDir(to?: string): Promise<string> {
  const template = inject('cliDataDir');
  if (!template)
    throw new Error('No CLI template: run the tests through vitest.config.ts (its globalSetup builds it).');
  const dir = to ?? join(await mkdtemp(join(tmpdir(), 'registra-cli-data-')), 'data');
  await cp(template, dir, { recursive: true });
  return dir;
}
