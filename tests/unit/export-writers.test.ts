import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { recordEntityNames } from '../../core/export/export-columns.ts';
import { type ExportFormat, type ExportSeparator, exportFileName } from '../../core/export/export-options.ts';
import { type Cell, createWriter, csvText, type ExportColumn, escapeXml, xmlName } from '../../core/export/writers.ts';
import { parseStrictCsv, parseStrictXml, readXlsxSheet } from '../support/export-readers.ts';

const COLUMNS: ExportColumn[] = [
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'dates.registration', label: 'Date: Registration', type: 'date' },
  { key: 'specifications.members_count', label: 'Members', type: 'number' },
  { key: 'indicators.bankrupt', label: 'Indicator: Bankrupt', type: 'boolean' },
  { key: 'note', label: 'Note', type: 'text' },
];

const ROWS: Cell[][] = [
  ['Acme "Best" Ltd, Berlin', '2020-02-29', 12, false, '#tagged'],
  ['Ünïcode & <Sons>\u0001', null, null, true, ''],
];

async function write(
  format: ExportFormat,
  rows: Cell[][] = ROWS,
  separator: ExportSeparator = 'comma',
  columns: ExportColumn[] = COLUMNS,
) {
  const out = new PassThrough();
  const done = buffer(out);
  const writer = createWriter(format, out, columns, {
    separator,
    entity: { plural: 'legal_entities', singular: 'legal_entity' },
    title: 'Legal entities',
  });
  // Two batches, as a real export writes them.
  await writer.writeRows(rows.slice(0, 1));
  await writer.writeRows(rows.slice(1));
  await writer.finish();
  return done;
}

describe('CSV writer', () => {
  it('starts with a byte-order mark and the header, quotes every value and doubles inner quotes', async () => {
    const text = (await write('csv')).toString('utf8');
    expect(text.startsWith('\uFEFF"Name","Date: Registration","Members"')).toBe(true);
    expect(text).toContain('"Acme ""Best"" Ltd, Berlin","2020-02-29","12","false","#tagged"\r\n');
    // Empty values are quoted too.
    expect(text).toContain('"","","true",""\r\n');
    const records = parseStrictCsv(text);
    expect(records).toHaveLength(3);
    expect(records[0]).toEqual(COLUMNS.map((c) => c.label));
    expect(records[1][0]).toBe('Acme "Best" Ltd, Berlin');
    // CSV keeps values as they are: a leading # stays.
    expect(records[1][4]).toBe('#tagged');
  });

  it.each([
    ['comma', ','],
    ['semicolon', ';'],
    ['tab', '\t'],
  ] as const)('separates values with the chosen separator (%s)', async (separator, char) => {
    const text = (await write('csv', ROWS, separator)).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(`\uFEFF${COLUMNS.map((c) => `"${c.label}"`).join(char)}`);
    const records = parseStrictCsv(text, char);
    expect(records[1]).toEqual(['Acme "Best" Ltd, Berlin', '2020-02-29', '12', 'false', '#tagged']);
  });

  it('writes many rows of long, non-ASCII, quoted and multi-line text byte for byte (the slice buffer grows)', async () => {
    // Each slice is encoded into one buffer (ADR 0041); these slices are far larger than its first
    // guess, with values of 1–3 bytes a character, surrogate pairs, a lone surrogate, quotes,
    // line breaks and formula starts, and empty fields between them.
    const long = 'Ünïcode “quotes” "and" ✓ 日本語 😀 '.repeat(40);
    const rows: Cell[][] = Array.from({ length: 500 }, (_, i) => [
      i % 7 === 0 ? `=cmd|${i}` : `${long}${i}\r\nline two, "quoted"`,
      null,
      i % 3 === 0 ? -i : null,
      i % 2 === 0,
      i % 11 === 0 ? 'lone \uD800 surrogate' : null,
    ]);
    const bytes = await write('csv', rows);
    // What the writer wrote before it encoded into a buffer: each record as a string, quotes
    // doubled, a formula start quoted, the whole file encoded at once.
    const field = (v: Cell, type: ExportColumn['type']) => csvText(v, type).replaceAll('"', '""');
    const expected = `\uFEFF${[COLUMNS.map((c) => c.label), ...rows]
      .map((row, r) => `"${row.map((v, i) => (r === 0 ? String(v) : field(v, COLUMNS[i].type))).join('","')}"\r\n`)
      .join('')}`;
    expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    const records = parseStrictCsv(bytes.toString('utf8'));
    expect(records).toHaveLength(rows.length + 1);
    expect(records[1][0]).toBe("'=cmd|0");
    expect(records[2][0]).toBe(`${long}1\r\nline two, "quoted"`);
    expect(records[1][2]).toBe('0');
    expect(records[4][2]).toBe('-3');
    expect(records[12][4]).toBe('lone \uFFFD surrogate');
  });

  it('writes the header alone when there are no rows', async () => {
    const records = parseStrictCsv((await write('csv', [])).toString('utf8'));
    expect(records).toEqual([COLUMNS.map((c) => c.label)]);
  });
});

