import { escapeHtml } from '../html/escape-html.ts';
import type { Lang } from '../reference/reference-data.ts';

// The emails of the account flows, in the user's language. The texts live with every other UI
// string (core/i18n, group `account.email`); the server hands in a translate function.

export type AccountEmailKind =
  | 'activation'
  | 'password_recovery'
  | 'sign_up_attempt'
  | 'password_changed'
  | 'email_change'
  | 'email_changed'
  | 'new_sign_in'
  // Not an account flow, but the same short email: an export job is done (ADR 0031).
  | 'export_ready';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export type ComposedEmail = { subject: string; text: string; html: string };

const KEYS: Record<AccountEmailKind, string> = {
  activation: 'activation',
  password_recovery: 'passwordRecovery',
  sign_up_attempt: 'signUpAttempt',
  password_changed: 'passwordChanged',
  email_change: 'emailChange',
  email_changed: 'emailChanged',
  new_sign_in: 'newSignIn',
  export_ready: 'exportReady',
};

/** Which of an email's optional lines it has (besides greeting, intro, link and signature). */
const EXTRA_LINES: Record<AccountEmailKind, string[]> = {
  activation: ['expiry', 'ignore'],
  password_recovery: ['expiry', 'ignore'],
  sign_up_attempt: ['ignore'],
  password_changed: ['warning'],
  email_change: ['expiry', 'ignore'],
  email_changed: ['warning'],
  new_sign_in: ['warning'],
  export_ready: [],
};

export function composeAccountEmail(
  kind: AccountEmailKind,
  t: Translate,
  values: { name: string; link: string; lang: Lang },
): ComposedEmail {
  const key = (k: string) => `account.email.${KEYS[kind]}.${k}`;
  const subject = t(key('subject'));
  const greeting = t('account.email.greeting', { name: values.name });
  const intro = t(key('intro'));
  const action = t(key('action'));
  const extras = EXTRA_LINES[kind].map((line) =>
    line === 'ignore' ? t('account.email.ignore') : t(key(line), { name: values.name }),
  );
  const signature = t('account.email.signature');
  const text = [greeting, '', intro, '', values.link, '', ...extras.flatMap((l) => [l, '']), signature, ''].join('\n');
  const p = (s: string, style = '') => `<p${style ? ` style="${style}"` : ''}>${escapeHtml(s)}</p>`;
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${values.lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b2430;line-height:1.5">',
    p(greeting),
    p(intro),
    `<p><a href="${escapeHtml(values.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>`,
    p(values.link, 'font-size:13px;color:#5b6675;word-break:break-all'),
    ...extras.map((l) => p(l)),
    p(signature),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
