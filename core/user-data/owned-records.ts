import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import {
  cleanText,
  containsPattern,
  dayRange,
  keysetAfter,
  type ListQuery,
  type OwnedTable,
  type Page,
  pageOf,
  pageSize,
} from './list-query.ts';
import { fieldProblem, notFound } from './user-data-errors.ts';

// The records a user keeps (histories, saved searches, contacts, orders, purchases, table views,
// lists) are declared once, as sections are (ADR 0001, ADR 0007): the table, how a row is read,
// what `q` looks in and the list's own filters. Listing a page (newest first, by keyset), reading,
// changing, deleting and clearing by owner are written here once; every statement carries
// `user_id = …`, so another user's record is simply not found.

/** A select of a resource's rows, already scoped to the owner (any Kysely select of those rows). */
export type OwnedSelect<Row> = {
  where(condition: Expression<SqlBool>): OwnedSelect<Row>;
  orderBy(expression: Expression<unknown>, modifiers: 'asc' | 'desc'): OwnedSelect<Row>;
  limit(n: number): OwnedSelect<Row>;
  execute(): Promise<Row[]>;
  executeTakeFirst(): Promise<Row | undefined>;
};

export type OwnedResource<Row, Item, Filters = object, Table extends ListedTable = OwnedTable> = {
  table: Table;
  /** The alias of `table` in `select`. */
  alias: string;
  /** What one is called in a 404: "search history entry". */
  noun: string;
  /** The owner's rows with what an item shows (joins included), `where user_id = …` applied. */
  select: (db: Db, userId: number) => OwnedSelect<Row>;
  itemOf: (row: Row) => Item;
  /** What the list's `q` (cleaned, non-empty) keeps: see `textIn`. */
  search?: (q: string) => Expression<SqlBool>;
  /** The conditions of the list's own filters (a section, a type, a status, hidden rows). */
  filters?: (query: ListQuery & Filters) => Expression<SqlBool>[];
  /** The time a page is ordered and filtered by (default `created_at`). */
  time?: string;
  /** The id a page continues after (default the item's `id`). */
  cursorOf?: (item: Item) => number;
};

/** The tables a page of a user's records reads: theirs, and the companies in their lists. */
type ListedTable = OwnedTable | 'watchlist_objects';

/**
 * A `q` that any of these columns (`alias.column`, or an expression) contains: case-insensitive,
 * LIKE's wildcards taken literally.
 */
export function textIn(...columns: (string | Expression<unknown>)[]): (q: string) => Expression<SqlBool> {
  return (q) => {
    const pattern = containsPattern(q);
    const texts = columns.map((c) => (typeof c === 'string' ? sql.ref(c) : c));
    return sql<SqlBool>`(${sql.join(
      texts.map((text) => sql`${text} ilike ${pattern}`),
      sql` or `,
    )})`;
  };
}

