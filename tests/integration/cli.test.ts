import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../db/client.ts';
import { cliArgs, cliDataDir, cliEnv } from '../support/cli-data-dir.ts';

const run = promisify(execFile);
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'registra-cli-'));
  dataDir = await cliDataDir(join(dir, 'data'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  return run(process.execPath, cliArgs(...args), { env: cliEnv(dataDir) });
};

describe('npm run cli', () => {
  it('migrates, then seeds deterministic demo companies and tops them up', async () => {
    expect((await cli('db', 'migrate')).stdout).toContain('Database is up to date.');
    expect((await cli('db', 'seed', '--companies', '30', '--seed', '3')).stdout).toMatch(/Seeded 30 companies/);
    expect((await cli('db', 'seed', '--companies', '20', '--seed', '3')).stdout).toMatch(/Seeded 20 companies/);
    const db = await openPglite({ dataDir });
    try {
      const rows = await db.kysely.selectFrom('legal_entities').select(['id']).orderBy('id').execute();
      expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    } finally {
      await db.close();
    }
  }, 120_000);

  it('rejects a bad option with a message naming it', async () => {
    const failure = await cli('db', 'seed', '--companies', 'many').catch((e: { stderr: string; code: number }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('--companies must be a whole number');
  });
});
