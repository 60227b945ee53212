import { parseCookies, siteCookie } from '../http/cookies.ts';
import { UTM_COOKIE, VISITOR_COOKIE } from './visitors.ts';

// The cookie notice's choice (ADR 0021): the visitor-statistics (`uid`) and campaign (`utm`)
// cookies are the only ones that are not needed to run the site. They are opt-in (ePrivacy: consent
// first): none is set before the visitor accepts; refusing or ignoring the notice sets none, and
// refusing removes those already set; the choice itself is kept for a year.

export const CONSENT_COOKIE = 'cookie_consent';
const CONSENT_MAX_AGE = 31_536_000;

export type Consent = 'accepted' | 'refused';

export function consentOf(cookieHeader: string | null | undefined): Consent | null {
  const value = parseCookies(cookieHeader).get(CONSENT_COOKIE);
  return value === 'accepted' || value === 'refused' ? value : null;
}

/** The Set-Cookie values of a choice: the choice, and on refusal the statistics cookies removed. */
export function consentCookies(choice: Consent, secure: boolean): string[] {
  const cookies = [siteCookie(CONSENT_COOKIE, choice, CONSENT_MAX_AGE, secure)];
  if (choice === 'refused') {
    cookies.push(siteCookie(VISITOR_COOKIE, '', 0, secure), siteCookie(UTM_COOKIE, '', 0, secure));
  }
  return cookies;
}
