import { createHmac } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { sameSecret } from '../accounts/secret-tokens.ts';

// The users API's support token (spec §7 "GET support token", ADR 0021): what a help-desk widget
// or an external help desk is given to know which signed-in user it talks to, without the session
// cookie itself. It names the user and an expiry and is signed with the session (its id, the
// SHA-256 of the cookie's token, which only the server holds): it is valid while that session is,
// and at most an hour.

const LIFETIME_MS = 60 * 60 * 1000;

function sign(sessionId: string, payload: string): string {
  return createHmac('sha256', sessionId).update(`support:${payload}`).digest('base64url');
}

export function createSupportToken(
  userId: number,
  sessionId: string,
  now = new Date(),
): { token: string; expires_at: string } {
  const expires = new Date(now.getTime() + LIFETIME_MS);
  const payload = `${userId}.${Math.floor(expires.getTime() / 1000)}`;
  return { token: `${payload}.${sign(sessionId, payload)}`, expires_at: expires.toISOString() };
}

/** The user a support token names, or null when it is malformed, expired or its session has ended. */
export async function verifySupportToken(db: Db, token: string, now = new Date()): Promise<number | null> {
  const m = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, user, expires, signature] = m;
  if (Number(expires) * 1000 <= now.getTime()) return null;
  const sessions = await db.kysely
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', Number(user))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  const payload = `${user}.${expires}`;
  return sessions.some((s) => sameSecret(sign(s.id, payload), signature)) ? Number(user) : null;
}
