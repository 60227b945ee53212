// Keyset cursors: the sort-column values of the last row of a page, base64url-encoded JSON.

import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import type { SortDecl } from '../sections/section.ts';

export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, length: number): (string | number)[] | null {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(values) || values.length !== length) return null;
    if (!values.every((v) => typeof v === 'string' || typeof v === 'number')) return null;
    return values;
  } catch {
    return null;
  }
}

/** What a sort column holds, for checking a cursor's value against it ('real': a float4, such as a rank's similarity). */
export type CursorColumn = 'int' | 'real' | 'date' | 'text';

/** Largest float4, beyond which the database would reject a cursor's value. */
const MAX_REAL = 3.4e38;
/** Longest text a cursor carries (a company's search name is far shorter). */
const MAX_TEXT = 400;

/**
 * A cursor's values when each fits its sort column, else null: a cursor is client input, and a
 * value the database would reject (a string for an id, 1e400, a day that does not exist, a NUL in
 * text) must be a 400 naming `after`, not a failed query.
 */
export function decodeSortCursor(cursor: string, columns: CursorColumn[]): (string | number)[] | null {
  const values = decodeCursor(cursor, columns.length);
  if (!values) return null;
  return values.every((value, i) => fits(value, columns[i])) ? values : null;
}

function fits(value: string | number, column: CursorColumn): boolean {
  switch (column) {
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'real':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_REAL;
    case 'date':
      return typeof value === 'string' && isDay(value);
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT && !value.includes('\u0000');
  }
}

/**
 * A real calendar day as yyyy-MM-dd from year 1 (what a date column holds: companies without a
 * registration date sort as 0001-01-01), unlike a filter's bound, which the grammar limits further.
 */
function isDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The rows after a cursor in a sort (alias `b`): `(sort columns) < (its values)` for a descending
 * sort, `>` ascending; `true` without one. A cursor that is not one of this sort is a 400 naming
 * `after`. `columns` says what each sort column holds.
 */
export function afterCursor(
  sort: SortDecl,
  after: string | undefined,
  columns: (column: string) => CursorColumn,
): RawBuilder<SqlBool> {
  if (!after) return sql<SqlBool>`true`;
  const kinds = sort.by.map((c) => columns(c.column));
  const values = decodeSortCursor(after, kinds);
  if (!values) throw new AppError('bad_request', 'after is not a cursor of this sort', { parameter: 'after' });
  const refs = sql.join(sort.by.map((c) => sql.ref(`b.${c.column}`)));
  const comparison = sql.raw(sort.by[0].direction === 'desc' ? '<' : '>');
  // A float4 compared as a float4: the shortest text of a float4 read back as float8 is not the same number.
  const typed = values.map((value, i) => (kinds[i] === 'real' ? sql`${value}::real` : sql`${value}`));
  return sql<SqlBool>`(${refs}) ${comparison} (${sql.join(typed)})`;
}
