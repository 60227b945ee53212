/** The longest address SMTP carries (RFC 5321: 254 characters in a path). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * The one spelling of an email address that the product stores and compares: trimmed, Unicode
 * NFC and lower-cased, so that `Anna@Example.com ` and `anna@example.com` are one account.
 */
export function normaliseEmail(raw: string): string {
  return raw.normalize('NFC').trim().toLowerCase();
}

// One @, a non-empty local part, a dotted domain; no spaces, no angle brackets, no quotes.
const EMAIL = /^[^\s@<>"'(),;:\\]+@[^\s@<>"'(),;:\\]+\.[^\s@<>"'(),;:\\]{2,}$/u;

/** A normalised address that mail can be sent to (deliberately simple: the activation email proves it). */
export function isEmail(normalised: string): boolean {
  return normalised.length <= EMAIL_MAX_LENGTH && EMAIL.test(normalised) && !normalised.includes('..');
}
