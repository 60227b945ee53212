import type { Lang } from '../reference/reference-data.ts';

/** An absolute link to a page of the site in a language (English has no prefix). */
export function siteLink(siteUrl: string, lang: Lang, path: string): string {
  return `${siteUrl.replace(/\/$/, '')}${lang === 'en' ? '' : `/${lang}`}${path}`;
}

export const activationPath = (code: string) => `/account/activation/${code}/`;
export const recoveryPath = (code: string) => `/account/password/recovery/${code}/`;
export const SIGN_IN_PATH = '/account/login/';
export const RECOVERY_PATH = '/account/password/recovery/';
export const emailChangePath = (code: string) => `/account/email/confirm/${code}/`;
export const SECURITY_SETTINGS_PATH = '/dashboard/settings/security/';
