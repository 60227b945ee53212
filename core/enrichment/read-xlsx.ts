import type { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';
import {
  ENRICHMENT_CELL_MAX_CHARS,
  ENRICHMENT_COLUMN_LIMIT,
  ENRICHMENT_ENTRY_INFLATED_MAX,
  ENRICHMENT_INFLATED_MAX,
  ENRICHMENT_SHARED_STRINGS_MAX,
  ENRICHMENT_ZIP_ENTRIES_MAX,
} from '../limits.ts';
import { type TableBuilder, TableRefusal } from './table-builder.ts';

// The first worksheet of an XLSX workbook, streamed (ADR 0020 "Enrichment"): the ZIP archive through
// yauzl (its entries counted before any is read, each part's inflated bytes counted as they come),
// its XML parts through saxes — the workbook and its relationships to find the first sheet, the
// styles to tell dates from numbers, the shared strings, then the sheet row by row into the
// TableBuilder, which enforces rows, columns and cell length. Cells are as exceljs gave them:
// text, numbers as JavaScript writes them, booleans as true/false, dates as yyyy-mm-dd, formulas
// as their cached result, errors empty.

type Zip = { file: yauzl.ZipFile; entries: Map<string, yauzl.Entry>; inflated: number };

/** Deepest nesting of XML elements a part may have (a spreadsheet needs about six). */
const MAX_DEPTH = 64;
/** Characters saxes may gather for one text, name or attribute before the cell limit refuses it. */
const MAX_PENDING = ENRICHMENT_CELL_MAX_CHARS + 1024;

export async function readXlsx(bytes: Buffer, builder: TableBuilder): Promise<void> {
  const zip = await openZip(bytes);
  try {
    const workbook = await readWorkbook(zip);
    const parts = [workbook.sheet, workbook.sharedStrings, workbook.styles].filter((p): p is string => p !== null);
    // The parts' declared sizes first (yauzl holds each entry to its declared size as it inflates).
    let declared = 0;
    for (const part of parts) {
      const size = zip.entries.get(part)?.uncompressedSize ?? 0;
      if (size > ENRICHMENT_ENTRY_INFLATED_MAX) throw new TableRefusal('entryInflated');
      declared += size;
    }
    if (zip.inflated + declared > ENRICHMENT_INFLATED_MAX) throw new TableRefusal('inflated');
    const dates = workbook.styles ? await readDateStyles(zip, workbook.styles) : new Set<number>();
    const strings = workbook.sharedStrings ? await readSharedStrings(zip, workbook.sharedStrings) : [];
    await readSheet(zip, workbook.sheet, { strings, dates, date1904: workbook.date1904 }, builder);
  } finally {
    zip.file.close();
  }
}

async function openZip(bytes: Buffer): Promise<Zip> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) =>
      error ? reject(unreadable()) : resolve(zip),
    ),
  );
  // The count comes from the archive's end record: refused before its directory is walked.
  if (file.entryCount > ENRICHMENT_ZIP_ENTRIES_MAX) {
    file.close();
    throw new TableRefusal('zipEntries');
  }
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      file.readEntry();
    });
    file.once('end', () => resolve());
    file.once('error', () => reject(unreadable()));
    file.readEntry();
  }).catch((error) => {
    file.close();
    throw error;
  });
  return { file, entries, inflated: 0 };
}

const unreadable = () => new TableRefusal('unreadableXlsx');

/**
 * Streams one part of the archive through a saxes parser set up by `listen`, counting its inflated
 * bytes against the limits and the text saxes gathers against the cell limit, chunk by chunk.
 */
async function readPart(zip: Zip, name: string, listen: (parser: SaxesParser) => void): Promise<void> {
  const entry = zip.entries.get(name) ?? findInsensitive(zip, name);
  if (!entry) throw unreadable();
  if (entry.uncompressedSize > ENRICHMENT_ENTRY_INFLATED_MAX) throw new TableRefusal('entryInflated');
  const parser = new SaxesParser({ xmlns: false });
  let depth = 0;
  parser.on('opentag', (tag) => {
    if (!tag.isSelfClosing && ++depth > MAX_DEPTH) throw unreadable();
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth--;
  });
  listen(parser);
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.file.openReadStream(entry, (error, s) => (error ? reject(unreadable()) : resolve(s))),
  );
  const decoder = new StringDecoder('utf8');
  // saxes' own buffers: a text, name or attribute it is still gathering (not in its typings).
  const pending = parser as unknown as { text: string; name: string };
  let inflated = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated += chunk.byteLength;
      zip.inflated += chunk.byteLength;
      if (inflated > ENRICHMENT_ENTRY_INFLATED_MAX) throw new TableRefusal('entryInflated');
      if (zip.inflated > ENRICHMENT_INFLATED_MAX) throw new TableRefusal('inflated');
      parser.write(decoder.write(chunk));
      if (pending.text.length > MAX_PENDING || pending.name.length > MAX_PENDING) {
        throw new TableRefusal('cellTooLong');
      }
    }
    parser.write(decoder.end());
    parser.close();
  } catch (error) {
    if (error instanceof TableRefusal) throw error;
    throw unreadable();
  } finally {
    stream.destroy();
  }
}