/** `alias.column = value`, for a resource's own filters. */
export function columnIs(column: string, value: unknown): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ${value}`;
}

/** A page of a user's records, newest first (`created_at`, then id): `q`, a day range, the resource's filters. */
export async function listOwned<Row, Item extends { id: number }, Filters, Table extends ListedTable>(
  db: Db,
  resource: OwnedResource<Row, Item, Filters, Table>,
  userId: number,
  query: ListQuery & Filters,
): Promise<Page<Item>> {
  const size = pageSize(query.count);
  const { start, end } = dayRange(query.from, query.to);
  const { alias } = resource;
  const timeColumn = resource.time ?? 'created_at';
  const time = sql.ref(`${alias}.${timeColumn}`);
  const conditions = [
    ...(query.q && resource.search ? [resource.search(cleanText(query.q))] : []),
    ...(resource.filters?.(query) ?? []),
    ...(start ? [sql<SqlBool>`${time} >= ${start}`] : []),
    ...(end ? [sql<SqlBool>`${time} < ${end}`] : []),
    ...(query.after !== undefined ? [keysetAfter(alias, resource.table, timeColumn, userId, query.after)] : []),
  ];
  let select = resource.select(db, userId);
  for (const condition of conditions) select = select.where(condition);
  const rows = await select
    .orderBy(time, 'desc')
    .orderBy(sql.ref(`${alias}.id`), 'desc')
    .limit(size + 1)
    .execute();
  return pageOf(rows.map(resource.itemOf), size, resource.cursorOf);
}

/** One of a user's records, or null (another user's is null too). */
export async function getOwned<Row, Item>(
  db: Db,
  resource: OwnedResource<Row, Item, never>,
  userId: number,
  id: number,
): Promise<Item | null> {
  const row = await resource
    .select(db, userId)
    .where(columnIs(`${resource.alias}.id`, id))
    .executeTakeFirst();
  return row ? resource.itemOf(row) : null;
}

/**
 * The records a user keeps one of per search section (table and export views): all of them by
 * section, or the one of `section` (the API's `section` filter). Not paged: a user has at most one
 * a section.
 */
export async function listPerSection<Row, Item>(
  db: Db,
  resource: OwnedResource<Row, Item, never>,
  userId: number,
  section?: string,
): Promise<Item[]> {
  const { alias } = resource;
  let select = resource.select(db, userId);
  if (section !== undefined) select = select.where(columnIs(`${alias}.section`, section));
  const rows = await select
    .orderBy(sql.ref(`${alias}.section`), 'asc')
    .orderBy(sql.ref(`${alias}.id`), 'asc')
    .execute();
  return rows.map(resource.itemOf);
}

/** A user's record of one search section (see `listPerSection`), or null. */
export async function getOfSection<Row, Item>(
  db: Db,
  resource: OwnedResource<Row, Item, never>,
  userId: number,
  section: string,
): Promise<Item | null> {
  const row = await resource
    .select(db, userId)
    .where(columnIs(`${resource.alias}.section`, section))
    .executeTakeFirst();
  return row ? resource.itemOf(row) : null;
}

/** One of a user's records, or a 404 naming what was not found. */
export async function requireOwned<Row, Item>(
  db: Db,
  resource: OwnedResource<Row, Item, never>,
  userId: number,
  id: number,
): Promise<Item> {
  const item = await getOwned(db, resource, userId, id);
  if (!item) throw notFound(resource.noun);
  return item;
}

/** Changes columns of one of a user's records and reads it back; not theirs (or gone) is a 404. */
export async function updateOwned<Row, Item>(
  db: Db,
  resource: OwnedResource<Row, Item, never>,
  userId: number,
  id: number,
  changes: Record<string, unknown>,
): Promise<Item> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length > 0) {
    const result = await db.kysely
      .updateTable(resource.table)
      .set(set as never)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound(resource.noun);
  }
  return requireOwned(db, resource, userId, id);
}

/** Deletes one of a user's records; not theirs (or gone) is a 404. */
export async function deleteOwned(
  db: Db,
  resource: Pick<OwnedResource<unknown, unknown>, 'table' | 'noun'>,
  userId: number,
  id: number,
): Promise<void> {
  const result = await db.kysely
    .deleteFrom(resource.table)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(resource.noun);
}

/**
 * Deletes some of a user's records, all or none: an id that is not one of the caller's is a 404
 * and nothing is deleted (`parameter` names the list of ids). Returns how many went.
 */
export async function deleteOwnedIds(
  db: Db,
  resource: Pick<OwnedResource<unknown, unknown>, 'table' | 'noun'>,
  userId: number,
  ids: readonly number[],
  parameter: string,
): Promise<number> {
  const unique = [...new Set(ids)];
  if (unique.length === 0)
    throw fieldProblem(parameter, 'required', `Give the ids of the ${resource.noun}s to delete.`);
  return db.kysely.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom(resource.table)
      .where('user_id', '=', userId)
      .where('id', 'in', unique)
      .executeTakeFirst();
    // Throwing rolls the deletion back: another user's id never removes anything.
    if (Number(result.numDeletedRows) !== unique.length) throw notFound(resource.noun);
    return unique.length;
  });
}

/** How many records a user keeps (for the limits of core/limits.ts). */
export async function countOwned(
  db: Db,
  resource: Pick<OwnedResource<unknown, unknown>, 'table'>,
  userId: number,
): Promise<number> {
  const held = await db.kysely
    .selectFrom(resource.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(held.n);
}

/** Clears a user's records (or those made on the days of a range); returns how many went. */
export async function clearOwned(
  db: Db,
  resource: Pick<OwnedResource<unknown, unknown>, 'table'>,
  userId: number,
  range: { from?: string; to?: string } = {},
): Promise<number> {
  const { start, end } = dayRange(range.from, range.to);
  let query = db.kysely.deleteFrom(resource.table).where('user_id', '=', userId);
  if (start) query = query.where('created_at', '>=', start);
  if (end) query = query.where('created_at', '<', end);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Inserts a record numbered per user from 1 (orders' #, the pages of lists) and returns its id.
 * The next number is read in the insert itself; two inserts at once may pick the same one, and the
 * unique key (user_id, number) refuses one, which tries again. `values` are typed SQL values.
 */
export async function insertNumbered(
  db: Pick<Db, 'kysely'>,
  table: 'orders' | 'watchlists' | 'support_topics',
  userId: number,
  values: Record<string, RawBuilder<unknown>>,
): Promise<number> {
  const columns = Object.keys(values);
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await db.kysely
        .insertInto(table)
        .columns(['user_id', 'number', ...columns] as never)
        .expression((eb) =>
          eb
            .selectFrom(table)
            .select([
              sql<number>`${userId}::bigint`.as('user_id'),
              sql<number>`coalesce(max(number), 0) + 1`.as('number'),
              ...columns.map((c) => values[c].as(c)),
            ])
            .where('user_id', '=', userId),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    } catch (error) {
      const taken = (error as { code?: string } | null)?.code === '23505';
      if (attempt < 3 && taken) continue;
      throw error;
    }
  }
}
