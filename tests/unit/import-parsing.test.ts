import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WrongFileError } from '../../core/imports/company-facts.ts';
import { csvRows } from '../../core/imports/csv-rows.ts';
import { openImportFile } from '../../core/imports/open-file.ts';
import { isoDay, isoInstant } from '../../core/imports/sources/gleif-dates.ts';
import { xmlRecords } from '../../core/imports/xml-records.ts';

// The parsing the importers share: CSV as real files write it, XML streamed in arbitrary chunks,
// and ISO 8601 dates with any zone (the zones of the GLEIF fixture's header).

async function rows(text: string | Buffer, chunk = 7) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  const out = [];
  for await (const r of csvRows(Readable.from(parts), { required: ['Company Number'], expects: 'a test CSV' }))
    out.push(r);
  return out;
}

describe('csvRows', () => {
  it('maps by header name whatever the quoting, line ends, BOM and stray spaces', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('"Name", Company Number\r\n"Müller ""&"" Söhne",01\r\n'),
    ]);
    expect(await rows(bom)).toEqual([{ line: 2, row: { Name: 'Müller "&" Söhne', 'Company Number': '01' } }]);
    expect(await rows('Company Number,Name\n02,Plain Ltd\n03,"Quoted, Comma"')).toEqual([
      { line: 2, row: { 'Company Number': '02', Name: 'Plain Ltd' } },
      { line: 3, row: { 'Company Number': '03', Name: 'Quoted, Comma' } },
    ]);
  });

  it('reports a row of another width with its line instead of reading it shifted', async () => {
    expect(await rows('Company Number,Name\n1,A,extra\n2,B\n')).toEqual([
      { line: 2, error: '3 fields where the header has 2' },
      { line: 3, row: { 'Company Number': '2', Name: 'B' } },
    ]);
  });

  it('calls a file without the expected header the wrong kind of file', async () => {
    await expect(rows('Something,Else\n1,2\n')).rejects.toBeInstanceOf(WrongFileError);
    await expect(rows('')).rejects.toThrow(/empty/);
  });
});

describe('xmlRecords', () => {
  it('yields records by local name from a stream cut anywhere', async () => {
    const xml =
      '\uFEFF<?xml version="1.0"?><a:Root xmlns:a="urn:x"><a:Header><a:Date>2020-01-01</a:Date></a:Header><a:Items><a:Item><a:N>é1</a:N></a:Item><a:Item><a:N>2</a:N></a:Item></a:Items></a:Root>';
    const headers: string[] = [];
    const names: string[] = [];
    const parts = xml.match(/[\s\S]{1,5}/g) ?? [];
    for await (const r of xmlRecords(Readable.from(parts.map((p) => Buffer.from(p))), {
      root: 'Root',
      record: 'Item',
      expects: 'a test XML',
      onHeader: (el) => headers.push(`${el.name}:${el.children.map((c) => c.text).join()}`),
    }))
      names.push(r.children[0]?.text ?? '');
    expect(names).toEqual(['é1', '2']);
    expect(headers[0]).toBe('Header:2020-01-01');
  });

  it('names what it expected when the root or the format is wrong', async () => {
    const read = async (text: string) => {
      for await (const _ of xmlRecords(Readable.from([Buffer.from(text)]), {
        root: 'Root',
        record: 'Item',
        expects: 'a test XML',
      }));
    };
    await expect(read('<Other/>')).rejects.toThrow("Expected a test XML, but the file's root element is <Other>");
    await expect(read('LEI,Name\n1,2')).rejects.toBeInstanceOf(WrongFileError);
  });
});

describe('GLEIF dates', () => {
  it('reads timestamps in any zone as the same instant', () => {
    // The zones of the LEI fixture's header sources.
    expect(isoInstant('2018-09-01T08:20:00.049+08:00')).toBe('2018-09-01T00:20:00.049Z');
    expect(isoInstant('2018-09-01T00:01:28.143-05:00')).toBe('2018-09-01T05:01:28.143Z');
    expect(isoInstant('2018-08-31T19:05:01.000Z')).toBe('2018-08-31T19:05:01.000Z');
    expect(isoInstant('2018-09-01T06:00:33+00:00')).toBe('2018-09-01T06:00:33.000Z');
    expect(isoInstant(null)).toBeNull();
    expect(() => isoInstant('31/08/2018')).toThrow('is not an ISO 8601 date');
  });

  it('keeps the calendar day of a date in its own zone', () => {
    expect(isoDay('2010-01-01T00:00:00+01:00')).toBe('2010-01-01');
    expect(() => isoDay('2010-13-45')).toThrow();
  });
});

describe('openImportFile', () => {
  it('reads a file only as fast as the importer takes it, plain and gzipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'registra-open-'));
    try {
      const big = Buffer.alloc(16 * 1024 * 1024, 'a');
      await writeFile(join(dir, 'big.txt'), big);
      await writeFile(join(dir, 'big.txt.gz'), gzipSync(big, { level: 1 }));
      for (const name of ['big.txt', 'big.txt.gz']) {
        let bytes = 0;
        const opened = await openImportFile(join(dir, name), (n) => {
          bytes += n;
        });
        for await (const entry of opened.entries) {
          const iterator = entry.stream[Symbol.asyncIterator]();
          await iterator.next();
          await new Promise((resolve) => setTimeout(resolve, 200));
          // A few buffers ahead at most, not the file.
          expect(bytes).toBeLessThan(4 * 1024 * 1024);
          expect(bytes).toBeGreaterThan(0);
          entry.stream.destroy();
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
