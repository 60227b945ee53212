import type { Db } from '../../db/client.ts';
import { digest, randomToken } from './secret-tokens.ts';

export type CodePurpose = 'activation' | 'password_recovery' | 'email_change';

/** How long an emailed code works: 24 hours to activate or confirm a new address, 1 hour to recover a password. */
export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  activation: 24 * 60 * 60 * 1000,
  password_recovery: 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

export type CodeRow = { user_id: number; purpose: CodePurpose; expires_at: Date; used_at: Date | null };

export type CodeState = 'valid' | 'unknown' | 'expired' | 'used';

/** Whether a stored code can be redeemed now, for the given purpose. */
export function codeState(row: CodeRow | undefined, purpose: CodePurpose, now: Date): CodeState {
  if (!row || row.purpose !== purpose) return 'unknown';
  if (row.used_at) return 'used';
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'valid';
}

/** A code's expiry when issued now. */
export function codeExpiry(purpose: CodePurpose, now: Date): Date {
  return new Date(now.getTime() + CODE_LIFETIME_MS[purpose]);
}

/** Codes travel in URLs: 43 base64url characters. Anything else is not one of ours. */
export function looksLikeCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(code);
}

/** Issues a fresh code (the database keeps only its SHA-256) and returns it, for the email. */
export async function issueCode(
  db: Db,
  userId: number,
  purpose: CodePurpose,
  now = new Date(),
  newEmail: string | null = null,
): Promise<string> {
  const code = randomToken();
  await db.kysely
    .insertInto('account_codes')
    .values({
      code_hash: digest(code),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: codeExpiry(purpose, now),
      new_email: newEmail,
    })
    .execute();
  return code;
}

/** Reads a code without using it (the recovery page shows its form only for a valid code). */
export async function peekCode(
  db: Db,
  code: string,
  purpose: CodePurpose,
  now = new Date(),
): Promise<{ state: CodeState; userId?: number }> {
  if (!looksLikeCode(code)) return { state: 'unknown' };
  const row = await db.kysely
    .selectFrom('account_codes')
    .select(['user_id', 'purpose', 'expires_at', 'used_at'])
    .where('code_hash', '=', digest(code))
    .executeTakeFirst();
  const state = codeState(row, purpose, now);
  return { state, userId: row?.user_id };
}

/**
 * Redeems a code once: the update that marks it used is the check, so two concurrent requests
 * with the same code cannot both succeed. Returns the user on success, else why it failed.
 */
export async function redeemCode(
  db: Db,
  code: string,
  purpose: CodePurpose,
  now = new Date(),
): Promise<{ state: CodeState; userId?: number }> {
  if (!looksLikeCode(code)) return { state: 'unknown' };
  const hash = digest(code);
  const redeemed = await db.kysely
    .updateTable('account_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  if (redeemed) return { state: 'valid', userId: redeemed.user_id };
  return peekCode(db, code, purpose, now);
}

/** Marks every open code of a user for a purpose used (a reset or an activation supersedes the others). */
export async function retireCodes(db: Db, userId: number, purpose: CodePurpose, now = new Date()): Promise<void> {
  await db.kysely
    .updateTable('account_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
