import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

// Set-based writes of an import batch (docs/decisions/0014-importers.md "Transactions"): a batch's
// rows go to the database as one parameter per column (unnest) or one JSON parameter
// (jsonb_to_recordset), so that a batch of hundreds of companies is one statement per table on
// PostgreSQL and PGlite alike.

export type Tx = Transaction<Database>;

/** Column name → SQL type of the rows' JSON. */
export type Columns = Record<string, string>;

function recordset(rows: readonly object[], columns: Columns): RawBuilder<unknown> {
  const definition = Object.entries(columns)
    .map(([name, type]) => `"${name}" ${type}`)
    .join(', ');
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${sql.raw(definition)})`;
}

export async function insertRows(
  tx: Tx,
  table: string,
  columns: Columns,
  rows: readonly object[],
  onConflict: RawBuilder<unknown> = sql``,
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns).map((c) => sql.ref(c));
  await sql`insert into ${sql.table(table)} (${sql.join(names)})
    select ${sql.join(names)} from ${columnArrays(rows, columns)} ${onConflict}`.execute(tx);
}

/**
 * The rows as one array parameter per column, unnested side by side: PostgreSQL reads a text array
 * about twice as fast as the same rows in JSON (jsonb_to_recordset, still used for array-valued
 * columns, which unnest would flatten). A jsonb column travels as the text of each value.
 */
function columnArrays(rows: readonly object[], columns: Columns): RawBuilder<unknown> {
  const entries = Object.entries(columns);
  if (entries.some(([, type]) => type.endsWith('[]'))) return recordset(rows, columns);
  const arrays = entries.map(([name, type]) => {
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[name];
      if (value === null || value === undefined) return null;
      return type === 'jsonb' ? JSON.stringify(value) : value;
    });
    return sql`${values}::${sql.raw(type === 'jsonb' ? 'text' : type)}[]`;
  });
  const casts = entries.map(([name, type]) =>
    type === 'jsonb' ? sql`${sql.ref(name)}::jsonb as ${sql.ref(name)}` : sql.ref(name),
  );
  const definition = entries.map(([name]) => sql.ref(name));
  return sql`(select ${sql.join(casts)} from unnest(${sql.join(arrays)}) as x(${sql.join(definition)})) as x`;
}

/** The columns of a company_changes row an import writes (docs/decisions/0014-importers.md). */
const CHANGE_COLUMNS: Columns = {
  legal_entity_id: 'bigint',
  field: 'text',
  old_value: 'jsonb',
  new_value: 'jsonb',
  source: 'text',
  source_date: 'timestamptz',
  import_id: 'bigint',
};

/** Records changes (company_changes rows: the change feed, the History tab and monitoring read them). */
export function insertChanges(tx: Tx, changes: readonly object[]): Promise<void> {
  return insertRows(tx, 'company_changes', CHANGE_COLUMNS, changes);
}

/** Deletes a table's rows of these companies (and `where`, a condition on the table's columns). */
export async function deleteOf(
  tx: Tx,
  table: string,
  ids: readonly number[],
  where: RawBuilder<unknown> = sql`true`,
): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from ${sql.table(table)} where legal_entity_id = any(${[...ids]}::bigint[]) and ${where}`.execute(
    tx,
  );
}

/** JSON with its object keys sorted: equal values give equal text (the diff compares it). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * Whether two values have the same JSON (canonicalJson(a) === canonicalJson(b)) — without writing
 * either out: object keys in any order, a property set to undefined the same as one left out, an
 * undefined array element the same as null. The diff of every record runs it.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    // An undefined array element is JSON's null; a Date (or anything with toJSON) as it is written out.
    if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
    return hasToJson(a) || hasToJson(b) ? canonicalJson(a) === canonicalJson(b) : false;
  }
  if (hasToJson(a) || hasToJson(b)) return canonicalJson(a) === canonicalJson(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (x[key] === undefined) continue;
    count += 1;
    if (y[key] === undefined || !sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) count -= 1;
  return count === 0;
}

function hasToJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
