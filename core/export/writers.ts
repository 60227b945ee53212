import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type ExportFormat, type ExportSeparator, SEPARATOR_CHARS } from './export-options.ts';

// The four export writers (spec §5, §7 "Export behaviour"). Each takes the columns once and then
// batches of rows as they are read, writing to a Node stream as it goes (waiting when the stream
// is full), so that an export holds one batch in memory whatever its length.

/** How a column's values are written: dates and numbers are typed cells in a workbook. */
export type CellType = 'text' | 'date' | 'number' | 'boolean';
/** A value: text, a number, a yes/no, a date as yyyy-MM-dd, or nothing. */
export type Cell = string | number | boolean | null;

export type ExportColumn = {
  /** The JSON key and XML element name (letters, digits, `_`, `.`). */
  key: string;
  /** The CSV and XLSX header, in the export's language. */
  label: string;
  type: CellType;
};

/** Element names of the XML document and the JSON envelope: `legal_entities` / `legal_entity`. */
export type EntityNames = { plural: string; singular: string };

export type WriterOptions = {
  separator: ExportSeparator;
  entity: EntityNames;
  /** The worksheet's name (XLSX). */
  title: string;
};

export type ExportWriter = {
  writeRows(rows: Cell[][]): Promise<void>;
  /** Ends the document (and the stream). */
  finish(): Promise<void>;
};

export function createWriter(
  format: ExportFormat,
  out: Writable,
  columns: ExportColumn[],
  options: WriterOptions,
): ExportWriter {
  switch (format) {
    case 'csv':
      return csvWriter(out, columns, options.separator);
    case 'json':
      return jsonWriter(out, columns, options.entity);
    case 'xml':
      return xmlWriter(out, columns, options.entity);
    case 'xlsx':
      return xlsxWriter(out, columns, options.title);
  }
}

/** Writes a chunk, waiting while the stream is full; fails when the reader went away. */
async function put(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw new Error('the export stream was closed');
  if (!out.write(chunk)) await drained(out);
}

async function drained(out: Writable): Promise<void> {
  // Both waits are withdrawn when one ends: a listener left on the stream per wait would pile up.
  const settled = new AbortController();
  const closed = once(out, 'close', { signal: settled.signal }).then(() => {
    throw new Error('the export stream was closed');
  });
  closed.catch(() => {});
  try {
    await Promise.race([once(out, 'drain', { signal: settled.signal }), closed]);
  } finally {
    settled.abort();
  }
}

async function end(out: Writable): Promise<void> {
  if (out.writableFinished) return;
  const finished = once(out, 'finish');
  out.end();
  await finished;
}

// ---- CSV ----

/**
 * Spec §7: a byte-order mark, the header row first, every value quoted (inner quotes doubled), the
 * chosen separator, CRLF after every record (RFC 4180). Written by hand: with every value quoted
 * the rule is one replace, and a general CSV library cost a third of a 10,000-row export's time.
 * Text a spreadsheet would run as a formula is neutralised (`csvText`, ADR 0008 "Formulas").
 */
export function csvWriter(out: Writable, columns: ExportColumn[], separator: ExportSeparator): ExportWriter {
  const delimiter = SEPARATOR_CHARS[separator];
  const types = columns.map((c) => c.type);
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await put(
      out,
      `\uFEFF${csvRecord(
        columns.map((c) => c.label),
        delimiter,
      )}`,
    );
  };
  return {
    async writeRows(rows) {
      await start();
      if (rows.length === 0) return;
      let chunk = '';
      for (const row of rows) chunk += csvRecord(row, delimiter, types);
      await put(out, chunk);
    },
    async finish() {
      await start();
      await end(out);
    },
  };
}

/** One CSV record: every value quoted (nothing as ""), inner quotes doubled, CRLF at the end. */
function csvRecord(row: Cell[], delimiter: string, types?: CellType[]): string {
  let line = '';
  for (let i = 0; i < row.length; i++) {
    const text = csvText(row[i], types?.[i] ?? 'text');
    line += `${i === 0 ? '' : delimiter}"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
  }
  return `${line}\r\n`;
}

/** What a spreadsheet opening the file would run as a formula (OWASP "CSV Injection"): = + - @ tab CR first. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number as the database writes one: a genuine number, which stays a number in a spreadsheet. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A cell's CSV text. Text starting like a formula gets a leading `'`, so that a spreadsheet shows
 * it as text (`=HYPERLINK(…)` → `'=HYPERLINK(…)`); numbers never do (-12.5 stays a number), nor
 * does a number column's plain numeric text. ADR 0008 "Formulas".
 */
export function csvText(value: Cell, type: CellType): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (!FORMULA_START.test(value) || (type === 'number' && PLAIN_NUMBER.test(value))) return value;
  return `'${value}`;
}

// ---- JSON and XML (structured: empty values skipped, a leading # removed) ----

/** Spec §7: a leading `#` on a value is removed in structured output. */
export function structuredValue(value: Cell): Cell {
  if (typeof value === 'string' && value.startsWith('#')) return value.slice(1);
  return value;
}

/** Spec §5: empty-valued columns are skipped in structured output. */
export function isEmptyCell(value: Cell): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** `{"legal_entities":[{…},…]}`: one object per row, keyed by column key. */
export function jsonWriter(out: Writable, columns: ExportColumn[], entity: EntityNames): ExportWriter {
  const keys = columns.map((c) => `${JSON.stringify(c.key)}:`);
  let first = true;
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await put(out, `{${JSON.stringify(entity.plural)}:[`);
  };
  return {
    async writeRows(rows) {
      await start();
      let chunk = '';
      for (const row of rows) {
        // The object's text written directly, its keys quoted once: building an object of some
        // 60 keys per row for JSON.stringify was a sixth of an export's time.
        let object = '';
        for (let i = 0; i < columns.length; i++) {
          const value = structuredValue(row[i] ?? null);
          if (!isEmptyCell(value)) object += `${object ? ',' : ''}${keys[i]}${JSON.stringify(value)}`;
        }
        chunk += `${first ? '\n' : ',\n'}{${object}}`;
        first = false;
      }
      if (chunk) await put(out, chunk);
    },
    async finish() {
      await start();
      await put(out, '\n]}\n');
      await end(out);
    },
  };
}

