import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  companyFactsSchema,
  describeIssues,
  FileEndedEarlyError,
  MalformedFileError,
  WrongFileError,
} from '../../core/imports/company-facts.ts';
import { csvRows } from '../../core/imports/csv-rows.ts';
import { readJsonDocuments } from '../../core/imports/json-documents.ts';
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

  it('says a file that ends inside a quoted field ended early, after the rows before it', async () => {
    const read: unknown[] = [];
    let failure: unknown = null;
    try {
      for await (const r of csvRows(Readable.from([Buffer.from('Company Number,Name\n1,"A"\n2,"B Lim')]), {
        required: ['Company Number'],
        expects: 'a test CSV',
      }))
        read.push(r);
    } catch (error) {
      failure = error;
    }
    expect(read).toEqual([{ line: 2, row: { 'Company Number': '1', Name: 'A' } }]);
    expect(failure).toBeInstanceOf(FileEndedEarlyError);
    expect((failure as Error).message).toContain('the CSV ends inside a field whose quote opens at line 3');
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

describe('xmlRecords on a bad file', () => {
  /** The records' texts read before the error, and the error. */
  const readAll = async (xml: string) => {
    const names: string[] = [];
    const parts = xml.match(/[\s\S]{1,5}/g) ?? [];
    try {
      for await (const r of xmlRecords(Readable.from(parts.map((p) => Buffer.from(p))), {
        root: 'Root',
        record: 'Item',
        expects: 'a test XML',
      }))
        names.push(r.children[0]?.text ?? '');
    } catch (error) {
      return { names, error: error as Error };
    }
    return { names, error: null };
  };

  it('names the line and column of a syntax error and the record reached, after the records before it', async () => {
    const { names, error } = await readAll('<Root>\n<Item><N>1</N></Item>\n  <Item><N>2</Nx></Item>\n</Root>');
    expect(names).toEqual(['1']);
    expect(error).toBeInstanceOf(MalformedFileError);
    // Column 17 is the ">" of "</Nx>", where the tag it closes turns out not to be open.
    expect(error?.message).toMatch(/^The XML is malformed at line 3, column 17 \(in record 2\): /);
  });

  it('says a document cut short ended early, where, and yields the records closed before the cut', async () => {
    const { names, error } = await readAll('<Root>\n<Item><N>1</N></Item>\n<Item><N>2</N></Item>\n<Item><N>3');
    expect(names).toEqual(['1', '2']);
    expect(error).toBeInstanceOf(FileEndedEarlyError);
    expect(error?.message).toBe(
      'The file ended early: the XML stops at line 4, column 10 (in record 3), before <Root> is closed.',
    );
  });
});

describe('readJsonDocuments on a file cut short', () => {
  it('yields the records before the cut, then says the file ended early', async () => {
    const read: unknown[] = [];
    let failure: unknown = null;
    try {
      for await (const d of readJsonDocuments(Readable.from(['[{"a":1},', '{"a":2},{"a"']))) read.push(d);
    } catch (error) {
      failure = error;
    }
    expect(read).toEqual([
      { record: 1, value: { a: 1 } },
      { record: 2, value: { a: 2 } },
    ]);
    expect(failure).toBeInstanceOf(FileEndedEarlyError);
    expect((failure as Error).message).toBe('The file ended early: the JSON stops inside record 3.');
  });
});

describe('what the database would refuse, refused by the schema with a reason', () => {
  const base = {
    keys: { lei: '029200013A5N6ZD0F605' },
    sourceDate: '2018-08-31T19:05:01.000Z',
    name: 'Afrinvest Securities Limited',
  };
  const reason = (facts: object) => {
    const parsed = companyFactsSchema.safeParse({ ...base, ...facts });
    return parsed.success ? null : describeIssues(parsed.error);
  };

  it('takes names, keys and identifiers up to 500 characters (an index entry holds 2,704 bytes)', () => {
    expect(reason({ name: 'A'.repeat(500) })).toBeNull();
    expect(reason({ name: 'A'.repeat(12_000) })).toBe('name: 12,000 characters, where at most 500 can be stored');
    expect(reason({ identifiers: { company_number: '1'.repeat(501) } })).toBe(
      'identifiers.company_number: 501 characters, where at most 500 can be stored',
    );
    expect(reason({ keys: { register: { jurisdiction: 'GB', authority: 'R'.repeat(101), number: '1' } } })).toContain(
      'keys.register.authority: 101 characters, where at most 100 can be stored',
    );
  });

  it('refuses a NUL character, the year 0000 and zone offsets PostgreSQL has not', () => {
    expect(reason({ name: 'Afrinvest\u0000Securities' })).toBe(
      'name: a NUL character (U+0000), which the database cannot store',
    );
    expect(reason({ registeredOn: '0000-01-01' })).toBe('registeredOn: the year 0000, which the calendar has not');
    expect(reason({ sourceDate: '2018-08-31T19:05:01+16:00' })).toBe('sourceDate: a zone offset beyond ±15:59');
    expect(reason({ sourceDate: '2018-08-31T19:05:01+14:00', registeredOn: '0001-01-01' })).toBeNull();
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

  it('hands on all a cut .gz inflates to, then says it ended early', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'registra-open-'));
    try {
      const text = Array.from({ length: 20_000 }, (_, i) => `line ${i * 7919}`).join('\n');
      const gz = gzipSync(Buffer.from(text));
      const cut = gz.subarray(0, Math.floor(gz.length / 2));
      await writeFile(join(dir, 'cut.txt.gz'), cut);
      const inflated = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const opened = await openImportFile(join(dir, 'cut.txt.gz'), () => {});
      let read = '';
      let failure: unknown = null;
      for await (const entry of opened.entries) {
        try {
          for await (const chunk of entry.stream) {
            read += (chunk as Buffer).toString('utf8');
            // A slow reader: the error waits until everything before the cut was read.
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        } catch (error) {
          failure = error;
        }
      }
      expect(inflated.length).toBeGreaterThan(0);
      expect(read).toBe(inflated);
      expect(failure).toBeInstanceOf(FileEndedEarlyError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
