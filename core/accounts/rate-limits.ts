import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import { digest } from './secret-tokens.ts';

// Fixed-window counters kept in the database (table rate_limit_buckets), so that every app
// process behind a load balancer counts against the same limit: one upsert per attempt. A window
// is a fixed slice of time (window number = floor(now / length)); its bucket expires with it.

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
} as const satisfies Record<string, RateLimitRule>;

export type RateWindow = { number: number; endsAt: Date };

/** The fixed window that `now` falls in. */
export function rateWindow(rule: RateLimitRule, now: Date): RateWindow {
  const number = Math.floor(now.getTime() / rule.windowMs);
  return { number, endsAt: new Date((number + 1) * rule.windowMs) };
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; minutes: number };

/** Whether the attempt that made the count `hits` in its window may go ahead, else how long to wait. */
export function rateVerdict(rule: RateLimitRule, hits: number, now: Date): RateVerdict {
  if (hits <= rule.limit) return { allowed: true };
  const wait = Math.max(1, Math.ceil((rateWindow(rule, now).endsAt.getTime() - now.getTime()) / 1000));
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

/** Counts one attempt against a rule for a subject (an IP address or an email) and returns the count. */
export async function countAttempt(db: Db, rule: RateLimitRule, subject: string, now = new Date()): Promise<number> {
  const window = rateWindow(rule, now);
  // The subject is hashed: the table keeps neither addresses nor emails.
  const key = `${rule.name}:${digest(subject).slice(0, 32)}:${window.number}`;
  const row = await db.kysely
    .insertInto('rate_limit_buckets')
    .values({ key, hits: 1, expires_at: window.endsAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ hits: sql<number>`rate_limit_buckets.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  // Now and then, drop the buckets of windows that have ended.
  if (Math.random() < 0.02) await db.kysely.deleteFrom('rate_limit_buckets').where('expires_at', '<', now).execute();
  return row.hits;
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
