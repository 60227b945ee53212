import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { settleTogether } from '../errors/settle-together.ts';
import type { Reference } from '../reference/reference-data.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import type { SectionDecl } from '../sections/section.ts';
import { visibleRow } from '../takedowns/visible.ts';
import { countMatches } from './count-matches.ts';
import { afterCursor, encodeCursor } from './cursor.ts';
import { stateConditions } from './filter-tree.ts';
import type { SearchState } from './search-state.ts';

/** A record row: its own columns (by column name) and the company it belongs to. */
export type RecordRow = Record<string, string | number | null> & {
  id: number;
  legal_entity_id: number;
  company_uri: string;
  company_name: string;
  company_jurisdiction_id: number;
  company_status_id: number | null;
  company_industry_id: number | null;
  company_employees_id: number | null;
  company_size_id: number | null;
};

export type SearchResult<Row> = {
  rows: Row[];
  /** Matching rows: exact up to COUNT_CAP, else an estimate (countMatches). */
  total: number;
  /** `total` is an estimate (shown as "about 52,000"). */
  totalIsEstimate: boolean;
  /** Rows counted exactly: `total` when exact, more than COUNT_CAP when estimated. */
  atLeast: number;
  /** Cursor for the page after this one, when there is one. */
  next?: string;
};

/**
 * One page of a related-record section's search: keyset or offset pagination over the section's
 * sort index, each row joined to its company for the company columns.
 */
export async function findRecords(
  db: Db,
  reference: Reference,
  section: SectionDecl,
  state: SearchState,
  pageSize = section.pageSize,
): Promise<SearchResult<RecordRow>> {
  const record = section.record;
  if (!record) throw new Error(`${section.id} is not a record section`);
  const table = sql.table(section.baseTable);
  const conditions = stateConditions(section, state, reference);
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : null;
  const sort = section.sorts.find((s) => s.key === state.sort);
  if (!sort) {
    throw new AppError('bad_request', `sort must be one of ${section.sorts.map((s) => s.key).join(', ')}`, {
      parameter: 'sort',
    });
  }
  const direction = sort.by[0].direction;
  const sortType = record.fields.find((f) => fieldColumn(f) === sort.by[0].column)?.type;
  const order = (alias: string) =>
    sql.join(sort.by.map((c) => sql`${sql.ref(`${alias}.${c.column}`)} ${sql.raw(direction)}`));

  const keyset = afterCursor(sort, state.after, (column) => (column === 'id' || sortType !== 'date' ? 'int' : 'date'));
  const offset = state.after ? 0 : (state.page - 1) * pageSize;
  const page = sql<RecordRow>`
    with page as (
      select b.legal_entity_id, b.id from ${table} b
      where ${where ?? sql`true`} and ${visibleRow(section)} and ${keyset}
      order by ${order('b')} limit ${pageSize} offset ${offset}
    )
    select b.*, c.uri as company_uri, c.name as company_name
    from page p
    join ${table} b on b.legal_entity_id = p.legal_entity_id and b.id = p.id
    join legal_entities c on c.id = b.legal_entity_id
    order by ${order('b')}`.execute(db.kysely);
  const [result, count] = await settleTogether(page, countMatches(db, reference, section, where));
  const rows = result.rows;
  let next: string | undefined;
  if (rows.length === pageSize) {
    const last = rows[rows.length - 1];
    next = encodeCursor(sort.by.map((c) => last[c.column] as string | number));
  }
  return { rows, ...count, next };
}
