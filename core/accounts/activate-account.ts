import type { Db } from '../../db/client.ts';
import { notify } from '../notifications/notifications.ts';
import { redeemCode, retireCodes } from './one-time-codes.ts';

export type ActivationResult = 'activated' | 'already_active' | 'expired' | 'invalid';

/**
 * Redeems an activation code: the account can sign in from now on. Opening a used link again
 * says the account is active (mail scanners may have opened it first); other codes are refused.
 */
export async function activateAccount(db: Db, code: string, now = new Date()): Promise<ActivationResult> {
  const { state, userId } = await redeemCode(db, code, 'activation', now);
  if (state === 'expired') return 'expired';
  if (state === 'unknown' || userId === undefined) return 'invalid';
  if (state === 'used') {
    const user = await db.kysely.selectFrom('users').select('activated_at').where('id', '=', userId).executeTakeFirst();
    return user?.activated_at ? 'already_active' : 'invalid';
  }
  await db.kysely
    .updateTable('users')
    .set({ activated_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('activated_at', 'is', null)
    .execute();
  await retireCodes(db, userId, 'activation', now);
  await notify(db, userId, 'welcome', {}, now);
  return 'activated';
}