// Cells a spreadsheet would run as formulas (OWASP CSV injection), and what a real company name could hold.
const FORMULAS = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];

describe('CSV formulas (ADR 0008 "Formulas")', () => {
  it('prefixes text that starts like a formula with a single quote', async () => {
    const rows: Cell[][] = FORMULAS.map((f) => [f, null, null, null, f]);
    const records = parseStrictCsv((await write('csv', rows)).toString('utf8'));
    expect(records.slice(1).map((r) => [r[0], r[4]])).toEqual(FORMULAS.map((f) => [`'${f}`, `'${f}`]));
  });

  it('keeps numbers as numbers: a negative number, or a number column’s numeric text, gets no quote', async () => {
    const columns: ExportColumn[] = [
      { key: 'amount', label: 'Amount', type: 'number' },
      { key: 'note', label: 'Note', type: 'text' },
    ];
    const rows: Cell[][] = [
      [-12.5, '-12.5'],
      ['-7', 'Ltd'],
      ['-1+1', '1-2'],
    ];
    const records = parseStrictCsv((await write('csv', rows, 'comma', columns)).toString('utf8'));
    // Text that merely looks like a number in a text column is text: a spreadsheet would compute it.
    expect(records.slice(1)).toEqual([
      ['-12.5', "'-12.5"],
      ['-7', 'Ltd'],
      ["'-1+1", '1-2'],
    ]);
  });

  it('leaves everything else as it is', () => {
    expect(csvText('Acme = Best', 'text')).toBe('Acme = Best');
    expect(csvText("'quoted", 'text')).toBe("'quoted");
    expect(csvText(false, 'boolean')).toBe('false');
    expect(csvText(null, 'text')).toBe('');
    expect(csvText('2020-02-29', 'date')).toBe('2020-02-29');
  });

  it('writes formula-like text to a workbook as text cells, never as formulas', async () => {
    const rows: Cell[][] = FORMULAS.map((f) => [f, null, null, null, f]);
    const data = await write('xlsx', rows);
    const { cells } = await readXlsxSheet(data);
    const written = cells.filter((c) => c.ref.startsWith('A') && c.ref !== 'A1');
    expect(written).toHaveLength(FORMULAS.length);
    for (const [i, cell] of written.entries()) {
      // An inline string (or a shared one): a type naming text, the value as written, no <f> formula.
      expect(cell.type).toMatch(/^(inlineStr|s|str)$/);
      expect(cell.formula).toBeUndefined();
      // (XML reads a raw carriage return as a line end.)
      expect(cell.value).toBe(FORMULAS[i].replace('\r', '\n'));
    }
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
    const cell = workbook.worksheets[0].getRow(2).getCell(1);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.formula).toBeUndefined();
  });
});

