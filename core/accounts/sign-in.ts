import { notify } from '../notifications/notifications.ts';
import type { AccountDeps } from './account-deps.ts';
import { type FieldErrors, invalidFields, notActivated, wrongCredentials } from './account-errors.ts';
import { SECURITY_SETTINGS_PATH, siteLink } from './account-links.ts';
import { wantsEmail } from './account-settings.ts';
import { normaliseEmail } from './email-address.ts';
import { dummyPasswordHash, verifyPassword } from './password-hash.ts';
import { PASSWORD_MAX_LENGTH } from './password-rules.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { safeReturnTo } from './return-to.ts';
import { type ClientInfo, createSession, findSession, type SessionAuth } from './sessions.ts';
import { findUserByEmail, sendActivation } from './sign-up.ts';

export type SignInInput = {
  email: string;
  password: string;
  /** Where a fresh activation link (for an account not activated yet) lands, signed in. */
  returnTo?: string;
};

/**
 * Checks email and password and starts a session. An unknown email is verified against a dummy
 * hash, so that it answers like a wrong password, in the same time. An account that is not
 * activated yet is refused — and, when the password was right, sent a fresh activation link.
 */
export async function signIn(
  deps: AccountDeps,
  input: SignInInput,
  client: ClientInfo,
  now = new Date(),
): Promise<{ token: string; auth: SessionAuth }> {
  const email = normaliseEmail(input.email ?? '');
  const password = input.password ?? '';
  const fields: FieldErrors = {};
  if (email === '') fields.email = 'required';
  if (password === '') fields.password = 'required';
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  await enforceRateLimits(
    deps.db,
    [
      [RATE_LIMITS.signInIp, client.ip],
      [RATE_LIMITS.signInAccount, email],
    ],
    now,
  );
  const user = await findUserByEmail(deps.db, email);
  // No password is longer than the rules allow: such input is never right (and not worth hashing twice).
  const candidate = [...password].length > PASSWORD_MAX_LENGTH ? '' : password;
  const matches = await verifyPassword(candidate, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !matches || candidate === '') throw wrongCredentials();
  if (!user.activated_at) {
    await sendActivation(deps, user, now, safeReturnTo(input.returnTo, ''));
    throw notActivated();
  }
  const newDevice = await isNewDevice(deps, user.id, client);
  const token = await createSession(deps.db, user.id, client, now);
  const auth = await findSession(deps.db, token, now);
  if (!auth) throw new Error('a new session could not be read back');
  if (newDevice) {
    await notify(deps.db, user.id, 'new_sign_in', { device: client.userAgent, ip: client.ip }, now);
    if (await wantsEmail(deps.db, user.id, 'new_sign_in')) {
      await deps.mailer.sendAccountEmail('new_sign_in', {
        to: auth.user.email,
        name: auth.user.name,
        lang: auth.user.language,
        link: siteLink(deps.siteUrl, auth.user.language, SECURITY_SETTINGS_PATH),
      });
    }
  }
  return { token, auth };
}

/**
 * A sign-in from a browser the account has not used before (no earlier session with its user
 * agent), when the account has signed in before: the owner is told (settings → security).
 */
async function isNewDevice(deps: AccountDeps, userId: number, client: ClientInfo): Promise<boolean> {
  const earlier = await deps.db.kysely
    .selectFrom('sessions')
    .select('user_agent')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute();
  if (earlier.length === 0) return false;
  const agent = client.userAgent.slice(0, 500) || null;
  return !earlier.some((s) => s.user_agent === agent);
}
