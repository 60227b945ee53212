import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { LANGS, type Lang } from '../reference/reference-data.ts';
import type { AccountDeps } from './account-deps.ts';
import { type FieldErrors, invalidFields } from './account-errors.ts';
import { activationPath, RECOVERY_PATH, siteLink } from './account-links.ts';
import { isEmail, normaliseEmail } from './email-address.ts';
import { issueCode } from './one-time-codes.ts';
import { hashPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import { enforceRateLimits, RATE_LIMITS } from './rate-limits.ts';
import { safeReturnTo } from './return-to.ts';
import type { ClientInfo } from './sessions.ts';
import { nameProblem, normaliseName } from './users.ts';

export type SignUpInput = {
  email: string;
  password: string;
  name: string;
  language?: string;
  /** Where the activation link lands, signed in (checked with `safeReturnTo`; anything else is dropped). */
  returnTo?: string;
};

export type SignUpValues = { email: string; password: string; name: string; language: Lang };

/** Normalises and checks a sign-up form; throws a 400 naming every bad field. */
export function validateSignUp(input: SignUpInput): SignUpValues {
  const email = normaliseEmail(input.email ?? '');
  const name = normaliseName(input.name ?? '');
  const password = input.password ?? '';
  const fields: FieldErrors = {};
  const nameIssue = nameProblem(name);
  if (nameIssue) fields.name = nameIssue;
  if (email === '') fields.email = 'required';
  else if (!isEmail(email)) fields.email = 'invalid';
  const passwordIssue = passwordProblem(password);
  if (passwordIssue) fields.password = passwordIssue;
  const language = input.language ?? 'en';
  if (!(LANGS as string[]).includes(language)) fields.language = 'invalid';
  if (Object.keys(fields).length > 0) throw invalidFields(fields);
  return { email, name, password, language: language as Lang };
}

export async function findUserByEmail(db: Db, email: string) {
  return db.kysely
    .selectFrom('users')
    .select(['id', 'email', 'name', 'language', 'password_hash', 'activated_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normaliseEmail(email)))
    .executeTakeFirst();
}

/**
 * Creates an account and emails its activation link. An email that already has an account gets
 * the same answer and the same work (the password is hashed either way); its owner gets an email
 * saying someone tried (or, while it is not activated yet, a new activation link).
 */
export async function signUp(deps: AccountDeps, input: SignUpInput, client: ClientInfo, now = new Date()) {
  const values = validateSignUp(input);
  await enforceRateLimits(
    deps.db,
    [
      [RATE_LIMITS.signUpIp, client.ip],
      [RATE_LIMITS.signUpAccount, values.email],
    ],
    now,
  );
  const returnTo = safeReturnTo(input.returnTo, '');
  const passwordHash = await hashPassword(values.password);
  const existing = await findUserByEmail(deps.db, values.email);
  if (existing) {
    await notifyExisting(deps, existing, now, returnTo);
    return;
  }
  const created = await deps.db.kysely
    .insertInto('users')
    .values({
      email: values.email,
      password_hash: passwordHash,
      name: values.name,
      language: values.language,
      created_at: now,
      updated_at: now,
      password_changed_at: now,
    })
    // Two sign-ups racing with one email: the second finds the first's row.
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!created) {
    const raced = await findUserByEmail(deps.db, values.email);
    if (raced) await notifyExisting(deps, raced, now, returnTo);
    return;
  }
  await sendActivation(
    deps,
    { id: created.id, email: values.email, name: values.name, language: values.language },
    now,
    returnTo,
  );
}

type ExistingUser = { id: number; email: string; name: string; language: Lang; activated_at: Date | null };

async function notifyExisting(deps: AccountDeps, user: ExistingUser, now: Date, returnTo: string): Promise<void> {
  if (!user.activated_at) {
    await sendActivation(deps, user, now, returnTo);
    return;
  }
  await deps.mailer.sendAccountEmail('sign_up_attempt', {
    to: user.email,
    name: user.name,
    lang: user.language,
    link: siteLink(deps.siteUrl, user.language, RECOVERY_PATH),
  });
}

/** Issues an activation code and emails its link, which lands on `returnTo` (a safe path, or '') signed in. */
export async function sendActivation(
  deps: AccountDeps,
  user: { id: number; email: string; name: string; language: Lang },
  now = new Date(),
  returnTo = '',
): Promise<void> {
  const code = await issueCode(deps.db, user.id, 'activation', now);
  await deps.mailer.sendAccountEmail('activation', {
    to: user.email,
    name: user.name,
    lang: user.language,
    link: siteLink(deps.siteUrl, user.language, activationPath(code, returnTo)),
  });
}