describe('JSON writer', () => {
  it('removes a leading # and skips empty values', async () => {
    const json = JSON.parse((await write('json')).toString('utf8'));
    expect(Object.keys(json)).toEqual(['legal_entities']);
    expect(json.legal_entities).toEqual([
      {
        name: 'Acme "Best" Ltd, Berlin',
        'dates.registration': '2020-02-29',
        'specifications.members_count': 12,
        'indicators.bankrupt': false,
        note: 'tagged',
      },
      { name: 'Ünïcode & <Sons>\u0001', 'indicators.bankrupt': true },
    ]);
  });

  it('is a valid document without rows', async () => {
    expect(JSON.parse((await write('json', [])).toString('utf8'))).toEqual({ legal_entities: [] });
  });
});

describe('XML writer', () => {
  it('escapes & < > " \' and strips characters XML 1.0 forbids', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
    expect(escapeXml('x\u0000y\u0001z\u000bw\uFFFEv\t\n')).toBe('xyzwv\t\n');
    expect(escapeXml('emoji 🚢 stays')).toBe('emoji 🚢 stays');
  });

  it('has a data root with legal_entities and legal_entity children, skipping empty values and a leading #', async () => {
    const text = (await write('xml')).toString('utf8');
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const root = parseStrictXml(text);
    expect(root.name).toBe('data');
    expect(root.children.map((c) => c.name)).toEqual(['legal_entities']);
    const entities = root.children[0].children;
    expect(entities.map((e) => e.name)).toEqual(['legal_entity', 'legal_entity']);
    const first = Object.fromEntries(entities[0].children.map((c) => [c.name, c.text]));
    expect(first).toEqual({
      name: 'Acme "Best" Ltd, Berlin',
      'dates.registration': '2020-02-29',
      'specifications.members_count': '12',
      'indicators.bankrupt': 'false',
      note: 'tagged',
    });
    // The empty date, count and note are left out; the forbidden \u0001 is gone.
    expect(entities[1].children.map((c) => [c.name, c.text])).toEqual([
      ['name', 'Ünïcode & <Sons>'],
      ['indicators.bankrupt', 'true'],
    ]);
  });

  it('makes element names of any key', () => {
    expect(xmlName('dates.registration')).toBe('dates.registration');
    expect(xmlName('1-10')).toBe('_1-10');
    expect(xmlName('a b/c')).toBe('a_b_c');
  });

  it('names the elements of record sections in the plural and singular', () => {
    expect(recordEntityNames('vessels')).toEqual({ plural: 'vessels', singular: 'vessel' });
    expect(recordEntityNames('bank-accounts')).toEqual({ plural: 'bank_accounts', singular: 'bank_account' });
    expect(recordEntityNames('real-estate')).toEqual({ plural: 'real_estate', singular: 'property' });
    expect(recordEntityNames('plant-variety-rights').singular).toBe('plant_variety_right');
    expect(recordEntityNames('liabilities').singular).toBe('liability');
    expect(recordEntityNames('taxes').singular).toBe('tax');
  });
});

