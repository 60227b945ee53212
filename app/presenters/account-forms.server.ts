import { data } from 'react-router';
import type { FieldErrors } from '../../core/accounts/account-errors.ts';
import { AppError } from '../../core/errors/app-error.ts';

/** What an account form's action answers when it fails: field problems, or one message for the form. */
export type AccountFormResult = {
  fields?: FieldErrors;
  /** An i18n key under account.errors, with a count for the plural ones. */
  alert?: { key: string; count?: number };
  /** What the user typed (never a password), to fill the form again. */
  values?: Record<string, string>;
};

/**
 * Turns a failure of an account flow into the form's answer with the right status (400 bad
 * fields, 401 wrong credentials, 403 not activated, 429 too many attempts); anything else is
 * not the user's doing and goes on to the error boundary.
 */
export function accountFormFailure(error: unknown, values: Record<string, string>) {
  if (!(error instanceof AppError)) throw error;
  const details = (error.details ?? {}) as { fields?: FieldErrors; reason?: string; minutes?: number };
  const answer = (status: number, result: AccountFormResult) => data({ ...result, values }, { status });
  switch (error.code) {
    case 'bad_request':
      return answer(400, details.fields ? { fields: details.fields } : { alert: { key: 'codeInvalid' } });
    case 'unauthorized':
      return answer(401, { alert: { key: 'wrongCredentials' } });
    case 'forbidden':
      return answer(403, { alert: { key: 'notActivated' } });
    case 'rate_limited':
      return answer(429, { alert: { key: 'rateLimited', count: details.minutes ?? 1 } });
    case 'not_found':
      return answer(400, { alert: { key: 'codeInvalid' } });
    default:
      throw error;
  }
}

/** A text field of a submitted form ('' when absent or a file). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Account pages are personal answers: never kept by a cache, and their URLs (codes) never sent to other sites as Referer. */
export function accountPageHeaders() {
  // same-origin, not no-referrer: with no-referrer, browsers send `Origin: null` on the form's own posts.
  return { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' };
}
