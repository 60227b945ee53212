import type { Db } from '../../db/client.ts';
import { countAttempt, type RateLimitRule, rateStanding } from '../accounts/rate-limits.ts';
import { hasRunningSubscription } from '../billing/subscriptions.ts';
import { API_LIMIT_WINDOW_SECONDS, API_PLAN_LIMITS, API_WEBHOOK_LIMIT, type ApiPlan } from '../limits.ts';

// The published limits of /api (docs/decisions/0020-api-keys-matching-reconciliation.md): requests
// per sliding hour per plan, counted with the same database buckets as the sign-in limits
// (core/accounts/rate-limits.ts), and told on every response in the RateLimit-Limit, -Remaining and
// -Reset headers (IETF draft "RateLimit header fields for HTTP").

/** A plan's bucket, or the provider webhooks' own (API_WEBHOOK_LIMIT). */
export type ApiBucket = ApiPlan | 'webhook';

export type ApiLimits = Record<ApiBucket, number>;

/** The published limits: the plans' and the webhooks'. */
export const API_LIMITS: ApiLimits = { ...API_PLAN_LIMITS, webhook: API_WEBHOOK_LIMIT };

/** Who a request counts against: an address (anonymous, webhooks) or a user (a key or a session), and the bucket. */
export type ApiSubject = { plan: ApiBucket; subject: string };

/** The published limits times `factor` (API_LIMIT_FACTOR). */
export function scaledApiLimits(factor: number): ApiLimits {
  return {
    anonymous: API_LIMITS.anonymous * factor,
    free: API_LIMITS.free * factor,
    paid: API_LIMITS.paid * factor,
    webhook: API_LIMITS.webhook * factor,
  };
}

/** The plan of a signed-in user: `paid` while a subscription runs (core/billing/subscriptions.ts), else `free`. */
export async function planOfUser(db: Db, userId: number): Promise<ApiPlan> {
  return (await hasRunningSubscription(db, userId)) ? 'paid' : 'free';
}

export type ApiQuota = {
  limit: number;
  remaining: number;
  /**
   * RateLimit-Reset: seconds until the fixed window ends (when the count starts to fall), or past
   * the limit until a request is allowed again — then the same number as Retry-After (rateStanding).
   */
  resetSeconds: number;
  /** Set when the request is over the limit: seconds to wait (Retry-After), always resetSeconds. */
  retryAfterSeconds: number | null;
};

/** Counts one request against its plan's limit and says what is left. */
export async function countApiRequest(
  db: Db,
  who: ApiSubject,
  limits: ApiLimits = API_LIMITS,
  now = new Date(),
): Promise<ApiQuota> {
  const rule: RateLimitRule = {
    name: `api:${who.plan}`,
    limit: limits[who.plan],
    windowMs: API_LIMIT_WINDOW_SECONDS * 1000,
  };
  const standing = rateStanding(rule, await countAttempt(db, rule, who.subject, now), now);
  return {
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - standing.used),
    resetSeconds: standing.resetSeconds,
    retryAfterSeconds: standing.allowed ? null : standing.resetSeconds,
  };
}
