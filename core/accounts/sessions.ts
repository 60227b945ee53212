import type { Db } from '../../db/client.ts';
import type { TableStyle } from '../table-views/table-view-settings.ts';
import { csrfTokenFor, digest, randomToken } from './secret-tokens.ts';
import { PROFILE_COLUMNS, type Profile, profileOf } from './users.ts';

/** A session lasts 30 days from sign-in (the cookie's Max-Age says the same). */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export type ClientInfo = { ip: string; userAgent: string };

/** Who makes a request, when its token cookie names a live session. */
export type SessionAuth = {
  user: Profile;
  /** The session's id: the SHA-256 of its token. */
  sessionId: string;
  /** Required in the `_csrf` form field or the `x-csrf-token` header of every unsafe request. */
  csrfToken: string;
  /** The table style the user's results tables start with (settings → interface), read with the session. */
  tableStyle: TableStyle;
};

/** Starts a session for an (activated, authenticated) user and returns its token, for the cookie. */
export async function createSession(db: Db, userId: number, client: ClientInfo, now = new Date()): Promise<string> {
  const token = randomToken();
  await db.kysely
    .insertInto('sessions')
    .values({
      id: digest(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
      user_agent: client.userAgent.slice(0, 500) || null,
      ip: client.ip || null,
    })
    .execute();
  return token;
}

/** The live session a token names, with its user; null for unknown, revoked or expired tokens. */
export async function findSession(db: Db, token: string, now = new Date()): Promise<SessionAuth | null> {
  if (token.length < 20 || token.length > 100) return null;
  const id = digest(token);
  const row = await db.kysely
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(PROFILE_COLUMNS.map((c) => `u.${c}` as const))
    .select(['s.last_seen_at', 'u.table_style'])
    .where('s.id', '=', id)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.activated_at', 'is not', null)
    .executeTakeFirst();
  if (!row) return null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > TOUCH_INTERVAL_MS) {
    await db.kysely.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }
  return { user: profileOf(row), sessionId: id, csrfToken: csrfTokenFor(token), tableStyle: row.table_style };
}

/** Ends one session (sign-out). */
export async function revokeSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.kysely
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of a user, or every one but `keep` (password reset and change). */
export async function revokeUserSessions(db: Db, userId: number, keep?: string, now = new Date()): Promise<number> {
  let query = db.kysely
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) query = query.where('id', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
