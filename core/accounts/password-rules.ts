import { dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing a request body stays cheap. */
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem = 'required' | 'tooShort' | 'tooLong' | 'common';

let common: Set<string> | undefined;

/**
 * The common-password list: the 49,000 most used passwords from @zxcvbn-ts/language-common
 * (a maintained package), compared lower-cased. Loaded once, on first use.
 */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/** Why a new password is refused, or null when it is acceptable. Length counts characters, not bytes. */
export function passwordProblem(password: string): PasswordProblem | null {
  if (password.length === 0) return 'required';
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'tooLong';
  if (commonPasswords().has(password.toLowerCase())) return 'common';
  return null;
}
