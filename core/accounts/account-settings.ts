import type { Db } from '../../db/client.ts';
import { LANGS, type Lang } from '../reference/reference-data.ts';
import { TABLE_STYLES, type TableStyle } from '../table-views/table-view-settings.ts';
import { type FieldErrors, invalidFields } from './account-errors.ts';

// The settings a signed-in user keeps: the interface (language, table style),
// which optional emails they receive, and the sessions signed in to the account.

/**
 * The optional emails a user chooses (settings → notifications). Emails that protect the account
 * (password or address changed) are always sent and are not listed here.
 */
export const EMAIL_NOTIFICATIONS = [
  'new_sign_in',
  'tracking_updates',
  'new_companies',
  'product_news',
  // An answer to a support ticket (core/support, ADR 0021).
  'support_replies',
  // An export job is done (docs/decisions/0031-export-jobs.md).
  'export_ready',
] as const;
export type EmailNotification = (typeof EMAIL_NOTIFICATIONS)[number];

export type AccountSettings = {
  language: Lang;
  tableStyle: TableStyle;
  emails: EmailNotification[];
};

export async function getAccountSettings(db: Db, userId: number): Promise<AccountSettings> {
  const row = await db.kysely
    .selectFrom('users')
    .select(['language', 'table_style', 'email_notifications'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    language: row.language,
    tableStyle: row.table_style,
    emails: row.email_notifications.filter(isEmailNotification),
  };
}

/** Changes the interface settings given (what is absent stays). */
export async function updateInterface(
  db: Db,
  userId: number,
  input: { language?: string; tableStyle?: string },
  now = new Date(),
): Promise<void> {
  const fields: FieldErrors = {};
  const language = input.language;
  const tableStyle = input.tableStyle;
  if (language !== undefined && !(LANGS as readonly string[]).includes(language)) fields.language = 'invalid';
  if (tableStyle !== undefined && !(TABLE_STYLES as readonly string[]).includes(tableStyle)) {
    fields.tableStyle = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  await db.kysely
    .updateTable('users')
    .set({
      updated_at: now,
      ...(language ? { language: language as Lang } : {}),
      ...(tableStyle ? { table_style: tableStyle as TableStyle } : {}),
    })
    .where('id', '=', userId)
    .execute();
}

/** Sets which optional emails the user receives (exactly the ones given). */
export async function updateEmailNotifications(
  db: Db,
  userId: number,
  emails: string[],
  now = new Date(),
): Promise<void> {
  if (!emails.every(isEmailNotification)) throw invalidFields({ emails: 'invalid' });
  await db.kysely
    .updateTable('users')
    .set({ email_notifications: [...new Set(emails)], updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function wantsEmail(db: Db, userId: number, kind: EmailNotification): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('users')
    .select('email_notifications')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.email_notifications.includes(kind));
}

function isEmailNotification(value: string): value is EmailNotification {
  return (EMAIL_NOTIFICATIONS as readonly string[]).includes(value);
}

export type SessionEntry = {
  /** Names the session on the page and in the revoke form (see sessionHandle). */
  handle: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  ip: string | null;
  current: boolean;
};

/** The live sessions of a user, the most recently used first. */
export async function listSessions(db: Db, userId: number, currentSessionId: string, now = new Date()) {
  const rows = await db.kysely
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .limit(100)
    .execute();
  return rows.map(
    (r): SessionEntry => ({
      handle: sessionHandle(r.id),
      created_at: new Date(r.created_at).toISOString(),
      last_seen_at: new Date(r.last_seen_at).toISOString(),
      user_agent: r.user_agent,
      ip: r.ip,
      current: r.id === currentSessionId,
    }),
  );
}

/** Signs out one of the user's sessions by its handle; false when the user has no such live session. */
export async function revokeSessionByHandle(
  db: Db,
  userId: number,
  handle: string,
  now = new Date(),
): Promise<boolean> {
  if (!/^[0-9a-f]{16}$/.test(handle)) return false;
  const sessions = await db.kysely
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  const match = sessions.find((s) => sessionHandle(s.id) === handle);
  if (!match) return false;
  await db.kysely.updateTable('sessions').set({ revoked_at: now }).where('id', '=', match.id).execute();
  return true;
}

/** The session id is already a SHA-256 of the secret token: its first 16 hex digits name it without revealing it. */
function sessionHandle(sessionId: string): string {
  return sessionId.slice(0, 16);
}
