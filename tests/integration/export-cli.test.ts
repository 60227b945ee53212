import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../core/billing/ledger.ts';
import { openDatabase } from '../../db/open-database.ts';
import { cliArgs, cliDataDir, cliEnv } from '../support/cli-data-dir.ts';
import { parseStrictCsv } from '../support/export-readers.ts';

// `npm run cli -- export`: a file of the search's rows and a summary line; bad input is
// a clear error, a non-zero exit and no file. With --job --user, the user's export job: charged
// once, worked with a progress bar, its stored file written, kept on the user's exports page.

const run = promisify(execFile);
let dir: string;

const cli = (...args: string[]) => {
  return run(process.execPath, cliArgs(...args), { env: cliEnv(join(dir, 'db')) });
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'registra-export-cli-'));
  await cliDataDir(join(dir, 'db'));
  await cli('db', 'seed', '--companies', '40', '--seed', '5');
  const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, 'db') });
  try {
    const user = await db.kysely
      .insertInto('users')
      .values({ email: 'cli-export@example.com', name: 'CLI', password_hash: 'x', activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await grantCredits(db, Number(user.id), 10);
  } finally {
    await db.close();
  }
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run cli -- export', () => {
  it('writes the search’s rows and prints a summary', async () => {
    const out = join(dir, 'companies.csv');
    const { stdout } = await cli(
      'export',
      '--section',
      'companies',
      '--filter',
      'status=1',
      '--format',
      'csv',
      '--separator',
      'tab',
      '--out',
      out,
    );
    const match = /Exported (\d+) companies to .*companies\.csv \(csv, [\d.]+ KB\) in [\d.]+ s\./.exec(stdout);
    expect(match, stdout).not.toBeNull();
    const records = parseStrictCsv(await readFile(out, 'utf8'), '\t');
    expect(records.length - 1).toBe(Number(match?.[1]));
    expect(records[0].slice(0, 3)).toEqual(['ID', 'Name', 'Status']);
    expect(new Set(records.slice(1).map((r) => r[2]))).toEqual(new Set(['Active']));
  }, 60_000);

  it.each([
    [['--format', 'pdf'], '--format: format must be one of csv, xlsx, json, xml'],
    [['--filter', 'jurisdiction=xx'], '--filter: jurisdiction has an invalid value "xx"'],
    [['--limit', '0'], '--limit: count must be a whole number'],
    [['--section', 'spaceships'], '--section must be one of companies'],
  ])(
    'refuses %j with a clear message, exit 1 and no file',
    async (args, message) => {
      const out = join(dir, 'bad.out');
      const failure = await cli('export', ...args, '--out', out).catch((e: { stderr: string; code: number }) => e);
      expect(failure).toMatchObject({ code: 1 });
      expect((failure as { stderr: string }).stderr).toContain(message);
      expect((await readdir(dir)).filter((f) => f.startsWith('bad.out'))).toEqual([]);
    },
    60_000,
  );

  it('runs a user’s export job with --job --user: charged once, its file written', async () => {
    const out = join(dir, 'job.csv');
    const { stdout } = await cli('export', '--job', '--user', 'cli-export@example.com', '--limit', '30', '--out', out);
    expect(stdout).toContain('Export #1: 30 rows; charged 1 credit, balance 9.');
    expect(stdout).toMatch(
      /Exported 30 rows to .*job\.csv \(csv, [\d.]+ KB\) in [\d.]+ s; export #1 is on the user's exports page until \d{4}-\d{2}-\d{2}\./,
    );
    const records = parseStrictCsv(await readFile(out, 'utf8'));
    expect(records.length).toBe(31);
    const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, 'db') });
    try {
      const job = await db.kysely
        .selectFrom('export_jobs')
        .select(['status', 'rows_written'])
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ status: 'done', rows_written: 30 });
      const spends = await db.kysely
        .selectFrom('credit_ledger')
        .select('delta')
        .where('reason', '=', 'export')
        .execute();
      expect(spends).toEqual([{ delta: -1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('refuses --job without --user, and an unknown user', async () => {
    const out = join(dir, 'nobody.csv');
    const without = await cli('export', '--job', '--out', out).catch((e: { stderr: string; code: number }) => e);
    expect(without).toMatchObject({ code: 1 });
    expect((without as { stderr: string }).stderr).toContain('--job needs --user <email>');
    const unknown = await cli('export', '--job', '--user', 'nobody@example.com', '--out', out).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect((unknown as { stderr: string }).stderr).toContain('--user: no user has the email nobody@example.com');
    expect((await readdir(dir)).filter((f) => f.startsWith('nobody.csv'))).toEqual([]);
  }, 60_000);
});
