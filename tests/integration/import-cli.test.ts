import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openPglite } from '../../db/client.ts';

// `npm run cli -- import`: its summary, rejects file and exit codes, on its own PGlite data directory.

const run = promisify(execFile);
const CLI = new URL('../../cli/main.ts', import.meta.url).pathname;
const FIXTURES = '/work/shared/fixtures/gleif';
let dataDir: string;
let work: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'registra-import-cli-'));
  work = await mkdtemp(join(tmpdir(), 'registra-import-files-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

type Outcome = { stdout: string; stderr: string; code: number };

async function cli(...args: string[]): Promise<Outcome> {
  const { DATABASE_URL: _, ...env } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...env, DATA_DIR: dataDir },
      cwd: work,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function zipOf(path: string, entries: { name: string; file: string }[]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addFile(e.file, e.name);
  zip.end();
  await new Promise<void>((resolve, reject) =>
    zip.outputStream
      .pipe(createWriteStream(path))
      .on('close', () => resolve())
      .on('error', reject),
  );
  return path;
}

describe('npm run cli -- import', () => {
  it('imports a zip, prints the summary and exits 0; the same file again says 0 changed', async () => {
    const zip = await zipOf(join(work, 'lei.zip'), [
      { name: 'lei-cdf.xml', file: join(FIXTURES, 'lei-cdf-2.1.top10.xml') },
    ]);
    const first = await cli('import', 'gleif-lei', zip);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/10 read, 10 new, 0 changed, 0 unchanged, 0 rejected/);
    const again = await cli('import', 'gleif-lei', zip);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/10 read, 0 new, 0 changed, 10 unchanged, 0 rejected/);
    const db = await openPglite({ dataDir });
    try {
      const imports = await db.kysely
        .selectFrom('imports')
        .select(['status', 'new', 'unchanged'])
        .orderBy('id')
        .execute();
      expect(imports).toEqual([
        { status: 'done', new: 10, unchanged: 0 },
        { status: 'done', new: 0, unchanged: 10 },
      ]);
    } finally {
      await db.close();
    }
  }, 240_000);

  it('exits 0 with rejected rows listed in the summary and the rejects file', async () => {
    const text = await readFile(join(FIXTURES, 'elf-codes-2021.first60.csv'), 'utf8');
    // CONSTRUCTED: line 5 of the real list cut short.
    const lines = text.split('\n');
    lines[4] = '"HZ6C","Argentina"';
    const file = join(work, 'elf-cut.csv');
    await writeFile(file, lines.join('\n'));
    const result = await cli('import', 'elf', file, '--rejects', join(work, 'elf.rejects.tsv'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/60 read, 59 new, 0 changed, 0 unchanged, 1 rejected/);
    expect(result.stdout).toContain('elf-cut.csv line 5: 2 fields where the header has 16');
    expect(await readFile(join(work, 'elf.rejects.tsv'), 'utf8')).toContain(
      'elf-cut.csv\tline\t5\t2 fields where the header has 16',
    );
  }, 240_000);

  it('exits non-zero on a file of the wrong kind, an unknown source or a missing file', async () => {
    const wrong = await cli('import', 'elf', join(FIXTURES, 'rr-cdf.sample.xml'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Not imported: Expected the ISO 20275 ELF code list as CSV');
    const unknown = await cli('import', 'nowhere', join(FIXTURES, 'rr-cdf.sample.xml'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown source “nowhere”');
    const missing = await cli('import', 'gleif-rr', join(work, 'absent.xml'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read');
  }, 240_000);
});
