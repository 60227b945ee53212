import { notify } from '../notifications/notifications.ts';
import type { AccountDeps } from './account-deps.ts';
import { type FieldErrors, invalidFields } from './account-errors.ts';
import { emailChangePath, SECURITY_SETTINGS_PATH, siteLink } from './account-links.ts';
import { isEmail, normaliseEmail } from './email-address.ts';
import { issueCode, looksLikeCode, retireCodes } from './one-time-codes.ts';
import { verifyPassword } from './password-hash.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { digest } from './secret-tokens.ts';

// Changing the email address of an account (settings → profile): the current password proves the
// owner, the new address proves itself by a link sent to it (24 hours, once, stored hashed), and
// the old address is told once the change is made. Until then the account keeps its address.

/**
 * Asks to move the account to a new address. Whether another account already uses it is not
 * told (the answer is the same; no link is sent): confirming re-checks it anyway.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  input: { userId: number; email: string; currentPassword: string },
  now = new Date(),
): Promise<void> {
  const email = normaliseEmail(input.email ?? '');
  const user = await deps.db.kysely
    .selectFrom('users')
    .select(['id', 'email', 'name', 'language', 'password_hash'])
    .where('id', '=', input.userId)
    .executeTakeFirstOrThrow();
  const fields: FieldErrors = {};
  if (email === '') fields.email = 'required';
  else if (!isEmail(email)) fields.email = 'invalid';
  else if (email === user.email) fields.email = 'unchanged';
  if (!input.currentPassword) fields.currentPassword = 'required';
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  await enforceRateLimits(deps.db, [[RATE_LIMITS.signInAccount, user.email]], now);
  if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
    throw invalidFields({ currentPassword: 'wrong' });
  }
  await retireCodes(deps.db, user.id, 'email_change', now);
  const taken = await deps.db.kysely
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  if (taken) return;
  const code = await issueCode(deps.db, user.id, 'email_change', now, email);
  await deps.mailer.sendAccountEmail('email_change', {
    to: email,
    name: user.name,
    lang: user.language,
    link: siteLink(deps.siteUrl, user.language, emailChangePath(code)),
  });
}

export type EmailChangeResult = 'changed' | 'taken' | 'invalid';

/** Opens the link sent to the new address: the account moves to it (once), and the old address is told. */
export async function confirmEmailChange(
  deps: AccountDeps,
  code: string,
  now = new Date(),
): Promise<EmailChangeResult> {
  if (!looksLikeCode(code)) return 'invalid';
  const redeemed = await deps.db.kysely
    .updateTable('account_codes')
    .set({ used_at: now })
    .where('code_hash', '=', digest(code))
    .where('purpose', '=', 'email_change')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'new_email'])
    .executeTakeFirst();
  if (!redeemed?.new_email) return 'invalid';
  const newEmail = redeemed.new_email;
  const before = await deps.db.kysely
    .selectFrom('users')
    .select(['email', 'name', 'language'])
    .where('id', '=', redeemed.user_id)
    .executeTakeFirst();
  if (!before) return 'invalid';
  const taken = await deps.db.kysely
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', newEmail))
    .where('id', '!=', redeemed.user_id)
    .executeTakeFirst();
  if (taken) return 'taken';
  try {
    await deps.db.kysely
      .updateTable('users')
      .set({ email: newEmail, updated_at: now })
      .where('id', '=', redeemed.user_id)
      .execute();
  } catch (error) {
    // Another account took the address between the check and the update (the unique index says so).
    if ((error as { code?: string }).code === '23505') return 'taken';
    throw error;
  }
  await notify(deps.db, redeemed.user_id, 'email_changed', { email: newEmail }, now);
  await deps.mailer.sendAccountEmail('email_changed', {
    to: before.email,
    name: before.name,
    lang: before.language,
    link: siteLink(deps.siteUrl, before.language, SECURITY_SETTINGS_PATH),
  });
  return 'changed';
}
