import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { CHANGE_FEED_PAGE_DEFAULT, CHANGE_FEED_PAGE_MAX } from '../limits.ts';
import { changesFor } from '../purchases/paywall.ts';
import { type Lang, loadReference, type Reference } from '../reference/reference-data.ts';
import { visibleChanges, visibleCompanyId, visibleCompanyIds } from '../takedowns/visible.ts';
import { notFound } from '../user-data/user-data-errors.ts';
import { type ChangeDisplay, changeDisplay, loadChangeWords } from './change-words.ts';

// The change feed (docs/decisions/0018-change-feed-and-webhooks.md): every change an import made
// (company_changes), in the order it was recorded, from any cursor. A client keeps the `next` of
// the last page and asks again with it: nothing is missed and nothing comes twice, and a cursor
// of 0 replays everything. Webhooks deliver the same items.

export type ChangeFeedQuery = {
  /** Changes after this cursor (a change id); 0 = from the first. */
  since: number;
  count?: number;
  companyId?: number;
  /** One of the caller's trackings of existing companies: the changes of its company. */
  trackingId?: number;
  fields?: string[];
};

export type ChangeItem = {
  id: number;
  company: { id: number; uri: string; name: string } | null;
  field: string;
  old_value: unknown;
  new_value: unknown;
  source: string;
  source_date: string | null;
  observed_at: string;
  /** The change in words, in the reader's language, beside the raw values (core/changes/change-words.ts). */
  display: ChangeDisplay;
};

export type ChangePage = { data: ChangeItem[]; next: number };

type ChangeRow = {
  id: string | number;
  legal_entity_id: string | number;
  uri: string | null;
  name: string | null;
  field: string;
  old_value: unknown;
  new_value: unknown;
  source: string;
  source_date: Date | string | null;
  observed_at: Date | string;
};

/** A page of changes after `since`, oldest first; `next` is the cursor to ask with next time. */
export async function listChanges(
  db: Db,
  userId: number | null,
  query: ChangeFeedQuery,
  words: { reference: Reference; lang: Lang },
): Promise<ChangePage> {
  const size = Math.min(query.count ?? CHANGE_FEED_PAGE_DEFAULT, CHANGE_FEED_PAGE_MAX);
  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`c.id > ${query.since}`];
  if (query.companyId !== undefined) conditions.push(sql<SqlBool>`c.legal_entity_id = ${query.companyId}`);
  if (query.fields && query.fields.length > 0) conditions.push(sql<SqlBool>`c.field = any(${query.fields}::text[])`);
  if (query.trackingId !== undefined) {
    const tracking =
      userId === null
        ? undefined
        : await db.kysely
            .selectFrom('existing_objects_tracking')
            .select('legal_entity_id')
            .where('user_id', '=', userId)
            .where('id', '=', query.trackingId)
            .executeTakeFirst();
    if (!tracking) throw notFound('tracking');
    conditions.push(sql<SqlBool>`c.legal_entity_id = ${tracking.legal_entity_id}`);
  }
  const rows = await changeRows(db.kysely, conditions, size);
  // The contact details of companies the reader did not buy are hidden, in the values and the words (ADR 0029).
  const readable = await changesFor(db, userId, await visibleChanges(db, rows), (r) => Number(r.legal_entity_id));
  const data = await changeItems(db.kysely, readable, words);
  // The cursor moves past the changes left out too (a connection naming someone taken down).
  return { data, next: rows.length > 0 ? Number(rows[rows.length - 1].id) : query.since };
}

/**
 * Changes matching `conditions` (on `c`, company_changes), oldest first, with their company as it is
 * now; a company taken down has no changes to read (ADR 0021). Pass the rows through visibleChanges
 * (core/takedowns/visible.ts) before they leave: a `members` change may name someone taken down.
 */
export async function changeRows(
  executor: Kysely<Database>,
  conditions: Expression<SqlBool>[],
  limit: number,
): Promise<ChangeRow[]> {
  const result = await sql<ChangeRow>`select c.id, c.legal_entity_id, l.uri, l.name, c.field, c.old_value,
      c.new_value, c.source, c.source_date, c.observed_at
    from company_changes c left join legal_entities l on l.id = c.legal_entity_id
    where ${sql.join([...conditions, visibleCompanyId('c.legal_entity_id')], sql` and `)}
    order by c.id limit ${limit}`.execute(executor);
  return result.rows;
}

/** Rows as change items, each with its words in `lang` (the legal forms they name read once). */
export async function changeItems(
  executor: Kysely<Database>,
  rows: ChangeRow[],
  options: { reference: Reference; lang: Lang },
): Promise<ChangeItem[]> {
  const changes = rows.map((r) => ({ field: r.field, old: r.old_value ?? null, new: r.new_value ?? null }));
  const words = await loadChangeWords(executor, options.reference, options.lang, changes);
  return rows.map((row, i) => {
    const id = Number(row.legal_entity_id);
    return {
      id: Number(row.id),
      company: row.uri !== null && row.name !== null ? { id, uri: row.uri, name: row.name } : null,
      field: row.field,
      old_value: row.old_value ?? null,
      new_value: row.new_value ?? null,
      source: row.source,
      source_date: isoTime(row.source_date),
      observed_at: isoTime(row.observed_at) ?? '',
      display: changeDisplay(changes[i], words),
    };
  });
}

/**
 * Change items kept from before (a webhook delivery's payload) as the public may read them now: the
 * changes of a company taken down since are left out, and so are the members taken down in a
 * `members` change (core/takedowns/visible.ts) — from its words (`display`, in `lang`) too.
 */
export async function visibleChangeItems(
  db: Db,
  items: ChangeItem[],
  words: { lang: Lang; reference?: Reference },
): Promise<ChangeItem[]> {
  const ids = items.flatMap((item) => (item.company ? [item.company.id] : []));
  const visible = new Set(await visibleCompanyIds(db, ids));
  const kept = items.filter((item) => item.company === null || visible.has(item.company.id));
  const read = await visibleChanges(db, kept);
  const changed = read.filter((item, i) => item !== kept[i]);
  if (changed.length === 0) return read;
  // A members change lost someone: its words are written again from what is left.
  const reference = words.reference ?? (await loadReference(db));
  const again = await loadChangeWords(db.kysely, reference, words.lang, []);
  return read.map((item, i) =>
    item === kept[i]
      ? item
      : { ...item, display: changeDisplay({ field: item.field, old: item.old_value, new: item.new_value }, again) },
  );
}

function isoTime(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
