import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { FileEndedEarlyError } from '../../core/imports/company-facts.ts';
import { openImportFile } from '../../core/imports/open-file.ts';
import { parseInlineXbrl } from '../../core/ixbrl/parse.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { writeManyStoredEntries, writeZipEntries } from '../support/zip-file.ts';

// Reading filings from files, directories and zips (ADR 0037) with the import framework's opener
// (core/imports/open-file.ts, what the accounts importer reads through): zip entries streamed one
// by one, an entry left unread drained so that the next one opens.

const DIR = join(REGISTRY_FIXTURES, 'accounts-ixbrl');
const tmp = mkdtempSync(join(tmpdir(), 'ixbrl-sources-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function collect(paths: string[]) {
  const out: { name: string; size: number }[] = [];
  for (const path of paths) {
    const opened = await openImportFile(path, () => {});
    for await (const entry of opened.entries) out.push({ name: entry.name, size: (await buffer(entry.stream)).length });
  }
  return out;
}

describe('filings read through openImportFile', () => {
  it('streams a zip entry by entry, an unread entry skipped', async () => {
    const sc = readFileSync(join(DIR, 'Prod223_2911_SC312961_20200930.html'));
    const dormant = readFileSync(join(DIR, 'Prod223_2911_04457427_20201231.html'));
    const path = join(tmp, 'Accounts_Bulk_Data-2021-01-01.zip');
    await writeZipEntries(path, [
      { name: 'Prod223_2911_SC312961_20200930.html', data: sc },
      { name: 'README.txt', data: 'not a filing' },
      { name: 'folder/', data: '' },
      { name: 'folder/Prod223_2911_04457427_20201231.html', data: dormant, store: true },
      { name: 'data.xhtml', data: '<x/>' },
    ]);

    const seen: string[] = [];
    const opened = await openImportFile(path, () => {});
    for await (const entry of opened.entries) {
      seen.push(entry.name);
      if (!entry.name.endsWith('.html')) continue; // not read: the next entry still opens
      const bytes = await buffer(entry.stream);
      const filing = parseInlineXbrl(bytes, { kind: 'ch-accounts', sourceName: entry.name });
      expect(filing.sourceName).toBe(entry.name);
      expect(['SC312961', '04457427']).toContain(filing.companyNumber);
      expect(bytes.equals(entry.name.includes('SC312961') ? sc : dormant)).toBe(true);
    }
    // The directory entry is no file; what is not a filing is the accounts source's reject.
    expect(seen).toEqual([
      'Prod223_2911_SC312961_20200930.html',
      'README.txt',
      'folder/Prod223_2911_04457427_20201231.html',
      'data.xhtml',
    ]);
  });

  it('walks directories in name order and reads plain files', async () => {
    const dir = join(tmp, 'dir');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'b.html'), '<b/>');
    writeFileSync(join(dir, 'a.htm'), '<a/>');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'sub', 'c.xhtml'), '<c/>');
    const got = await collect([dir, join(DIR, 'aapl-20200926.htm')]);
    expect(got.map((g) => g.name)).toEqual(['a.htm', 'b.html', 'notes.txt', 'c.xhtml', 'aapl-20200926.htm']);
    expect(got[0].size).toBe(4);
    expect(got[4].size).toBe(readFileSync(join(DIR, 'aapl-20200926.htm')).length);
  });

  it('a cut-short zip and a missing path are clear errors naming the path', async () => {
    const whole = join(tmp, 'whole.zip');
    await writeZipEntries(whole, [{ name: 'a.html', data: 'x'.repeat(5000), store: true }]);
    const cut = join(tmp, 'cut.zip');
    writeFileSync(cut, readFileSync(whole).subarray(0, 200));
    await expect(collect([cut])).rejects.toThrow(FileEndedEarlyError);
    await expect(collect([cut])).rejects.toThrow(/the zip has no directory at its end/);
    await expect(collect([join(tmp, 'missing.zip')])).rejects.toThrow(/no such file or directory.*missing\.zip/);
  });

  it('reads a ZIP64 archive of more than 65,535 entries', async () => {
    const path = join(tmp, 'many.zip');
    await writeManyStoredEntries(path, 66_000, (i) => `f${i}.html`, 'x');
    let n = 0;
    let last = '';
    const opened = await openImportFile(path, () => {});
    for await (const entry of opened.entries) {
      if (n === 65_999) last = `${entry.name} ${(await buffer(entry.stream)).toString()}`;
      n++;
    }
    expect(last).toBe('f65999.html x');
    expect(n).toBe(66_000);
  }, 180_000);
});