describe('XLSX writer', () => {
  it('writes a workbook with a frozen header row and typed cells (read back with exceljs)', async () => {
    const data = await write('xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Legal entities');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).values).toEqual([undefined, ...COLUMNS.map((c) => c.label)]);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('Acme "Best" Ltd, Berlin');
    expect(row.getCell(2).value).toBeInstanceOf(Date);
    expect((row.getCell(2).value as Date).toISOString()).toBe('2020-02-29T00:00:00.000Z');
    expect(row.getCell(2).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(3).value).toBe(12);
    // Each column's cells share its style: only dates carry the date format; the header is bold.
    expect(row.getCell(3).numFmt ?? 'General').not.toBe('yyyy-mm-dd');
    expect(sheet.getRow(3).getCell(2).numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(row.getCell(4).value).toBe(false);
    expect(sheet.getRow(3).getCell(1).value).toBe('Ünïcode & <Sons>');
    expect(sheet.getRow(3).getCell(2).value).toBeNull();
  });

  it('is a valid package read without exceljs: numbers as numbers, dates as date-formatted serials, pane frozen', async () => {
    const data = await write('xlsx');
    const { cells, pane, cellXfs } = await readXlsxSheet(data);
    expect(pane).toMatchObject({ ySplit: '1', topLeftCell: 'A2', state: 'frozen' });
    const cell = (ref: string) => cells.find((c) => c.ref === ref);
    // A number cell has no type attribute (or n) and a numeric value.
    expect(cell('C2')).toMatchObject({ value: '12' });
    expect(cell('C2')?.type ?? 'n').toBe('n');
    // 2020-02-29 is serial 43890 in the 1900 date system, with a date number format.
    expect(cell('B2')?.value).toBe('43890');
    expect(cell('B2')?.type ?? 'n').toBe('n');
    expect(cellXfs[Number(cell('B2')?.style)]).toBe('yyyy-mm-dd');
    expect(cell('D2')).toMatchObject({ type: 'b', value: '0' });
    expect(cell('A1')?.value).toBe('Name');
  });
});

describe('XLSX package (ADR 0041: the sheet XML written here, the zip by yazl)', () => {
  // Enough rows that the worksheet is deflated in many pieces, with text needing escapes, dates,
  // numbers, booleans and empty cells in every column.
  const many: Cell[][] = Array.from({ length: 3_000 }, (_, i) => [
    i % 7 === 0 ? null : `Firma ${i} & <Söhne> "Ost" 東京 ${'x'.repeat(i % 50)}`,
    i % 5 === 0 ? null : `20${String(10 + (i % 15))}-0${1 + (i % 9)}-1${i % 10}`,
    i % 3 === 0 ? null : i * 1.5,
    i % 4 === 0 ? null : i % 2 === 0,
    i % 11 === 0 ? `  padded ${i}  ` : `note ${i}`,
  ]);

  it('opens in exceljs’s streaming reader and its workbook reader with every value as written', async () => {
    const data = await write('xlsx', many);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(many.length + 1);
    for (const n of [0, 1, 2, 7, 10, 11, 1_234, many.length - 1]) {
      const row = sheet.getRow(n + 2);
      const [name, date, amount, flag, note] = many[n];
      expect(row.getCell(1).value ?? null).toBe(name);
      const written = row.getCell(2).value;
      expect(written === null ? null : (written as Date).toISOString().slice(0, 10)).toBe(date);
      expect(row.getCell(3).value ?? null).toBe(amount);
      expect(row.getCell(4).value ?? null).toBe(flag);
      expect(row.getCell(5).value).toBe(note);
    }
    // The streaming reader (another parser of the same package) sees every row.
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), { worksheets: 'emit' });
    let rows = 0;
    for await (const worksheet of reader) for await (const _row of worksheet) rows += 1;
    expect(rows).toBe(many.length + 1);
  });

  it('is a zip whose every entry passes its CRC check', async () => {
    const data = await write('xlsx', many);
    const zip = await JSZip.loadAsync(data, { checkCRC32: true });
    expect(Object.keys(zip.files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/app.xml',
      'docProps/core.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = await zip.file('xl/worksheets/sheet1.xml')?.async('string');
    expect(() => parseStrictXml(sheet ?? '')).not.toThrow();
  });
});

describe('file name', () => {
  it('is the product name, the entity type, yyyy-MM-dd_HH-mm and the format, whatever the host', () => {
    const at = new Date('2026-11-22T14:05:59Z');
    expect(exportFileName('legal_entities', 'csv', at)).toBe('registra_legal_entities_2026-11-22_14-05.csv');
    expect(exportFileName('vessels', 'xlsx', new Date('2026-01-02T03:04:00Z'))).toBe(
      'registra_vessels_2026-01-02_03-04.xlsx',
    );
    expect(exportFileName('real_estate', 'xml', at)).toBe('registra_real_estate_2026-11-22_14-05.xml');
  });
});
