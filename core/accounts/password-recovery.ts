import type { AccountDeps } from './account-deps.ts';
import { codeRefused, invalidFields } from './account-errors.ts';
import { recoveryPath, SIGN_IN_PATH, siteLink } from './account-links.ts';
import { isEmail, normaliseEmail } from './email-address.ts';
import { issueCode, redeemCode, retireCodes } from './one-time-codes.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { safeReturnTo } from './return-to.ts';
import { type ClientInfo, revokeUserSessions } from './sessions.ts';
import { findUserByEmail } from './sign-up.ts';

/**
 * Emails a password-recovery link (valid 1 hour, once) when the address has an account. The
 * answer is the same either way, and so is its time: the code and the email are made after the
 * answer (in the background), so both cases answer after the same look-up. No email goes to an
 * address without an account. A `returnTo` (the sign-in gate's page and pending action) rides in the
 * link, and on to the sign-in after the reset.
 */
export async function requestPasswordRecovery(
  deps: AccountDeps,
  input: { email: string; returnTo?: string },
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  const email = normaliseEmail(input.email ?? '');
  if (email === '') throw invalidFields({ email: 'required' });
  if (!isEmail(email)) throw invalidFields({ email: 'invalid' });
  await enforceRateLimits(
    deps.db,
    [
      [RATE_LIMITS.recoveryIp, client.ip],
      [RATE_LIMITS.recoveryAccount, email],
    ],
    now,
  );
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  deps.mailer.background(async () => {
    const code = await issueCode(deps.db, user.id, 'password_recovery', now);
    await deps.mailer.sendAccountEmail('password_recovery', {
      to: user.email,
      name: user.name,
      lang: user.language,
      // Where the sign-in gate was going (ADR 0030): the reset's sign-in lands there.
      link: siteLink(deps.siteUrl, user.language, recoveryPath(code, safeReturnTo(input.returnTo, ''))),
    });
  });
}

/**
 * Sets a new password with a recovery code: the code is used up, every session of the account
 * is signed out, and the owner is told by email. The link proves the address, so an account that
 * was never activated is activated too. The password is checked before the code is spent.
 */
export async function resetPassword(
  deps: AccountDeps,
  input: { code: string; password: string },
  now = new Date(),
): Promise<void> {
  const problem = passwordProblem(input.password ?? '');
  if (problem) throw invalidFields({ password: problem });
  const { state, userId } = await redeemCode(deps.db, input.code, 'password_recovery', now);
  if (state !== 'valid' || userId === undefined) throw codeRefused(state === 'valid' ? 'unknown' : state);
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db.kysely
    .updateTable('users')
    .set((eb) => ({
      password_hash: passwordHash,
      password_changed_at: now,
      updated_at: now,
      activated_at: eb.fn.coalesce('activated_at', eb.val(now)),
    }))
    .where('id', '=', userId)
    .returning(['id', 'email', 'name', 'language'])
    .executeTakeFirstOrThrow();
  await retireCodes(deps.db, userId, 'password_recovery', now);
  await revokeUserSessions(deps.db, userId, undefined, now);
  await deps.mailer.sendAccountEmail('password_changed', {
    to: user.email,
    name: user.name,
    lang: user.language,
    link: siteLink(deps.siteUrl, user.language, SIGN_IN_PATH),
  });
}
