import type { Db } from '../../db/client.ts';
import { notify } from '../notifications/notifications.ts';
import { redeemCode, retireCodes } from './one-time-codes.ts';
import { type ClientInfo, createSession } from './sessions.ts';

export type ActivationResult = 'activated' | 'already_active' | 'expired' | 'invalid';

/**
 * Redeems an activation code: the account can sign in from now on. Opening a used link again
 * says the account is active (mail scanners may have opened it first); other codes are refused.
 */
export async function activateAccount(db: Db, code: string, now = new Date()): Promise<ActivationResult> {
  return (await redeemActivation(db, code, now)).result;
}

/**
 * Activates the account and signs this browser in, the way a sign-in would: the token of a new
 * session, for the cookie. Only the redeeming open of the link signs in; opening it again (or an
 * expired or unknown code) gives no session (docs/decisions/0006).
 */
export async function activateAndSignIn(
  db: Db,
  code: string,
  client: ClientInfo,
  now = new Date(),
): Promise<{ result: 'activated'; token: string } | { result: Exclude<ActivationResult, 'activated'> }> {
  const { result, userId } = await redeemActivation(db, code, now);
  if (result !== 'activated') return { result };
  if (userId === undefined) throw new Error('an activated code without its user');
  return { result, token: await createSession(db, userId, client, now) };
}

async function redeemActivation(
  db: Db,
  code: string,
  now: Date,
): Promise<{ result: ActivationResult; userId?: number }> {
  const { state, userId } = await redeemCode(db, code, 'activation', now);
  if (state === 'expired') return { result: 'expired' };
  if (state === 'unknown' || userId === undefined) return { result: 'invalid' };
  if (state === 'used') {
    const user = await db.kysely.selectFrom('users').select('activated_at').where('id', '=', userId).executeTakeFirst();
    return { result: user?.activated_at ? 'already_active' : 'invalid' };
  }
  await db.kysely
    .updateTable('users')
    .set({ activated_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('activated_at', 'is', null)
    .execute();
  await retireCodes(db, userId, 'activation', now);
  await notify(db, userId, 'welcome', {}, now);
  return { result: 'activated', userId };
}
