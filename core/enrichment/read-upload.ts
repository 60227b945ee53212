import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { AppError } from '../errors/app-error.ts';
import { ENRICHMENT_MAX_BYTES, ENRICHMENT_ROW_LIMIT } from '../limits.ts';
import type { MatchQuery } from '../matching/match-companies.ts';

// An enrichment's upload (ADR 0020 "Enrichment"): a CSV (any of the usual separators, UTF-8 with
// or without a byte-order mark) or an XLSX workbook (its first sheet), its first row the header.
// Columns are guessed from their headers and the user may map them otherwise. A file that is
// neither, too big, or without a column to match on is refused with a message naming what is wrong.

/** The matching engine's fields a column can feed (core/matching MatchQuery). */
export const ENRICHMENT_FIELDS = ['name', 'country', 'registration_number', 'lei', 'vat', 'domain', 'address'] as const;
export type EnrichmentField = (typeof ENRICHMENT_FIELDS)[number];
/** The column of each mapped field (0-based). */
export type ColumnMapping = Partial<Record<EnrichmentField, number>>;

/** Fields that can find a company on their own (country and address only help). */
const IDENTIFYING: readonly EnrichmentField[] = ['name', 'registration_number', 'lei', 'vat', 'domain'];

export type Upload = { fileName: string; columns: string[]; rows: string[][] };

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Header patterns per field, in the order fields are guessed (the most specific first), in
 * English, German and French; matched against the folded header (lower case, no accents).
 */
const GUESSES: [EnrichmentField, RegExp][] = [
  ['lei', /^(lei|lei code|legal entity identifier)$/],
  ['vat', /\b(vat|tva|ust|ust ?id|ustidnr|tax|tin|ein|steuer ?nummer|steuernr|mwst|numero fiscal|n tva)\b/],
  [
    'registration_number',
    /\b(registration|registered number|reg ?no|reg nr|company (number|no|id)|crn|handelsregister|register ?nummer|registernr|hrb|hra|immatriculation|siren|siret|rcs|orgnr|organisasjonsnummer|kvk)\b/,
  ],
  ['domain', /\b(website|web ?site|web|domain|domaine|url|homepage|site|site web|webseite|internet)\b/],
  ['country', /\b(country|country code|land|pays|jurisdiction|rechtsraum|juridiction|staat|nation)\b/],
  ['address', /\b(address|adresse|anschrift|street|strasse|rue|city|town|ort|stadt|ville|post ?code|zip|plz)\b/],
  [
    'name',
    /\b(name|company|firm|firma|firmenname|unternehmen|organisation|organization|nom|entreprise|societe|raison sociale|legal name|account)\b/,
  ],
];

/** Guesses which column holds which field from the headers: each field at most one column, each column one field. */
export function guessColumns(columns: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<number>();
  const folded = columns.map(fold);
  for (const [field, pattern] of GUESSES) {
    const index = folded.findIndex((h, i) => !taken.has(i) && h !== '' && pattern.test(h));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/** Whether a mapping can find companies: at least one column that identifies one. */
export function isUsableMapping(mapping: ColumnMapping): boolean {
  return IDENTIFYING.some((field) => mapping[field] !== undefined);
}

/** A row as the matching engine's query, through the mapping (blank cells left out). */
export function rowQuery(cells: readonly string[], mapping: ColumnMapping): MatchQuery {
  const query: MatchQuery = {};
  for (const field of ENRICHMENT_FIELDS) {
    const index = mapping[field];
    const value = index === undefined ? '' : (cells[index] ?? '').trim();
    if (value) query[field] = value.slice(0, 1000);
  }
  return query;
}

/** A mapping from untrusted JSON (the database, a form): known fields and columns of the file only. */
export function cleanMapping(value: unknown, columnCount: number): ColumnMapping {
  const mapping: ColumnMapping = {};
  if (!value || typeof value !== 'object') return mapping;
  for (const field of ENRICHMENT_FIELDS) {
    const index = (value as Record<string, unknown>)[field];
    if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < columnCount) {
      mapping[field] = index;
    }
  }
  return mapping;
}

const bad = (message: string, details: Record<string, unknown> = {}) =>
  new AppError('bad_request', message, { parameter: 'file', ...details });

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** Reads an uploaded file: its header and rows (trailing blank rows dropped), or a 400 naming the problem. */
export async function readUpload(fileName: string, bytes: Uint8Array): Promise<Upload> {
  if (bytes.byteLength >= ENRICHMENT_MAX_BYTES) {
    throw bad(`file: the file is ${mb(bytes.byteLength)} MB; at most ${mb(ENRICHMENT_MAX_BYTES)} MB can be enriched`, {
      reason: 'too_large',
    });
  }
  if (bytes.byteLength === 0) throw bad('file: the file is empty', { reason: 'empty' });
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  let table: string[][];
  if (isZip(bytes)) {
    if (extension !== 'xlsx' && extension !== '') {
      throw bad(`file: “${fileName}” is a ZIP archive, not an XLSX workbook or a CSV file`, { reason: 'type' });
    }
    table = await readXlsx(bytes);
  } else if (extension === 'xlsx' || extension === 'xls' || extension === 'ods') {
    throw bad(`file: “${fileName}” is not an XLSX workbook (only .xlsx and .csv files can be enriched)`, {
      reason: 'type',
    });
  } else {
    table = readCsv(fileName, bytes);
  }
  while (table.length > 0 && table[table.length - 1].every((c) => c.trim() === '')) table.pop();
  const [header, ...rows] = table;
  const columns = (header ?? []).map((c, i) => c.trim() || `Column ${i + 1}`);
  if (columns.length === 0) throw bad('file: the file has no header row', { reason: 'empty' });
  if (rows.length === 0) throw bad('file: the file has a header but no rows with a value', { reason: 'empty' });
  if (rows.length > ENRICHMENT_ROW_LIMIT) {
    throw bad(`file: the file has ${rows.length} rows; at most ${ENRICHMENT_ROW_LIMIT} can be enriched at once`, {
      reason: 'too_many_rows',
    });
  }
  return {
    fileName,
    columns,
    rows: rows.map((r) => columns.map((_, i) => (r[i] ?? '').slice(0, 2000))),
  };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** CSV text: UTF-8 (a byte-order mark allowed), the separator the header uses most of , ; tab |. */
function readCsv(fileName: string, bytes: Uint8Array): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Windows spreadsheets still write Latin-1 CSV: accept it rather than refuse the file.
    text = new TextDecoder('latin1').decode(bytes);
  }
  if (text.includes('\0')) {
    throw bad(`file: “${fileName}” is not a CSV file or an XLSX workbook (it holds binary data)`, { reason: 'type' });
  }
  text = text.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t', '|'].reduce((best, d) =>
    firstLine.split(d).length > firstLine.split(best).length ? d : best,
  );
  try {
    return parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (error) {
    throw bad(`file: “${fileName}” cannot be read as CSV: ${error instanceof Error ? error.message : 'bad quoting'}`, {
      reason: 'csv',
    });
  }
}

/** The first worksheet of a workbook as text cells (dates as yyyy-mm-dd, formulas as their result). */
async function readXlsx(bytes: Uint8Array): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw bad('file: the file is not a readable XLSX workbook', { reason: 'xlsx' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw bad('file: the workbook has no worksheet', { reason: 'empty' });
  const table: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    table[number - 1] = Array.from(cells, (c) => c ?? '');
  });
  return Array.from(table, (r) => r ?? []);
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('hyperlink' in value) return String(value.hyperlink);
    if ('error' in value) return '';
  }
  return String(value);
}
