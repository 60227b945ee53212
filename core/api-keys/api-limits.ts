import type { Db } from '../../db/client.ts';
import { countAttempt, type RateLimitRule, rateVerdict, rateWindow } from '../accounts/rate-limits.ts';
import { hasRunningSubscription } from '../billing/subscriptions.ts';
import { API_LIMIT_WINDOW_SECONDS, API_PLAN_LIMITS, type ApiPlan } from '../limits.ts';

// The published limits of /api (docs/decisions/0020-api-keys-matching-reconciliation.md): requests
// per sliding hour per plan, counted with the same database buckets as the sign-in limits
// (core/accounts/rate-limits.ts), and told on every response in the RateLimit-Limit, -Remaining and
// -Reset headers (IETF draft "RateLimit header fields for HTTP").

export type ApiLimits = Record<ApiPlan, number>;

/** Who a request counts against: an address (anonymous) or a user (a key or a session), and the plan. */
export type ApiSubject = { plan: ApiPlan; subject: string };

/** The published limits times `factor` (API_LIMIT_FACTOR). */
export function scaledApiLimits(factor: number): ApiLimits {
  return {
    anonymous: API_PLAN_LIMITS.anonymous * factor,
    free: API_PLAN_LIMITS.free * factor,
    paid: API_PLAN_LIMITS.paid * factor,
  };
}

/** The plan of a signed-in user: `paid` while a subscription runs (core/billing/subscriptions.ts), else `free`. */
export async function planOfUser(db: Db, userId: number): Promise<ApiPlan> {
  return (await hasRunningSubscription(db, userId)) ? 'paid' : 'free';
}

export type ApiQuota = {
  limit: number;
  remaining: number;
  /** Seconds until the current fixed window ends (when the count starts to fall). */
  resetSeconds: number;
  /** Set when the request is over the limit: seconds to wait. */
  retryAfterSeconds: number | null;
};

/** Counts one request against its plan's limit and says what is left. */
export async function countApiRequest(
  db: Db,
  who: ApiSubject,
  limits: ApiLimits = API_PLAN_LIMITS,
  now = new Date(),
): Promise<ApiQuota> {
  const rule: RateLimitRule = {
    name: `api:${who.plan}`,
    limit: limits[who.plan],
    windowMs: API_LIMIT_WINDOW_SECONDS * 1000,
  };
  const counts = await countAttempt(db, rule, who.subject, now);
  const elapsed = (now.getTime() % rule.windowMs) / rule.windowMs;
  const used = counts.current + Math.ceil(counts.previous * (1 - elapsed));
  const verdict = rateVerdict(rule, counts, now);
  return {
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - used),
    resetSeconds: Math.max(1, Math.ceil((rateWindow(rule, now).endsAt.getTime() - now.getTime()) / 1000)),
    retryAfterSeconds: verdict.allowed ? null : verdict.retryAfterSeconds,
  };
}