function findInsensitive(zip: Zip, name: string): yauzl.Entry | undefined {
  const lower = name.toLowerCase();
  for (const [key, entry] of zip.entries) if (key.toLowerCase() === lower) return entry;
  return undefined;
}

/** An element's or attribute's name without its namespace prefix (`x:row` → `row`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes)) if (local(key) === name) return value;
  return undefined;
}

type Workbook = { sheet: string; sharedStrings: string | null; styles: string | null; date1904: boolean };

/** The workbook part the package's relationships name (xl/workbook.xml as Excel writes it). */
async function workbookPath(zip: Zip): Promise<string> {
  let path = 'xl/workbook.xml';
  if (!zip.entries.has('_rels/.rels')) return path;
  await readPart(zip, '_rels/.rels', (parser) => {
    parser.on('opentag', (tag) => {
      const type = attribute(tag, 'Type') ?? '';
      if (local(tag.name) === 'Relationship' && type.endsWith('/officeDocument')) {
        path = partPath('', attribute(tag, 'Target') ?? path);
      }
    });
  });
  return path;
}

/** The first sheet's part (the workbook's first `<sheet>` through its relationships), the shared strings' and the styles'. */
async function readWorkbook(zip: Zip): Promise<Workbook> {
  let firstSheet: string | null = null;
  let date1904 = false;
  const workbook = await workbookPath(zip);
  const slash = workbook.lastIndexOf('/');
  const folder = workbook.slice(0, slash + 1);
  await readPart(zip, workbook, (parser) => {
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'sheet' && firstSheet === null) {
        // r:id, whatever the relationships' namespace prefix is.
        const id = Object.entries(tag.attributes).find(([key]) => key.includes(':') && local(key) === 'id');
        firstSheet = id?.[1] ?? '';
      } else if (name === 'workbookPr') {
        const value = attribute(tag, 'date1904');
        date1904 = value === '1' || value === 'true';
      }
    });
  });
  if (firstSheet === null) throw new TableRefusal('noSheet');
  const targets = new Map<string, string>();
  let sharedStrings: string | null = null;
  let styles: string | null = null;
  await readPart(zip, `${folder}_rels/${workbook.slice(slash + 1)}.rels`, (parser) => {
    parser.on('opentag', (tag) => {
      if (local(tag.name) !== 'Relationship') return;
      const target = partPath(folder, attribute(tag, 'Target') ?? '');
      const type = attribute(tag, 'Type') ?? '';
      targets.set(attribute(tag, 'Id') ?? '', target);
      if (type.endsWith('/sharedStrings')) sharedStrings = target;
      else if (type.endsWith('/styles')) styles = target;
    });
  });
  const sheet = targets.get(firstSheet);
  if (!sheet) throw new TableRefusal('noSheet');
  const present = (part: string | null) =>
    part && (zip.entries.has(part) || findInsensitive(zip, part)) ? part : null;
  return { sheet, sharedStrings: present(sharedStrings), styles: present(styles), date1904 };
}

/** A relationship's target as an entry name: relative to the folder of its source (`xl/`), or absolute from the archive's root. */
function partPath(folder: string, target: string): string {
  const segments: string[] = target.startsWith('/') ? [] : folder.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

/** Excel's built-in number formats that are dates. */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Whether a number format code shows a date or time (quoted text and [colours] aside), as exceljs judges. */
const isDateFormat = (code: string) =>
  /[ymdhs]/i.test(
    code
      .replace(/\[[^\]]*\]/g, '')
      .replace(/"[^"]*"/g, '')
      .replace(/\\./g, ''),
  );

/** The cell styles (indexes of cellXfs) whose number format is a date. */
async function readDateStyles(zip: Zip, part: string): Promise<Set<number>> {
  const formats = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  await readPart(zip, part, (parser) => {
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'numFmt') formats.set(Number(attribute(tag, 'numFmtId')), attribute(tag, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = !tag.isSelfClosing;
      else if (name === 'xf' && inCellXfs) {
        if (styles.length >= ENRICHMENT_SHARED_STRINGS_MAX) throw unreadable();
        styles.push(Number(attribute(tag, 'numFmtId') ?? 0));
      }
    });
    parser.on('closetag', (tag) => {
      if (local(tag.name) === 'cellXfs') inCellXfs = false;
    });
  });
  const dates = new Set<number>();
  styles.forEach((format, index) => {
    const code = formats.get(format);
    if (code !== undefined ? isDateFormat(code) : BUILT_IN_DATES.has(format)) dates.add(index);
  });
  return dates;
}

