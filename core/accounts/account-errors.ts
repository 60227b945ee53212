import { AppError } from '../errors/app-error.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.ts';

// Field problems travel as codes (`details.fields`: { password: 'tooShort' }): pages translate
// them (core/i18n `account.fields.<field>.<code>`), the API answers with the English message.

export type FieldErrors = Record<string, string>;

const MESSAGES: Record<string, Record<string, string>> = {
  email: {
    required: 'Enter your email address.',
    invalid: 'Enter a valid email address, like name@example.com.',
    unchanged: 'This is already the address of your account.',
  },
  password: {
    required: 'Enter a password.',
    tooShort: `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`,
    tooLong: `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`,
    common: 'This password is one of the most common ones: choose one that is harder to guess.',
  },
  currentPassword: {
    required: 'Enter your current password.',
    wrong: 'Your current password is not right.',
  },
  name: {
    required: 'Enter your name.',
    tooLong: `Use at most ${NAME_MAX_LENGTH} characters for your name.`,
  },
  language: { invalid: 'Choose en, de or fr.' },
  tableStyle: { invalid: 'Choose style-1, style-2 or style-3.' },
  emails: { invalid: 'Unknown kind of email.' },
};

/** A 400 naming every bad field; its message is the first field's. */
export function invalidFields(fields: FieldErrors): AppError {
  const [field, code] = Object.entries(fields)[0] ?? ['', 'invalid'];
  const message = MESSAGES[field]?.[code] ?? `${field} is invalid.`;
  return new AppError('bad_request', message, {
    parameter: field,
    fields,
    issues: Object.entries(fields).map(([parameter, c]) => ({
      parameter,
      message: MESSAGES[parameter]?.[c] ?? `${parameter} is invalid.`,
    })),
  });
}

/** Wrong email or password (or no such account: the same answer). */
export function wrongCredentials(): AppError {
  return new AppError('unauthorized', 'The email or the password is wrong.', { reason: 'wrong_credentials' });
}

export function notActivated(): AppError {
  return new AppError(
    'forbidden',
    'This account is not activated yet: we have sent a new activation link to its email address.',
    { reason: 'not_activated' },
  );
}

export function codeRefused(state: 'unknown' | 'expired' | 'used'): AppError {
  return new AppError('not_found', 'This link has expired or has already been used. Please ask for a new one.', {
    reason: `code_${state}`,
  });
}

/** The field codes of an AppError from invalidFields, if it is one. */
export function fieldErrorsOf(error: unknown): FieldErrors | null {
  if (!(error instanceof AppError) || error.code !== 'bad_request') return null;
  const fields = (error.details as { fields?: FieldErrors } | undefined)?.fields;
  return fields ?? null;
}
