import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../db/client.ts';
import { cliArgs, cliEnv } from '../support/cli-data-dir.ts';
import { writeZip } from '../support/zip-file.ts';

// `npm run cli -- import ch-accounts|sec-ixbrl <file|dir|zip…>` (docs/decisions/0037-inline-xbrl-accounts.md):
// the real filings as a file, a directory and a zip built here, on a PGlite data directory of its own;
// a bad file goes to the rejects file by name and the rest imports; the same files again change nothing.

const run = promisify(execFile);
const FIXTURES = '/work/shared/fixtures/accounts-ixbrl';
let dataDir: string;
let work: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'registra-accounts-cli-'));
  work = await mkdtemp(join(tmpdir(), 'registra-accounts-files-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), {
      env: cliEnv(dataDir),
      cwd: work,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('import ch-accounts and sec-ixbrl from the command line', () => {
  it('imports a file, a directory and a zip, lists the bad file as rejected, and changes nothing the second time', async () => {
    const dir = join(work, 'daily');
    await mkdir(dir);
    await copyFile(
      join(FIXTURES, 'Prod223_2911_SC312961_20200930.html'),
      join(dir, 'Prod223_2911_SC312961_20200930.html'),
    );
    await writeFile(join(dir, 'Prod223_2911_99999999_20201231.html'), '<html><body>cut short <div');
    const zip = join(work, 'Accounts_Monthly_Data-December2020.zip');
    await writeZip(
      zip,
      await Promise.all(
        ['Prod223_2911_05078870_20200930.html', 'Prod223_2911_04457427_20201231.html'].map(async (name) => ({
          name,
          text: await readFile(join(FIXTURES, name), 'utf8'),
        })),
      ),
    );
    const file = join(FIXTURES, 'Prod223_2911_00390616_20201231.html');
    const rejects = join(work, 'accounts.rejects.tsv');

    const first = await cli('import', 'ch-accounts', file, dir, zip, '--rejects', rejects);
    expect(first.stderr).not.toContain('Not imported');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/5 read, 4 new, 0 changed, 0 unchanged, 1 rejected/);
    expect(first.stdout).toContain('rejected: Prod223_2911_99999999_20201231.html');
    expect(await readFile(rejects, 'utf8')).toContain('Prod223_2911_99999999_20201231.html\trecord\t1\t');

    const sec = await cli('import', 'sec-ixbrl', join(FIXTURES, 'aapl-20200926.htm'));
    expect(sec.code).toBe(0);
    expect(sec.stdout).toMatch(/1 read, 1 new/);

    const second = await cli('import', 'ch-accounts', file, dir, zip, '--rejects', rejects);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/5 read, 0 new, 0 changed, 4 unchanged, 1 rejected/);

    const db = await openPglite({ dataDir });
    try {
      const counts = await sql<{ filings: string; statements: string; changes: string }>`select
        (select count(*) from filings) as filings, (select count(*) from financial_statements) as statements,
        (select count(*) from company_changes where field = 'records.financial_statements') as changes`.execute(
        db.kysely,
      );
      // 5 filings; statements: 00390616 2, SC312961 2, 05078870 4 (company and group, two years), 04457427 2, Apple 3.
      const row = counts.rows[0];
      expect([row.filings, row.statements, row.changes].map(Number)).toEqual([5, 13, 13]);
      const demo = await sql<{ name: string; revenue: string; equity: string }>`select l.name, f.revenue, f.equity
        from financial_statements f join legal_entities l on l.id = f.legal_entity_id
        where f.period_end = '2020-09-30' and f.scope_id = 2`.execute(db.kysely);
      expect(demo.rows).toEqual([{ name: 'Demo TV Limited', revenue: '21444801.00', equity: '2288664.00' }]);
    } finally {
      await db.close();
    }
  }, 400_000);
});
