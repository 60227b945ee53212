import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { FileEndedEarlyError, MalformedFileError, WrongFileError } from './company-facts.ts';

// CSV as real registry files give it (docs/decisions/0014-importers.md "Files"): a UTF-8 BOM or
// none, every field quoted or only some, CRLF or LF, header names with stray spaces. Rows are
// mapped by header name, never by position; a row whose field count is not the header's is
// reported with its line number instead of being read shifted, and so is a row csv-parse cannot
// read (a stray quote): it is skipped and the rest goes on.

export type CsvRow = { line: number; row: Record<string, string> } | { line: number; error: string };

export type CsvOptions = {
  /** Header names the file must have (compared trimmed); otherwise it is the wrong kind of file. */
  required: readonly string[];
  expects: string;
  delimiter?: string;
};

export async function* csvRows(input: Readable, options: CsvOptions): AsyncIterable<CsvRow> {
  // Rows csv-parse skips wait for the rows before them (the parser runs ahead of this loop).
  const skipped: CsvRow[] = [];
  let parsed = 0;
  let endedEarly: FileEndedEarlyError | null = null;
  const parser = input.pipe(
    parse({
      bom: true,
      delimiter: options.delimiter ?? ',',
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      skip_records_with_error: true,
      on_record: (record) => {
        parsed += 1;
        return record;
      },
      on_skip: (error) => {
        const message = error?.message ?? 'unreadable';
        if (parsed === 0) throw new WrongFileError(options.expects, `it cannot be read as CSV (${message})`);
        // Only the end of the input finds a quote never closed: the rest of the file is in that
        // field. Said once the rows before it are read (an error thrown here would drop them).
        if ((error as { code?: string } | undefined)?.code === 'CSV_QUOTE_NOT_CLOSED') {
          endedEarly = new FileEndedEarlyError(
            `the CSV ends inside a field whose quote opens at line ${Number(error?.lines ?? 0)} (cut short, or a stray quote)`,
          );
          return undefined;
        }
        skipped.push({ line: Number(error?.lines ?? 0), error: `CSV syntax: ${message}` });
        return undefined;
      },
    }),
  );
  input.on('error', (error) => parser.destroy(error));
  let header: string[] | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      while (skipped.length > 0 && skipped[0].line < info.lines) yield skipped.shift()!;
      if (header === null) {
        header = record.map((h) => h.trim());
        const missing = options.required.filter((name) => !header?.includes(name));
        if (missing.length > 0)
          throw new WrongFileError(
            options.expects,
            `its header has no ${missing.map((m) => `“${m}”`).join(', ')} (found ${header
              .slice(0, 6)
              .map((h) => `“${h}”`)
              .join(', ')}${header.length > 6 ? ', …' : ''})`,
          );
        continue;
      }
      if (record.length !== header.length) {
        yield { line: info.lines, error: `${record.length} fields where the header has ${header.length}` };
        continue;
      }
      const row: Record<string, string> = {};
      header.forEach((name, i) => {
        row[name] = (record[i] ?? '').trim();
      });
      yield { line: info.lines, row };
    }
  } catch (error) {
    if (error instanceof WrongFileError || error instanceof FileEndedEarlyError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (header === null) throw new WrongFileError(options.expects, `it cannot be read as CSV (${message})`);
    const line = (error as { lines?: unknown }).lines;
    throw new MalformedFileError(
      `The CSV is malformed${typeof line === 'number' ? ` at line ${line}` : ''}: ${message}`,
    );
  }
  yield* skipped.splice(0);
  if (endedEarly) throw endedEarly;
  if (header === null) throw new WrongFileError(options.expects, 'the file is empty');
}
