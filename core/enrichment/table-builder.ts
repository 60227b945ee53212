import { ENRICHMENT_CELL_MAX_CHARS, ENRICHMENT_COLUMN_LIMIT, ENRICHMENT_ROW_LIMIT } from '../limits.ts';

// An upload's table as it is read (read-table.ts, read-xlsx.ts), and the refusal that stops the
// reading at the first limit of core/limits.ts a file passes.

/** Why a file is refused: the key of its message (`enrichment.errors.<reason>`) and the values it names. */
export type RefusalReason =
  | 'tooLarge'
  | 'empty'
  | 'zipNotXlsx'
  | 'notXlsx'
  | 'binary'
  | 'noHeader'
  | 'noRows'
  | 'tooManyRows'
  | 'tooManyColumns'
  | 'cellTooLong'
  | 'rowTooLong'
  | 'zipEntries'
  | 'entryInflated'
  | 'inflated'
  | 'sharedStrings'
  | 'unreadableXlsx'
  | 'noSheet'
  | 'csv'
  | 'timeout'
  | 'tooComplex';

export type RefusalValues = Record<string, string | number>;

export class TableRefusal extends Error {
  readonly reason: RefusalReason;
  readonly values: RefusalValues;
  constructor(reason: RefusalReason, values: RefusalValues = {}) {
    super(`upload refused: ${reason}`);
    this.name = 'TableRefusal';
    this.reason = reason;
    this.values = values;
  }
}

export type Table = { columns: string[]; rows: string[][] };

/** The longest a stored cell is kept (longer ones, up to the limit, are cut). */
const STORED_CELL_CHARS = 2000;

/**
 * The table as it is read: rows by their number (0 is the header), each row's cells by column.
 * Only cells with a value count against the limits, so the empty rows and styled empty cells a
 * spreadsheet keeps beyond its data do not refuse a file; a value past a limit does, at once.
 */
export class TableBuilder {
  private readonly rows: string[][] = [];
  private headerWidth = 0;

  /** Checks one cell's text as it is read (before a row is complete). */
  static checkCell(text: string): void {
    if (text.length > ENRICHMENT_CELL_MAX_CHARS) throw new TableRefusal('cellTooLong');
  }

  /** Adds row `index` (0-based) of cells by column (holes are empty cells); `width` counts its empty cells too. */
  add(index: number, cells: readonly (string | undefined)[], width = cells.length): void {
    let last = -1;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      if (cell === undefined || cell === '') continue;
      TableBuilder.checkCell(cell);
      if (cell.trim() !== '') last = i;
    }
    if (last >= ENRICHMENT_COLUMN_LIMIT) throw new TableRefusal('tooManyColumns');
    if (index === 0) this.headerWidth = Math.min(Math.max(width, last + 1), ENRICHMENT_COLUMN_LIMIT);
    if (last < 0 && index > ENRICHMENT_ROW_LIMIT) return;
    if (index > ENRICHMENT_ROW_LIMIT) throw new TableRefusal('tooManyRows');
    const kept = index === 0 ? this.headerWidth : last + 1;
    this.rows[index] = Array.from({ length: kept }, (_, i) => cells[i] ?? '');
  }

  /** The header and rows (trailing blank rows dropped), or a refusal when either is missing. */
  table(): Table {
    const rows = Array.from(this.rows, (r) => r ?? []);
    while (rows.length > 0 && rows[rows.length - 1].every((c) => c.trim() === '')) rows.pop();
    const [header, ...data] = rows;
    const columns = (header ?? []).map((c, i) => c.trim() || `Column ${i + 1}`);
    if (columns.length === 0) throw new TableRefusal('noHeader');
    if (data.length === 0) throw new TableRefusal('noRows');
    return { columns, rows: data.map((r) => columns.map((_, i) => (r[i] ?? '').slice(0, STORED_CELL_CHARS))) };
  }
}
