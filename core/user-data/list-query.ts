import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from '../errors/app-error.ts';

// The list filters every user-data list shares (spec §7 "filters for browsing history, search
// history, tracking and watchlists"; §9 default size 50): a date range on when the item was made,
// a text query, and a keyset cursor (the id of the last item of the previous page, newest first).

/** Spec §9: watchlist, tracking and history fetches return 50 items unless asked otherwise. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export type ListQuery = {
  /** Text the item's name, query or company name contains (case-insensitive). */
  q?: string;
  /** First day (yyyy-MM-dd, UTC), inclusive. */
  from?: string;
  /** Last day (yyyy-MM-dd, UTC), inclusive. */
  to?: string;
  /** Items per page (default 50). */
  count?: number;
  /** The id of the last item of the previous page. */
  after?: number;
};

export type Page<T> = {
  data: T[] /** Pass as `after` for the next page; null on the last page. */;
  next: number | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A yyyy-MM-dd day as the UTC instant it starts at; null when it is no real day. */
export function dayStart(day: string): Date | null {
  const m = ISO_DAY.exec(day);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === day ? date : null;
}

/**
 * The half-open instant range [start, end) of an inclusive day range; either side may be open.
 * A bad day or a range that ends before it starts is a 400 naming the parameter.
 */
export function dayRange(from: string | undefined, to: string | undefined): { start?: Date; end?: Date } {
  const start = from ? dayStart(from) : undefined;
  if (start === null) throw new AppError('bad_request', 'from must be a day like 2026-01-31', { parameter: 'from' });
  const last = to ? dayStart(to) : undefined;
  if (last === null) throw new AppError('bad_request', 'to must be a day like 2026-01-31', { parameter: 'to' });
  const end = last ? new Date(last.getTime() + DAY_MS) : undefined;
  if (start && end && end <= start) {
    throw new AppError('bad_request', 'to must not be before from', { parameter: 'to' });
  }
  return { start, end };
}

/** A LIKE pattern matching the text anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The page size asked for, within bounds. */
export function pageSize(count: number | undefined): number {
  if (count === undefined || !Number.isFinite(count)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(count)));
}

/** Cuts a fetch of size + 1 rows (newest first) into a page and the cursor of the next one. */
export function pageOf<T extends { id: number }>(
  rows: T[],
  size: number,
  /** The id the next page continues after (default the item's own id). */
  cursorOf: (item: T) => number = (item) => item.id,
): Page<T> {
  if (rows.length <= size) return { data: rows, next: null };
  const data = rows.slice(0, size);
  return { data, next: cursorOf(data[data.length - 1]) };
}

/** Text trimmed, inner white space made single spaces, NFC. */
export function cleanText(raw: string): string {
  return raw.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** The tables of what a user keeps: every row has `user_id`, `id` and `created_at` (ADR 0007). */
export type OwnedTable =
  | 'watchlists'
  | 'browsing_history'
  | 'search_history'
  | 'saved_searches'
  | 'user_contacts'
  | 'orders'
  | 'purchases'
  | 'table_view_settings'
  | 'export_view_settings'
  | 'existing_objects_tracking'
  | 'existing_objects_reports'
  | 'new_objects_tracking'
  | 'new_objects_reports'
  | 'webhooks'
  | 'webhook_deliveries';

/**
 * The keyset condition of a page that continues after the row `after` (its id): rows ordered by
 * (time desc, id desc) that come after that row. Comparing in the database against the row's own
 * values keeps the timestamps' full precision; a cursor whose row is gone gives an empty page.
 */
export function keysetAfter(
  alias: string,
  table: OwnedTable | 'watchlist_objects',
  timeColumn: string,
  userId: number,
  after: number,
): RawBuilder<SqlBool> {
  const time = sql.ref(`${alias}.${timeColumn}`);
  const id = sql.ref(`${alias}.id`);
  return sql<SqlBool>`(${time}, ${id}) < (select c.${sql.ref(timeColumn)}, c.id from ${sql.table(table)} c
    where c.user_id = ${userId} and c.id = ${after})`;
}
