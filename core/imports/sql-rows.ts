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
