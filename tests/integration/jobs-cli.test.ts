import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, cliDataDir, cliEnv } from '../support/cli-data-dir.ts';

// The job worker as a process of its own (docs/decisions/0015-monitoring.md): a reports run asked
// for from the command line is taken and done by `jobs work --once`, and `jobs list` shows it.

const run = promisify(execFile);
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'registra-jobs-cli-'));
  dataDir = await cliDataDir(join(dir, 'data'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  return run(process.execPath, cliArgs(...args), { env: cliEnv(dataDir) });
};

describe('npm run cli -- jobs', () => {
  it('queues a reports run once, works it off as its own process, and lists it done', async () => {
    expect((await cli('db', 'migrate')).stdout).toContain('Database is up to date.');
    expect((await cli('jobs', 'enqueue-reports')).stdout).toMatch(/Queued job #\d+\./);
    expect((await cli('jobs', 'enqueue-reports')).stdout).toContain('A reports run is already waiting.');
    expect((await cli('jobs', 'work', '--once')).stdout).toContain('Ran 1 job.');
    expect((await cli('jobs', 'list')).stdout).toMatch(/#\d+ monitoring-reports done \(attempts 1\)/);
  }, 180_000);
});
