import { Buffer, isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ENRICHMENT_CELL_MAX_CHARS, ENRICHMENT_COLUMN_LIMIT, ENRICHMENT_MAX_BYTES } from '../limits.ts';
import { readXlsx } from './read-xlsx.ts';
import { type Table, TableBuilder, TableRefusal } from './table-builder.ts';

// Reading an upload's table (ADR 0020 "Enrichment"), run in a worker thread by readUpload
// (read-upload.ts, read-table.worker.ts): a CSV through csv-parse's stream, an XLSX workbook through
// read-xlsx.ts. Every limit of core/limits.ts is checked as rows and cells come, and the first one
// passed stops the reading with a TableRefusal: a hostile file costs what reading up to its limit
// costs, never what the whole file would.

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** Reads an uploaded file's table: a CSV or the first sheet of an XLSX workbook, or a TableRefusal. */
export async function readTable(fileName: string, bytes: Uint8Array): Promise<Table> {
  if (bytes.byteLength >= ENRICHMENT_MAX_BYTES) throw new TableRefusal('tooLarge');
  if (bytes.byteLength === 0) throw new TableRefusal('empty');
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const builder = new TableBuilder();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isZip(bytes)) {
    if (extension !== 'xlsx' && extension !== '') throw new TableRefusal('zipNotXlsx', { name: fileName });
    await readXlsx(buffer, builder);
  } else if (extension === 'xlsx' || extension === 'xls' || extension === 'ods') {
    throw new TableRefusal('notXlsx', { name: fileName });
  } else {
    await readCsv(fileName, buffer, builder);
  }
  return builder.table();
}

/** The longest header line the separator is guessed from. */
const HEADER_SCAN_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** CSV: UTF-8 (a byte-order mark allowed) else Latin-1, the separator the header uses most of , ; tab |. */
async function readCsv(fileName: string, bytes: Buffer, builder: TableBuilder): Promise<void> {
  if (bytes.includes(0)) throw new TableRefusal('binary', { name: fileName });
  // Windows spreadsheets still write Latin-1 CSV: accept it rather than refuse the file.
  const encoding = isUtf8(bytes) ? 'utf8' : 'latin1';
  const newline = bytes.subarray(0, HEADER_SCAN_BYTES).indexOf(0x0a);
  const firstLine = bytes
    .subarray(0, newline < 0 ? HEADER_SCAN_BYTES : newline)
    .toString(encoding)
    .replace(/^\uFEFF/, '');
  const delimiter = [',', ';', '\t', '|'].reduce((best, d) =>
    firstLine.split(d).length > firstLine.split(best).length ? d : best,
  );
  const parser = parse({
    delimiter,
    encoding,
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
    // A record's characters, bounded while it is read (an unclosed quote would otherwise gather the file).
    max_record_size: ENRICHMENT_COLUMN_LIMIT * (ENRICHMENT_CELL_MAX_CHARS + 1),
  });
  const chunks = function* () {
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
  };
  const source = Readable.from(chunks());
  source.pipe(parser);
  let index = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      // A record's empty cells past the limit are no columns: only the last with a value counts.
      builder.add(
        index,
        record.slice(0, ENRICHMENT_COLUMN_LIMIT + 1),
        Math.min(record.length, ENRICHMENT_COLUMN_LIMIT),
      );
      if (
        record.length > ENRICHMENT_COLUMN_LIMIT &&
        record.slice(ENRICHMENT_COLUMN_LIMIT).some((c) => c.trim() !== '')
      ) {
        throw new TableRefusal('tooManyColumns');
      }
      index++;
    }
  } catch (error) {
    if (error instanceof TableRefusal) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'CSV_MAX_RECORD_SIZE') throw new TableRefusal('rowTooLong');
    throw new TableRefusal('csv', { name: fileName, detail: error instanceof Error ? error.message : 'bad quoting' });
  } finally {
    source.destroy();
    parser.destroy();
  }
}
