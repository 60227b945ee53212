import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { NEW_REPORTS_PATH, reportRangeOf, UPDATE_REPORTS_PATH } from '../monitoring/reports.ts';
import { type Page, pageOf, pageSize } from '../user-data/list-query.ts';

// What the product tells a signed-in user on /dashboard/notifications/: account
// events now (welcome, a sign-in from a new device, password or email changed), tracking updates
// later. A notification stores its kind and the few values its wording needs; the page words it
// in the reader's language (core/i18n `notifications.kinds.<kind>`).

export const NOTIFICATION_KINDS = [
  'welcome',
  'new_sign_in',
  'password_changed',
  'email_changed',
  // Monitoring reports were built (docs/decisions/0015-monitoring.md): `count` companies, the
  // run's reports as `reports` ("12-40", core/monitoring/reports.ts reportRangeParam).
  'tracking_updates',
  'new_companies',
  // An export job finished (docs/decisions/0031-export-jobs.md): `export` its number, `name` the
  // file, `count` the rows; or failed, its credits given back.
  'export_ready',
  'export_failed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type Notification = {
  id: number;
  kind: NotificationKind;
  data: Record<string, string>;
  created_at: string;
  read_at: string | null;
};

/** What a notification's wording interpolates: its values, `count` as a number (for plurals). */
export function notificationValues(data: Record<string, string>): Record<string, string | number> {
  return data.count !== undefined && /^\d+$/.test(data.count) ? { ...data, count: Number(data.count) } : data;
}

/**
 * The page a notification announces, without the language prefix: a run's update or new-companies
 * reports (just those, when it names them), the security or profile settings, the search for a
 * welcome. The link is derived from the kind and values, so old notifications link too.
 */
export function notificationPath(kind: NotificationKind, data: Record<string, string>): string {
  const reports = reportRangeOf(data.reports) ? `?reports=${data.reports}` : '';
  switch (kind) {
    case 'welcome':
      return '/companies/search/';
    case 'new_sign_in':
    case 'password_changed':
      return '/dashboard/settings/security/';
    case 'email_changed':
      return '/dashboard/settings/profile/';
    case 'tracking_updates':
      return `${UPDATE_REPORTS_PATH}${reports}`;
    case 'new_companies':
      return `${NEW_REPORTS_PATH}${reports}`;
    case 'export_ready':
    case 'export_failed':
      return /^\d+$/.test(data.export ?? '') ? `/dashboard/exports/${data.export}/` : '/dashboard/exports/';
  }
}

/** Values longer than this are cut (a user agent can be long; nothing here needs more). */
const VALUE_MAX = 300;

export async function notify(
  db: Db,
  userId: number,
  kind: NotificationKind,
  data: Record<string, string> = {},
  now = new Date(),
): Promise<void> {
  const values = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.slice(0, VALUE_MAX)]));
  await db.kysely
    .insertInto('notifications')
    .values({ user_id: userId, kind, data: sql`${JSON.stringify(values)}::jsonb`, created_at: now })
    .execute();
}

/** A user's notifications, newest first, 50 a page (`after`: the last id of the previous page). */
export async function listNotifications(
  db: Db,
  userId: number,
  query: { count?: number; after?: number; unread?: boolean } = {},
): Promise<Page<Notification>> {
  const size = pageSize(query.count);
  let select = db.kysely
    .selectFrom('notifications')
    .select(['id', 'kind', 'data', 'created_at', 'read_at'])
    .where('user_id', '=', userId);
  if (query.unread) select = select.where('read_at', 'is', null);
  if (query.after !== undefined) select = select.where('id', '<', query.after);
  const rows = await select
    .orderBy('id', 'desc')
    .limit(size + 1)
    .execute();
  return pageOf(rows.map(notificationOf), size);
}

function notificationOf(r: {
  id: number | string;
  kind: string;
  data: unknown;
  created_at: Date | string;
  read_at: Date | string | null;
}): Notification {
  return {
    id: Number(r.id),
    kind: r.kind as NotificationKind,
    data: stringValues(r.data),
    created_at: new Date(r.created_at).toISOString(),
    read_at: r.read_at ? new Date(r.read_at).toISOString() : null,
  };
}

export async function countUnread(db: Db, userId: number): Promise<number> {
  const row = await db.kysely
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One of the user's notifications, or null (another user's is null too). */
export async function getNotification(db: Db, userId: number, id: number): Promise<Notification | null> {
  const row = await db.kysely
    .selectFrom('notifications')
    .select(['id', 'kind', 'data', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? notificationOf(row) : null;
}

/** Marks the given notifications of the user read, or all of them; returns how many changed. */
export async function markRead(db: Db, userId: number, ids: number[] | 'all', now = new Date()): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  let update = db.kysely
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids !== 'all') update = update.where('id', 'in', ids);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function stringValues(data: unknown): Record<string, string> {
  const parsed = typeof data === 'string' ? (JSON.parse(data) as unknown) : data;
  if (!parsed || typeof parsed !== 'object') return {};
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}
