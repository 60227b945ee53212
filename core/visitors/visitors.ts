import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { RateLimitRule } from '../accounts/rate-limits.ts';
import { parseCookies, siteCookie } from '../http/cookies.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';

// Visitors and partner stats (spec §4 "a visitor gets a persistent user id cookie on first visit",
// §7 "Partner stats", §9 cookie lifetimes and the default partner 1000): a visitor is known by the
// `uid` cookie; the UTM parameters of the landing URL are kept for 14 days in the `utm` cookie;
// each new visitor is recorded once (one row per uid, a second record of the same uid is a no-op).
// Values from a landing URL are taken leniently (cut to length, a bad one left out): a visit is
// never refused. Values posted to the API are checked strictly (a 400 names the field).

export const VISITOR_COOKIE = 'uid';
export const UTM_COOKIE = 'utm';
/** Spec §9: one year. */
export const VISITOR_COOKIE_MAX_AGE = 31_536_000;
/** Spec §9: 14 days. */
export const UTM_COOKIE_MAX_AGE = 1_209_600;
/** Spec §9: the partner of a visitor who came through no partner. */
export const DEFAULT_PARTNER_ID = 1000;

export const UTM_FIELDS = ['utm_term', 'utm_source', 'utm_medium', 'utm_content', 'utm_campaign'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type Utm = Partial<Record<UtmField, string>>;

export const UID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const UTM_MAX_LENGTH = 200;
export const USER_AGENT_MAX_LENGTH = 512;
export const SITE_ID_MAX_LENGTH = 255;
export const TOOL_TYPE_MAX_LENGTH = 50;
const TOOL_TYPE_PATTERN = /^[a-z0-9_-]{1,50}$/;
const ID_MAX = 2_147_483_647;

/** POST /api/visitors per client address: enough for any real browser, not for filling the stats. */
export const VISITOR_RATE_LIMIT: RateLimitRule = { name: 'visitors:ip', limit: 120, windowMs: 60 * 60 * 1000 };

export type Visitor = {
  uid: string;
  user_agent: string;
  /** The site's host name (with port when not the default). */
  site_id: string;
  /** The partner who brought the visitor (1000: none). */
  user_id: number;
  product_id: number | null;
  tool_id: number | null;
  tool_type: string | null;
} & Record<UtmField, string | null>;

export type VisitorInput = {
  uid: string;
  user_agent?: string;
  site_id: string;
  user_id?: number | null;
  product_id?: number | null;
  tool_id?: number | null;
  tool_type?: string | null;
} & Partial<Record<UtmField, string | null>>;

/** A fresh visitor id. */
export function newVisitorId(): string {
  return randomUUID();
}

/** The visitor id of a Cookie header, when it is a well-formed one. */
export function visitorIdOf(cookieHeader: string | undefined): string | null {
  const uid = parseCookies(cookieHeader).get(VISITOR_COOKIE);
  return uid && UID_PATTERN.test(uid) ? uid : null;
}

/** The UTM parameters kept in the `utm` cookie (unknown or bad values dropped). */
export function utmOfCookie(cookieHeader: string | undefined): Utm {
  const raw = parseCookies(cookieHeader).get(UTM_COOKIE);
  if (!raw) return {};
  return utmOf(new URLSearchParams(raw));
}

/** The UTM parameters of a query string: trimmed, control characters dropped, cut to 200 characters. */
export function utmOf(params: URLSearchParams): Utm {
  const utm: Utm = {};
  for (const field of UTM_FIELDS) {
    const value = lenientText(params.get(field), UTM_MAX_LENGTH);
    if (value) utm[field] = value;
  }
  return utm;
}

export function visitorCookie(uid: string, secure: boolean): string {
  return siteCookie(VISITOR_COOKIE, uid, VISITOR_COOKIE_MAX_AGE, secure);
}

/** The `utm` cookie: the parameters as a query string (URL-encoded once more in the cookie). */
export function utmCookie(utm: Utm, secure: boolean): string {
  return siteCookie(
    UTM_COOKIE,
    new URLSearchParams(utm as Record<string, string>).toString(),
    UTM_COOKIE_MAX_AGE,
    secure,
  );
}

function lenientText(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' ? null : Array.from(clean).slice(0, max).join('');
}

function lenientId(value: string | null): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= ID_MAX ? id : null;
}

