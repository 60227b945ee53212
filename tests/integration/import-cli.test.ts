import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openPglite } from '../../db/client.ts';
import { cliArgs, cliDataDir, cliEnv } from '../support/cli-data-dir.ts';

// `npm run cli -- import`: its summary, rejects file and exit codes, on its own PGlite data directory.

const run = promisify(execFile);
const FIXTURES = '/work/shared/fixtures/gleif';
let root: string;
let dataDir: string;
let work: string;
/** Data directories of tests that need their own. */
const ownDataDirs: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'registra-import-cli-'));
  dataDir = await cliDataDir(join(root, 'data'));
  work = await mkdtemp(join(tmpdir(), 'registra-import-files-'));
});
afterAll(async () => {
  for (const dir of ownDataDirs) await rm(dir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

type Outcome = { stdout: string; stderr: string; code: number };

async function cli(...args: string[]): Promise<Outcome> {
  return cliOn(dataDir, ...args);
}

/** A migrated data directory of the test's own (cli-data-dir.ts). */
async function ownDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'registra-import-own-'));
  ownDataDirs.push(dir);
  return cliDataDir(join(dir, 'data'));
}

/** The CLI on a data directory of its own (a test whose counts must not depend on the others). */
async function cliOn(directory: string, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), {
      env: cliEnv(directory),
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

/** 12,000 letters and spaces that do not compress (the database compresses an index entry before it measures it). */
function longName(): string {
  let seed = 27;
  let out = '';
  while (out.length < 12_000) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += seed % 9 === 0 ? ' ' : String.fromCharCode(65 + (seed % 26));
  }
  return out;
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

  describe('on a bad file', () => {
    const lei = () => readFile(join(FIXTURES, 'lei-cdf-2.1.top10.xml'), 'utf8');

    it('rejects a 12,000-character name with its record number and imports the rest', async () => {
      // DERIVED: the real file with the second record's legal name replaced by 12,000 characters.
      const text = (await lei()).replace('>CAPITAL ASSETS LIMITED<', `>${longName()}<`);
      const file = join(work, 'long-name.xml');
      await writeFile(file, text);
      const result = await cliOn(await ownDataDir(), 'import', 'gleif-lei', file);
      expect(result.stderr).not.toContain('Not imported');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/10 read, 9 new, 0 changed, 0 unchanged, 1 rejected/);
      expect(result.stdout).toContain(
        'long-name.xml record 2: name: 12,000 characters, where at most 500 can be stored',
      );
      expect(await readFile(join(work, 'long-name.xml.rejects.tsv'), 'utf8')).toContain(
        'long-name.xml\trecord\t2\tname: 12,000 characters, where at most 500 can be stored',
      );
    }, 240_000);

    it('names the line and column of malformed XML and the record reached, and keeps the records before it', async () => {
      // DERIVED: the seventh record's legal name closed by a misspelt tag.
      const text = (await lei()).replace(
        'COWRY SECURITIES LIMITED</lei:LegalName>',
        'COWRY SECURITIES LIMITED</lei:LegalNam>',
      );
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.includes('</lei:LegalNam>'));
      const column = (lines[line] as string).indexOf('</lei:LegalNam>') + '</lei:LegalNam>'.length;
      const file = join(work, 'malformed.xml');
      await writeFile(file, text);
      const result = await cliOn(await ownDataDir(), 'import', 'gleif-lei', file);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The XML is malformed at line ${line + 1}, column ${column} (in record 7)`);
      expect(result.stderr).toContain(
        'Applied from malformed.xml: 6 records (6 new, 0 changed, 0 unchanged, 0 rejected)',
      );
    }, 240_000);

    it('says a truncated file ended early, with the records applied and the last one; the full file then completes it', async () => {
      // DERIVED: the real file gzipped, and the .gz cut at 90% of its bytes (a download cut short).
      const gz = gzipSync(await readFile(join(FIXTURES, 'lei-cdf-2.1.top10.xml')));
      const cut = gz.subarray(0, Math.floor(gz.length * 0.9));
      // What the cut keeps: the records closed before it, and the LEI of the last of them.
      const kept = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const closed = kept.split('</lei:LEIRecord>').length - 1;
      const lastLei = [...kept.matchAll(/<lei:LEI>(\w+)<\/lei:LEI>/g)][closed - 1]?.[1];
      expect(closed).toBeGreaterThan(0);
      expect(closed).toBeLessThan(10);
      await writeFile(join(work, 'lei-cut.xml.gz'), cut);
      await writeFile(join(work, 'lei-full.xml.gz'), gz);
      const directory = await ownDataDir();

      const first = await cliOn(directory, 'import', 'gleif-lei', join(work, 'lei-cut.xml.gz'));
      expect(first.code).toBe(1);
      expect(first.stderr).toContain('The file ended early');
      expect(first.stderr).toContain(
        `Applied from lei-cut.xml.gz: ${closed} records (${closed} new, 0 changed, 0 unchanged, 0 rejected); ` +
          `the last applied: lei-cut.xml record ${closed}, LEI ${lastLei}.`,
      );

      const again = await cliOn(directory, 'import', 'gleif-lei', join(work, 'lei-full.xml.gz'));
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        new RegExp(`10 read, ${10 - closed} new, 0 changed, ${closed} unchanged, 0 rejected`),
      );
      const db = await openPglite({ dataDir: directory });
      try {
        const imports = await db.kysely
          .selectFrom('imports')
          .select(['status', 'message', 'new'])
          .orderBy('id')
          .execute();
        expect(imports).toEqual([
          { status: 'failed', message: expect.stringContaining('The file ended early'), new: closed },
          { status: 'done', message: null, new: 10 - closed },
        ]);
        const companies = await db.kysely
          .selectFrom('company_keys')
          .select('key')
          .where('scheme', '=', 'lei')
          .execute();
        expect(companies).toHaveLength(10);
      } finally {
        await db.close();
      }
    }, 240_000);
  });

  it('imports BODS statements (.gz), and refuses a BODS file with a bad statement whole, naming its line', async () => {
    const directory = await ownDataDir();
    // The standard's own example (tests/fixtures/bods-examples/PROVENANCE.md), gzipped; its company
    // is not in this empty database: a reject naming its key, and the file is imported.
    const example = new URL('../fixtures/bods-examples/listed-company-exempt-from-disclosure.json', import.meta.url);
    const gz = join(work, 'listed.json.gz');
    await writeFile(gz, gzipSync(await readFile(example)));
    const ok = await cliOn(directory, 'import', 'bods', gz, '--rejects', join(work, 'bods.rejects.tsv'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/1 read, 0 new, 0 changed, 0 unchanged, 1 rejected/);
    expect(ok.stdout).toContain('no company in Registra has its keys (GB/RA000585/XE000017)');

    // CONSTRUCTED: the example as JSON Lines with its relationship naming a subject the file has not.
    const [entity, relationship] = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>[];
    const broken = join(work, 'broken-bods.jsonl');
    const details = { ...(relationship?.recordDetails as object), subject: 'nowhere' };
    await writeFile(
      broken,
      `${JSON.stringify(entity)}\n${JSON.stringify({ ...relationship, recordDetails: details })}\n`,
    );
    const bad = await cliOn(directory, 'import', 'bods', broken, '--rejects', join(work, 'broken.rejects.tsv'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Not imported completely: 1 statement is not readable');
    expect(bad.stderr).toContain('Nothing of broken-bods.jsonl was applied (1 rejected)');
    expect(await readFile(join(work, 'broken.rejects.tsv'), 'utf8')).toContain(
      'broken-bods.jsonl\tline\t2\tstatement 5b7273f7-6ca1-40f3-9146-646ce0f8b03e: its subject nowhere is no statement of the file',
    );
  }, 240_000);
});
