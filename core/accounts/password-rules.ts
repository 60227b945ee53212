import { dictionary } from '@zxcvbn-ts/language-common';

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.ts';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

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
