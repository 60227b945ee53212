// Helpers for the account tests: form posts through app.inject, cookies, and the dev outbox.

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../db/client.ts';

export type Injected = LightMyRequestResponse;

let ipCounter = 0;
/** A fresh client address, so that each test has its own rate-limit buckets. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  options: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
): Promise<Injected> {
  return app.inject({
    method: 'POST',
    url,
    // The client's own address (as the app trusts no proxy by default).
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
  });
}

export function postJson(
  app: FastifyInstance,
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body: unknown,
  options: { cookie?: string; csrf?: string; ip?: string; headers?: Record<string, string> } = {},
): Promise<Injected> {
  return app.inject({
    method,
    url,
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.csrf ? { 'x-csrf-token': options.csrf } : {}),
      ...options.headers,
    },
  });
}

/** The Set-Cookie headers of a response, as a list. */
export function setCookies(response: Injected): string[] {
  const value = response.headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** `token=…` for a Cookie header, from a response that signed in. */
export function sessionCookieOf(response: Injected): string {
  const cookie = setCookies(response).find((c) => c.startsWith('token='));
  if (!cookie) throw new Error(`no token cookie in ${response.statusCode} response`);
  return cookie.split(';')[0];
}

/** Emails in the development outbox for an address, oldest first. */
export async function outbox(db: Db, to: string) {
  return db.kysely
    .selectFrom('email_outbox')
    .select(['id', 'kind', 'subject', 'text_body', 'html_body', 'sent_at'])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();
}

/** The path and query of the first link to this site in an email's text (e.g. `/account/activation/…/`). */
export function linkPath(text: string, pattern: RegExp): string {
  const url = text.split(/\s+/).find((word) => /^https?:\/\//.test(word) && pattern.test(word));
  if (!url) throw new Error(`no link matching ${pattern} in:\n${text}`);
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/** The visible text of an HTML page, tags stripped and entities of apostrophes and quotes decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

let emailCounter = 0;
/** A unique address for one test. */
export function uniqueEmail(label: string): string {
  emailCounter += 1;
  return `${label}.${Date.now().toString(36)}${emailCounter}@example.com`;
}

export const GOOD_PASSWORD = 'correct horse battery staple 42';

/**
 * The newest email of a kind for an address, waiting for it: some emails are written after the
 * request has been answered (password recovery), so the test polls the outbox for a few seconds.
 */
export async function waitForEmail(db: Db, to: string, kind: string, count = 1) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = (await outbox(db, to)).filter((m) => m.kind === kind);
    if (mails.length >= count) return mails[mails.length - 1];
    if (Date.now() > deadline) throw new Error(`no ${kind} email (${count}) for ${to} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