/**
 * The visitor record of a first page visit: the partner from `partner` (or `ref`) when it is a
 * number (else 1000), the UTM parameters of the landing URL (else those of the `utm` cookie),
 * `product_id`, `tool_id` and `tool_type` from the query when well-formed.
 */
export function visitorOfLanding(input: {
  uid: string;
  params: URLSearchParams;
  userAgent: string;
  host: string;
  cookieUtm: Utm;
}): Visitor {
  const { params } = input;
  const landing = utmOf(params);
  const utm = Object.keys(landing).length > 0 ? landing : input.cookieUtm;
  const toolType = lenientText(params.get('tool_type'), TOOL_TYPE_MAX_LENGTH)?.toLowerCase() ?? null;
  return {
    uid: input.uid,
    user_agent: lenientText(input.userAgent, USER_AGENT_MAX_LENGTH) ?? '',
    site_id: siteIdOf(input.host),
    user_id: lenientId(params.get('partner')) ?? lenientId(params.get('ref')) ?? DEFAULT_PARTNER_ID,
    utm_term: utm.utm_term ?? null,
    utm_source: utm.utm_source ?? null,
    utm_medium: utm.utm_medium ?? null,
    utm_content: utm.utm_content ?? null,
    utm_campaign: utm.utm_campaign ?? null,
    product_id: lenientId(params.get('product_id')),
    tool_id: lenientId(params.get('tool_id')),
    tool_type: toolType && TOOL_TYPE_PATTERN.test(toolType) ? toolType : null,
  };
}

/** A host as a site id: lower-case, only host characters, at most 255 of them. */
export function siteIdOf(host: string): string {
  return host
    .toLowerCase()
    .replace(/[^a-z0-9.:[\]-]/g, '')
    .slice(0, SITE_ID_MAX_LENGTH);
}

/** A visitor posted to the API, checked strictly: a bad or too long value is a 400 naming its field. */
export function checkVisitor(input: VisitorInput): Visitor {
  if (!UID_PATTERN.test(input.uid)) {
    throw fieldProblem('uid', 'invalid', 'uid must be 8 to 64 letters, digits, - or _.');
  }
  const text = (field: string, value: string | null | undefined, max: number): string | null => {
    if (value === null || value === undefined) return null;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
    if (/[\u0000-\u001f\u007f]/.test(value))
      throw fieldProblem(field, 'invalid', `${field} must not hold control characters.`);
    const clean = value.trim();
    if (Array.from(clean).length > max)
      throw fieldProblem(field, 'tooLong', `${field} may take at most ${max} characters.`);
    return clean === '' ? null : clean;
  };
  const siteId = text('site_id', input.site_id, SITE_ID_MAX_LENGTH);
  if (!siteId || siteIdOf(siteId) !== siteId) {
    throw fieldProblem('site_id', 'invalid', 'site_id must be the site’s host name, like registra.example.');
  }
  const toolType = text('tool_type', input.tool_type, TOOL_TYPE_MAX_LENGTH);
  if (toolType !== null && !TOOL_TYPE_PATTERN.test(toolType)) {
    throw fieldProblem('tool_type', 'invalid', 'tool_type must be lower-case letters, digits, - or _.');
  }
  return {
    uid: input.uid,
    user_agent: text('user_agent', input.user_agent, USER_AGENT_MAX_LENGTH) ?? '',
    site_id: siteId,
    user_id: input.user_id ?? DEFAULT_PARTNER_ID,
    utm_term: text('utm_term', input.utm_term, UTM_MAX_LENGTH),
    utm_source: text('utm_source', input.utm_source, UTM_MAX_LENGTH),
    utm_medium: text('utm_medium', input.utm_medium, UTM_MAX_LENGTH),
    utm_content: text('utm_content', input.utm_content, UTM_MAX_LENGTH),
    utm_campaign: text('utm_campaign', input.utm_campaign, UTM_MAX_LENGTH),
    product_id: input.product_id ?? null,
    tool_id: input.tool_id ?? null,
    tool_type: toolType,
  };
}

/** Records a visitor once: returns false when that uid is already recorded (nothing changes). */
export async function recordVisitor(db: Db, visitor: Visitor): Promise<boolean> {
  const row = await db.kysely
    .insertInto('visitors')
    .values(visitor)
    .onConflict((oc) => oc.column('uid').doNothing())
    .returning('uid')
    .executeTakeFirst();
  return row !== undefined;
}
