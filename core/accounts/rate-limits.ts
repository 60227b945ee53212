import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { preparedStatement } from '../companies/prepared-query.ts';
import { AppError } from '../errors/app-error.ts';
import { digest } from './secret-tokens.ts';

// Counters kept in the database (table rate_limit_buckets), so that every app process behind a
// load balancer counts against the same limit: one statement per attempt. Attempts are counted
// in fixed slices of time (window number = floor(now / length)), and a limit applies to a sliding
// window estimated from two of them (rateVerdict): a fixed window alone forgets every attempt at
// its end, so ten guesses just before it and ten just after would all pass.

export type RateLimitRule = { name: string; limit: number; windowMs: number };

const MINUTE = 60 * 1000;

/** Attempts allowed per IP address and per account (email), whether or not the account exists. */
export const RATE_LIMITS = {
  signInIp: { name: 'sign-in:ip', limit: 20, windowMs: 15 * MINUTE },
  signInAccount: { name: 'sign-in:account', limit: 10, windowMs: 15 * MINUTE },
  signUpIp: { name: 'sign-up:ip', limit: 10, windowMs: 60 * MINUTE },
  signUpAccount: { name: 'sign-up:account', limit: 3, windowMs: 60 * MINUTE },
  recoveryIp: { name: 'recovery:ip', limit: 10, windowMs: 60 * MINUTE },
  recoveryAccount: { name: 'recovery:account', limit: 3, windowMs: 60 * MINUTE },
  // The contact form (ADR 0021): guests too, so per address and per sender.
  contactIp: { name: 'contact:ip', limit: 10, windowMs: 60 * MINUTE },
  contactSender: { name: 'contact:sender', limit: 5, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;

export type RateWindow = { number: number; endsAt: Date };

/** The fixed window that `now` falls in. */
export function rateWindow(rule: RateLimitRule, now: Date): RateWindow {
  const number = Math.floor(now.getTime() / rule.windowMs);
  return { number, endsAt: new Date((number + 1) * rule.windowMs) };
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; minutes: number };

/** Attempts counted in the window `now` falls in and in the one before it. */
export type RateCounts = { current: number; previous: number };

/**
 * Where a subject stands after the attempt just counted: the attempts within one window length of
 * `now` (this window's, and the previous window's in the share of it still that recent, rounded up
 * so that an attempt is never forgotten early), whether that is within the limit, and the one clock
 * of both RateLimit-Reset and Retry-After: within the limit, the seconds until this fixed window
 * ends (when the count starts to fall); past it, the seconds until the attempts would be within it
 * again, with no further attempts.
 */
export type RateStanding = { used: number; allowed: boolean; resetSeconds: number };

export function rateStanding(rule: RateLimitRule, counts: RateCounts, now: Date): RateStanding {
  const { current, previous } = counts;
  const elapsed = (now.getTime() % rule.windowMs) / rule.windowMs;
  const used = current + Math.ceil(previous * (1 - elapsed));
  if (used <= rule.limit) {
    const untilEnd = Math.ceil((rateWindow(rule, now).endsAt.getTime() - now.getTime()) / 1000);
    return { used, allowed: true, resetSeconds: Math.max(1, untilEnd) };
  }
  // Over the limit by this window alone: its attempts fade during the next window; else the
  // previous window's fade during this one.
  const until = current > rule.limit ? 2 - rule.limit / current : 1 - (rule.limit - current) / previous;
  return { used, allowed: false, resetSeconds: Math.max(1, Math.ceil(((until - elapsed) * rule.windowMs) / 1000)) };
}

/** Whether the attempt just counted may go ahead (rateStanding); else how long to wait. */
export function rateVerdict(rule: RateLimitRule, counts: RateCounts, now: Date): RateVerdict {
  const standing = rateStanding(rule, counts, now);
  if (standing.allowed) return { allowed: true };
  const wait = standing.resetSeconds;
  return { allowed: false, retryAfterSeconds: wait, minutes: Math.max(1, Math.ceil(wait / 60)) };
}

/** The error every limited call answers with (HTTP 429); pages translate it from details.minutes. */
export function rateLimitedError(verdict: Extract<RateVerdict, { allowed: false }>): AppError {
  const unit = verdict.minutes === 1 ? 'minute' : 'minutes';
  return new AppError('rate_limited', `Too many attempts. Try again in ${verdict.minutes} ${unit}.`, {
    retry_after_seconds: verdict.retryAfterSeconds,
    minutes: verdict.minutes,
  });
}

/**
 * Bumps a window's bucket and reads the one before it, in one statement. It runs on every /api
 * request (ADR 0020), so its text is built once and prepared on each connection (ADR 0044).
 */
const bumpBucket = preparedStatement(
  'registra-rate-limit-bump',
  (_, key: string, expiresAt: Date, previousKey: string) => sql<{ current: number; previous: number | null }>`
    with bumped as (
      insert into rate_limit_buckets (key, hits, expires_at) values (${key}, 1, ${expiresAt})
      on conflict (key) do update set hits = rate_limit_buckets.hits + 1
      returning hits
    )
    select (select hits from bumped) as current,
      (select hits from rate_limit_buckets where key = ${previousKey}) as previous`,
);

/** Subjects whose digest is kept, at most (then the memory starts again). */
const KEPT_DIGESTS = 10_000;
const digests = new Map<string, string>();

/**
 * A subject as the table keeps it: its SHA-256, shortened. An API caller is counted on every call
 * (ADR 0044), so a recent subject's digest is kept rather than hashed again each time.
 */
function subjectDigest(subject: string): string {
  let hashed = digests.get(subject);
  if (hashed === undefined) {
    if (digests.size >= KEPT_DIGESTS) digests.clear();
    hashed = digest(subject).slice(0, 32);
    digests.set(subject, hashed);
  }
  return hashed;
}

/** Counts one attempt against a rule for a subject (an IP address or an email): the counts of its two windows. */
export async function countAttempt(
  db: Db,
  rule: RateLimitRule,
  subject: string,
  now = new Date(),
): Promise<RateCounts> {
  const window = rateWindow(rule, now);
  // The subject is hashed: the table keeps neither addresses nor emails.
  const prefix = `${rule.name}:${subjectDigest(subject)}:`;
  // A bucket is read for two windows: its own, then as the previous one.
  const expiresAt = new Date(window.endsAt.getTime() + rule.windowMs);
  const [{ current, previous }] = await bumpBucket(db, prefix + window.number, expiresAt, prefix + (window.number - 1));
  // Now and then, drop the buckets of windows that have ended.
  if (Math.random() < 0.02) await db.kysely.deleteFrom('rate_limit_buckets').where('expires_at', '<', now).execute();
  return { current: Number(current), previous: Number(previous ?? 0) };
}

/**
 * Counts the attempt against each (rule, subject) in order and throws the 429 at the first that
 * is over its limit. Empty subjects (no IP known) are skipped.
 */
export async function enforceRateLimits(db: Db, checks: [RateLimitRule, string][], now = new Date()): Promise<void> {
  for (const [rule, subject] of checks) {
    if (!subject) continue;
    const verdict = rateVerdict(rule, await countAttempt(db, rule, subject, now), now);
    if (!verdict.allowed) throw rateLimitedError(verdict);
  }
}
