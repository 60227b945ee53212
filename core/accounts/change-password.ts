import { notify } from '../notifications/notifications.ts';
import type { AccountDeps } from './account-deps.ts';
import { type FieldErrors, invalidFields } from './account-errors.ts';
import { SIGN_IN_PATH, siteLink } from './account-links.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { revokeUserSessions } from './sessions.ts';

/**
 * A signed-in user changes their password: the current one must be right (and counts against the
 * sign-in limit of the account), every other session is signed out, and the owner is told by email.
 */
export async function changePassword(
  deps: AccountDeps,
  input: { userId: number; sessionId: string; currentPassword: string; newPassword: string },
  now = new Date(),
): Promise<{ revokedSessions: number }> {
  const fields: FieldErrors = {};
  if (!input.currentPassword) fields.currentPassword = 'required';
  const problem = passwordProblem(input.newPassword ?? '');
  if (problem) fields.password = problem;
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  const user = await deps.db.kysely
    .selectFrom('users')
    .select(['id', 'email', 'name', 'language', 'password_hash'])
    .where('id', '=', input.userId)
    .executeTakeFirstOrThrow();
  await enforceRateLimits(deps.db, [[RATE_LIMITS.signInAccount, user.email]], now);
  if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
    throw invalidFields({ currentPassword: 'wrong' });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.kysely
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', user.id)
    .execute();
  const revokedSessions = await revokeUserSessions(deps.db, user.id, input.sessionId, now);
  await notify(deps.db, user.id, 'password_changed', {}, now);
  await deps.mailer.sendAccountEmail('password_changed', {
    to: user.email,
    name: user.name,
    lang: user.language,
    link: siteLink(deps.siteUrl, user.language, SIGN_IN_PATH),
  });
  return { revokedSessions };
}