// Characters XML 1.0 allows: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
// biome-ignore lint/suspicious/noControlCharactersInRegex: the forbidden control characters are what it strips.
const XML_FORBIDDEN = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an XML element or attribute: forbidden characters stripped, & < > " ' escaped. */
export function escapeXml(text: string): string {
  // Most values need neither: one test instead of two replaces.
  if (!XML_SPECIAL.test(text)) return text;
  return text.replace(XML_FORBIDDEN, '').replace(/[&<>"']/g, (c) => XML_ENTITIES[c]);
}

/** A character to escape or to strip (any not allowed by XML_FORBIDDEN's class, or & < > " '). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the forbidden control characters are what it finds.
const XML_SPECIAL = /[&<>"']|[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** A column key as an XML element name (a name cannot start with a digit, `.` or `-`). */
export function xmlName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** Spec §7: a `data` root with `legal_entities` and `legal_entity` children (other sections alike). */
export function xmlWriter(out: Writable, columns: ExportColumn[], entity: EntityNames): ExportWriter {
  const names = columns.map((c) => xmlName(c.key));
  const plural = xmlName(entity.plural);
  const singular = xmlName(entity.singular);
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await put(out, `<?xml version="1.0" encoding="UTF-8"?>\n<data><${plural}>`);
  };
  return {
    async writeRows(rows) {
      await start();
      let chunk = '';
      for (const row of rows) {
        chunk += `\n<${singular}>`;
        for (let i = 0; i < columns.length; i++) {
          const value = structuredValue(row[i] ?? null);
          if (isEmptyCell(value)) continue;
          chunk += `<${names[i]}>${escapeXml(String(value))}</${names[i]}>`;
        }
        chunk += `</${singular}>`;
      }
      if (chunk) await put(out, chunk);
    },
    async finish() {
      await start();
      await put(out, `\n</${plural}></data>\n`);
      await end(out);
    },
  };
}

// ---- XLSX ----

/** A real workbook (exceljs streaming writer): a header row, the first row frozen, dates as dates, numbers as numbers. */
export function xlsxWriter(out: Writable, columns: ExportColumn[], title: string): ExportWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Registra';
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  const name = title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Export';
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  sheet.columns = columns.map((c) => ({
    header: c.label,
    key: c.key,
    width: c.type === 'date' ? 12 : Math.min(40, Math.max(10, c.label.length + 2)),
    style: c.type === 'date' ? { numFmt: 'yyyy-mm-dd' } : undefined,
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  // One style object per column, shared by its cells: exceljs gives each new cell a copy and then
  // looks its style up by object identity, so copies were turned into XML once per cell (a third
  // of a workbook's time); shared objects are turned into XML once.
  const styles = columns.map((c) => (c.type === 'date' ? { numFmt: 'yyyy-mm-dd' } : {}));
  return {
    async writeRows(rows) {
      for (const values of rows) {
        const row = sheet.addRow(values.map((v, i) => xlsxValue(v, columns[i].type)));
        row.eachCell({ includeEmpty: true }, (cell, column) => {
          cell.style = styles[column - 1];
        });
        row.commit();
      }
      if (out.writableNeedDrain) await drained(out);
    },
    async finish() {
      sheet.commit();
      const finished = out.writableFinished ? Promise.resolve() : once(out, 'finish');
      await workbook.commit();
      await finished;
    },
  };
}

function xlsxValue(value: Cell, type: CellType): string | number | boolean | Date | null {
  if (value === null || value === '') return null;
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T00:00:00Z`);
  }
  if (type === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  // A workbook is XML inside: characters XML 1.0 forbids would break it.
  return typeof value === 'string' ? value.replace(XML_FORBIDDEN, '') : value;
}
