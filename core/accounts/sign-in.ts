import type { AccountDeps } from './account-deps.ts';
import { type FieldErrors, invalidFields, notActivated, wrongCredentials } from './account-errors.ts';
import { normaliseEmail } from './email-address.ts';
import { dummyPasswordHash, verifyPassword } from './password-hash.ts';
import { PASSWORD_MAX_LENGTH } from './password-rules.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { type ClientInfo, createSession, findSession, type SessionAuth } from './sessions.ts';
import { findUserByEmail, sendActivation } from './sign-up.ts';

export type SignInInput = { email: string; password: string };

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
    await sendActivation(deps, user, now);
    throw notActivated();
  }
  const token = await createSession(deps.db, user.id, client, now);
  const auth = await findSession(deps.db, token, now);
  if (!auth) throw new Error('a new session could not be read back');
  return { token, auth };
}
