import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readUpload } from '../../core/enrichment/read-upload.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { sharedStringsBomb, sheetXml, workbookParts, zipOf } from '../support/upload-bombs.ts';

// The streaming reader of enrichment uploads (core/enrichment/read-table.ts, read-xlsx.ts, run in
// a worker thread by readUpload): cells read as exceljs read them, rows and cells with and without
// `r=`, and a read that takes too long or is abandoned is ended with a clear refusal.

const reason = (error: unknown) => (error instanceof AppError ? (error.details as { reason: string }).reason : error);

describe('reading an XLSX upload', () => {
  it('reads cells as exceljs did: text, rich text, numbers, booleans, dates, formulas', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Kunden');
    book.addWorksheet('Second').addRow(['not this one']);
    sheet.addRow(['Firma', 'Land', 'Gegründet', 'Zahl', 'Aktiv']);
    sheet.addRow(['Acme GmbH', 'DE', new Date('2020-03-04T00:00:00Z'), 1.5, true]);
    sheet.addRow([]);
    sheet.addRow(['Beta', { richText: [{ text: 'F' }, { text: 'R' }] }, null, { formula: '1+1', result: 2 }, false]);
    const upload = await readUpload('kunden.xlsx', new Uint8Array(await book.xlsx.writeBuffer()));
    expect(upload.columns).toEqual(['Firma', 'Land', 'Gegründet', 'Zahl', 'Aktiv']);
    expect(upload.rows).toEqual([
      ['Acme GmbH', 'DE', '2020-03-04', '1.5', 'true'],
      ['', '', '', '', ''],
      ['Beta', 'FR', '', '2', 'false'],
    ]);
  });

  it('reads rows and cells without r= (each the next), inline and shared strings', async () => {
    const rows =
      '<row><c t="inlineStr"><is><t>Name</t></is></c><c t="s"><v>0</v></c></row>' +
      '<row><c t="s"><v>1</v></c><c/><c t="inlineStr"><is><r><t>a</t></r><r><t>b</t></r></is></c></row>' +
      '<row r="5"><c r="B5"><v>42</v></c></row>';
    const strings = '<sst><si><t>Country</t></si><si><r><t>Ac</t></r><r><t>me</t></r><rPh><t>x</t></rPh></si></sst>';
    const bytes = await zipOf(workbookParts(sheetXml(rows), { sharedStrings: strings }));
    const upload = await readUpload('book.xlsx', bytes);
    expect(upload.columns).toEqual(['Name', 'Country']);
    expect(upload.rows).toEqual([
      ['Acme', ''],
      ['', ''],
      ['', ''],
      ['', '42'],
    ]);
  });
});

describe('reading where parts and encodings differ', () => {
  it('finds the workbook through the package relationships, wherever it is', async () => {
    const parts = workbookParts(
      sheetXml(
        '<row><c t="inlineStr"><is><t>Name</t></is></c></row><row><c t="inlineStr"><is><t>Acme</t></is></c></row>',
      ),
    );
    const moved: Record<string, string> = {
      'xl/workbook.xml': 'book/main.xml',
      'xl/_rels/workbook.xml.rels': 'book/_rels/main.xml.rels',
      'xl/worksheets/sheet1.xml': 'book/worksheets/sheet1.xml',
    };
    for (const part of parts) {
      part.name = moved[part.name] ?? part.name;
      if (part.name === '_rels/.rels') part.data = String(part.data).replace('xl/workbook.xml', '/book/main.xml');
    }
    expect((await readUpload('moved.xlsx', await zipOf(parts))).rows).toEqual([['Acme']]);
  });

  it('reads a Latin-1 CSV as Windows spreadsheets write it', async () => {
    const upload = await readUpload('latin.csv', new Uint8Array(Buffer.from('Name;Ort\nMüller GmbH;Köln\n', 'latin1')));
    expect(upload.columns).toEqual(['Name', 'Ort']);
    expect(upload.rows).toEqual([['Müller GmbH', 'Köln']]);
  });
});

describe('a read that takes too long or is abandoned', () => {
  it('is ended at its time limit with a refusal naming it', async () => {
    const bytes = await sharedStringsBomb(900_000);
    const started = performance.now();
    const error = await readUpload('slow.xlsx', bytes, { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(reason(error)).toBe('timeout');
    expect((error as Error).message).toContain('could not be read within 30 seconds');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('is ended when the request aborts', async () => {
    const bytes = await sharedStringsBomb(900_000);
    const controller = new AbortController();
    const reading = readUpload('slow.xlsx', bytes, { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('the client went away')), 30);
    const started = performance.now();
    expect(((await reading) as Error).message).toBe('the client went away');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
