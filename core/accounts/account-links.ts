import type { Lang } from '../reference/reference-data.ts';

/** An absolute link to a page of the site in a language (English has no prefix). */
export function siteLink(siteUrl: string, lang: Lang, path: string): string {
  return `${siteUrl.replace(/\/$/, '')}${lang === 'en' ? '' : `/${lang}`}${path}`;
}

/**
 * The activation link's path; `returnTo` (already a safe path, `safeReturnTo`) is where activating
 * lands, signed in (the pending action of the sign-in gate, docs/decisions/0007).
 */
export const activationPath = (code: string, returnTo = '') => withReturnTo(`/account/activation/${code}/`, returnTo);

/** An account page's path carrying where to go back to afterwards (nothing added for ''). */
export function withReturnTo(path: string, returnTo: string): string {
  return returnTo ? `${path}?returnTo=${encodeURIComponent(returnTo)}` : path;
}
/** The recovery link's path; `returnTo` (a safe path) is where the sign-in after the reset lands (ADR 0030). */
export const recoveryPath = (code: string, returnTo = '') =>
  withReturnTo(`/account/password/recovery/${code}/`, returnTo);
export const SIGN_IN_PATH = '/account/login/';
export const RECOVERY_PATH = '/account/password/recovery/';
export const emailChangePath = (code: string) => `/account/email/confirm/${code}/`;
export const SECURITY_SETTINGS_PATH = '/dashboard/settings/security/';
