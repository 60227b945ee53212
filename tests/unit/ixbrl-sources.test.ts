import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseInlineXbrl } from '../../core/ixbrl/parse.ts';
import { FilingSourceError, readFilingSources } from '../../core/ixbrl/sources.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';
import { writeZipEntries } from '../support/zip-file.ts';

// Reading filings from files, directories and zips (ADR 0037): zip entries streamed one by one.

const DIR = join(REGISTRY_FIXTURES, 'accounts-ixbrl');
const tmp = mkdtempSync(join(tmpdir(), 'ixbrl-sources-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function collect(paths: string[]) {
  const out: { name: string; bytes: number; size: number }[] = [];
  for await (const source of readFilingSources(paths)) {
    const bytes = await source.read();
    out.push({ name: source.name, bytes: source.bytes, size: bytes.length });
  }
  return out;
}

describe('readFilingSources', () => {
  it('streams a zip entry by entry, skipping what is not a filing', async () => {
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
    for await (const source of readFilingSources([path])) {
      seen.push(source.name);
      if (source.name.endsWith('.xhtml')) continue; // not read: the next entry still opens
      const filing = parseInlineXbrl(await source.read(), { kind: 'ch-accounts', sourceName: source.name });
      expect(filing.sourceName).toBe(source.name);
      expect(['SC312961', '04457427']).toContain(filing.companyNumber);
      expect(source.bytes).toBe(source.name.includes('SC312961') ? sc.length : dormant.length);
    }
    expect(seen).toEqual([
      'Prod223_2911_SC312961_20200930.html',
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
    expect(got.map((g) => g.name)).toEqual(['a.htm', 'b.html', 'c.xhtml', 'aapl-20200926.htm']);
    expect(got[3].size).toBe(got[3].bytes);
  });

  it('a cut-short zip and a missing path are clear errors naming the path', async () => {
    const whole = join(tmp, 'whole.zip');
    await writeZipEntries(whole, [{ name: 'a.html', data: 'x'.repeat(5000), store: true }]);
    const cut = join(tmp, 'cut.zip');
    writeFileSync(cut, readFileSync(whole).subarray(0, 200));
    await expect(collect([cut])).rejects.toThrow(FilingSourceError);
    await expect(collect([cut])).rejects.toThrow(/cut\.zip: the zip has no directory at its end/);
    await expect(collect([join(tmp, 'missing.zip')])).rejects.toThrow(/missing\.zip: no such file or directory/);
  });

  it('reads a ZIP64 archive of more than 65,535 entries', async () => {
    const path = join(tmp, 'many.zip');
    const entries = function* () {
      for (let i = 0; i < 66_000; i++) yield { name: `f${i}.html`, data: 'x', store: true };
    };
    await writeZipEntries(path, entries());
    let n = 0;
    for await (const source of readFilingSources([path])) {
      if (n === 65_999) expect((await source.read()).toString()).toBe('x');
      n++;
    }
    expect(n).toBe(66_000);
  }, 60_000);
});