/** The shared strings (rich text joined; phonetic guides left out), counted and each held to the cell limit. */
async function readSharedStrings(zip: Zip, part: string): Promise<string[]> {
  const strings: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await readPart(zip, part, (parser) => {
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'si') {
        if (strings.length >= ENRICHMENT_SHARED_STRINGS_MAX) throw new TableRefusal('sharedStrings');
        current = '';
      } else if (name === 'rPh' && !tag.isSelfClosing) phonetic++;
      else if (name === 't' && current !== null && phonetic === 0) inText = !tag.isSelfClosing;
    });
    parser.on('text', (text) => {
      if (!inText || current === null) return;
      current += text;
      if (current.length > ENRICHMENT_CELL_MAX_CHARS) throw new TableRefusal('cellTooLong');
    });
    parser.on('closetag', (tag) => {
      const name = local(tag.name);
      if (name === 't') inText = false;
      else if (name === 'rPh' && !tag.isSelfClosing) phonetic--;
      else if (name === 'si' && current !== null) {
        strings.push(current);
        current = null;
      }
    });
  });
  return strings;
}

type SheetContext = { strings: string[]; dates: Set<number>; date1904: boolean };

/** A cell reference's column, 0-based (`AB12` → 27); -1 when it has none. */
function columnOf(reference: string): number {
  let column = 0;
  let letters = 0;
  for (const char of reference) {
    const code = char.toUpperCase().charCodeAt(0);
    if (code < 65 || code > 90) break;
    // Past three letters no sheet has the column (Excel's last is XFD): beyond any limit.
    if (++letters > 3) return Number.MAX_SAFE_INTEGER;
    column = column * 26 + (code - 64);
  }
  return letters === 0 ? -1 : column - 1;
}

/** A row's number as the sheet gives it (1-based), or null when it gives none or nonsense. */
function rowNumberOf(text: string | undefined): number | null {
  if (!text || !/^\d{1,9}$/.test(text)) return null;
  const number = Number(text);
  return number >= 1 ? number : null;
}

/** An Excel date serial as yyyy-mm-dd (exceljs's reading of it). */
function serialDate(serial: number, date1904: boolean): string {
  const days = date1904 ? serial + 1462 : serial;
  const date = new Date(Math.round((days - 25569) * 24 * 3600 * 1000));
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

async function readSheet(zip: Zip, part: string, context: SheetContext, builder: TableBuilder): Promise<void> {
  let rowIndex = -1;
  let cells: (string | undefined)[] = [];
  let width = 0;
  let column = -1;
  let type = '';
  let style = 0;
  let value: string | null = null;
  let inline: string | null = null;
  let capture: 'v' | 't' | null = null;
  let inInline = false;
  let phonetic = 0;

  const cellText = (): string => {
    switch (type) {
      case 's':
        return context.strings[Number(value)] ?? '';
      case 'inlineStr':
        return inline ?? value ?? '';
      case 'b':
        return value === null ? '' : String(value === '1' || value === 'true');
      case 'e':
        return '';
      case 'str':
        return value ?? '';
      case 'd':
        return (value ?? '').slice(0, 10);
      default: {
        if (value === null || value.trim() === '') return '';
        const number = Number(value);
        if (!Number.isFinite(number)) return value;
        return context.dates.has(style) ? serialDate(number, context.date1904) : String(number);
      }
    }
  };

  await readPart(zip, part, (parser) => {
    parser.on('opentag', (tag) => {
      switch (local(tag.name)) {
        case 'row': {
          rowIndex = (rowNumberOf(attribute(tag, 'r')) ?? rowIndex + 2) - 1;
          cells = [];
          width = 0;
          column = -1;
          if (tag.isSelfClosing) builder.add(rowIndex, cells, 0);
          break;
        }
        case 'c': {
          const reference = attribute(tag, 'r');
          const given = reference === undefined ? -1 : columnOf(reference);
          column = given >= 0 ? given : column + 1;
          type = attribute(tag, 't') ?? 'n';
          style = Number(attribute(tag, 's') ?? 0);
          value = null;
          inline = null;
          if (column < ENRICHMENT_COLUMN_LIMIT) width = Math.max(width, column + 1);
          break;
        }
        case 'v':
          if (!tag.isSelfClosing) {
            capture = 'v';
            value = '';
          }
          break;
        case 'is':
          inInline = !tag.isSelfClosing;
          inline = '';
          break;
        case 'rPh':
          if (!tag.isSelfClosing) phonetic++;
          break;
        case 't':
          if (inInline && phonetic === 0 && !tag.isSelfClosing) capture = 't';
          break;
      }
    });
    parser.on('text', (text) => {
      if (capture === 'v' && value !== null) {
        value += text;
        if (value.length > ENRICHMENT_CELL_MAX_CHARS) throw new TableRefusal('cellTooLong');
      } else if (capture === 't' && inline !== null) {
        inline += text;
        if (inline.length > ENRICHMENT_CELL_MAX_CHARS) throw new TableRefusal('cellTooLong');
      }
    });
    parser.on('closetag', (tag) => {
      switch (local(tag.name)) {
        case 'v':
        case 't':
          capture = null;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          if (!tag.isSelfClosing) phonetic--;
          break;
        case 'c': {
          const text = cellText();
          if (text !== '') {
            // A value past the column limit refuses the file now; the row is checked whole below.
            if (column >= ENRICHMENT_COLUMN_LIMIT) throw new TableRefusal('tooManyColumns');
            cells[column] = text;
          }
          break;
        }
        case 'row':
          if (!tag.isSelfClosing) builder.add(rowIndex, cells, width);
          break;
      }
    });
  });
}
