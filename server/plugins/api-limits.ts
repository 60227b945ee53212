import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordKeyUse } from '../../core/api-keys/api-keys.ts';
import {
  API_LIMITS,
  type ApiLimits,
  type ApiQuota,
  type ApiSubject,
  countApiRequest,
  planOfUser,
} from '../../core/api-keys/api-limits.ts';
import { AppError } from '../../core/errors/app-error.ts';
import type { AppServices } from '../../core/services.ts';
import { isApiPath, isReconciliationPath } from '../api/api-path.ts';

// The published limits of /api (ADR 0020), on every API response but health checks (which must
// answer without the database): RateLimit-Limit, -Remaining and -Reset, and past the limit a 429
// with Retry-After (one clock for both: core/accounts/rate-limits.ts rateStanding). A key's
// requests are also counted per day for its user's dashboard.
//
// Provider webhooks are authenticated by their signature, not by a session, key or plan: they
// count in a bucket of their own per sending address (API_WEBHOOK_LIMIT), so that a provider's
// burst of events is never refused by the anonymous limit. A webhook whose sender could not be
// verified (refused signature, no such provider here) also counts against the anonymous limit of
// its address, and past it is refused with 429: an unsigned flood gets no further than any other
// anonymous one.

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * On a provider webhook route, to call before answering that its sender was not verified:
     * counts the request against the anonymous limit of its address and, past it, throws the 429.
     * Null on every other route.
     */
    refuseUnverifiedWebhook: ((reply: FastifyReply) => Promise<void>) | null;
    /**
     * The limits' verdict still being counted while the handler reads (a GET route declared
     * `readOnly`, see answerBesideLimits); null once decided in the hook, as on every other route.
     */
    limitsVerdict: Promise<void> | null;
  }
  interface FastifyContextConfig {
    /** The route's handler only reads: it may start while the limits' count is in flight (answerBesideLimits). */
    readsBesideLimits?: boolean;
  }
}

/** Subjects whose last count this process saw is remembered, at most (then the memory starts again). */
const HEADROOM_SUBJECTS = 10_000;

/**
 * Runs a read-only route's work beside the limits' count the hook started (ADR 0044, 2026-12-04):
 * one round trip less for the caller, the same answer. The verdict is awaited first and wins: past
 * the limit (or with a refused key) the work's result or error is dropped and the 429 (401) is the
 * answer, with the same headers as when the count ran before the handler.
 */
export async function answerBesideLimits<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const verdict = request.limitsVerdict;
  if (verdict === null) return work();
  const [decided, result] = await Promise.allSettled([verdict, work()]);
  if (decided.status === 'rejected') throw decided.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** Liveness and readiness: never counted, never touching the database for a limit. */
function isHealthPath(url: string): boolean {
  return url === '/api/health' || url.startsWith('/api/health/') || url.startsWith('/api/health?');
}

/** The providers' webhooks (server/api/billing.ts, server/api/support.ts), verified by signature. */
export function isProviderWebhook(method: string, url: string): boolean {
  return method === 'POST' && /^\/api\/(?:payments\/webhooks\/[^/?#]+|support\/webhooks\/zammad)(?:\?|$)/.test(url);
}

function limitHeaders(reply: FastifyReply, quota: ApiQuota): void {
  reply.header('ratelimit-limit', String(quota.limit));
  reply.header('ratelimit-remaining', String(quota.remaining));
  reply.header('ratelimit-reset', String(quota.resetSeconds));
  if (quota.retryAfterSeconds !== null) reply.header('retry-after', String(quota.retryAfterSeconds));
}

/** The 429 past a limit, when its quota says to wait; else nothing. */
function limitedError(who: ApiSubject, quota: ApiQuota): AppError | null {
  const wait = quota.retryAfterSeconds;
  if (wait === null) return null;
  const what =
    who.plan === 'webhook'
      ? `the limit of ${quota.limit} webhook deliveries per hour from one address`
      : `the ${who.plan} plan's limit of ${quota.limit} requests per hour`;
  return new AppError('rate_limited', `Over ${what}: try again in ${wait} seconds.`, {
    plan: who.plan,
    limit: quota.limit,
    retry_after_seconds: wait,
  });
}

export function registerApiLimits(app: FastifyInstance, services: AppServices, limits: ApiLimits = API_LIMITS): void {
  /** Counts one request of `who` and sets the headers; throws the 429 past the limit. */
  async function count(who: ApiSubject, reply: FastifyReply): Promise<void> {
    const quota = await countApiRequest(services.db, who, limits);
    limitHeaders(reply, quota);
    const limited = limitedError(who, quota);
    if (limited) throw limited;
  }

  // The remaining count each subject's last request got here. A read-only route runs its work beside the
  // count only for a subject that had some left: a caller past its limit (or one this process has not
  // counted yet) is decided before any work, so a flood of refused calls does no reads. The count
  // itself is in the database as always; this only picks when to wait for it.
  const headroom = new Map<string, number>();
  const remember = (subject: string, remaining: number) => {
    if (headroom.size >= HEADROOM_SUBJECTS && !headroom.has(subject)) headroom.clear();
    headroom.set(subject, remaining);
  };

  app.decorateRequest('refuseUnverifiedWebhook', null);
  app.decorateRequest('limitsVerdict', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url) || isHealthPath(request.url)) return;
    // A browser's CORS preflight is not a call (ADR 0034).
    if (request.method === 'OPTIONS' && isReconciliationPath(request.url)) return;
    const address = `ip:${request.ip ?? ''}`;
    if (isProviderWebhook(request.method, request.url)) {
      request.refuseUnverifiedWebhook = (answer) => count({ plan: 'anonymous', subject: address }, answer);
      await count({ plan: 'webhook', subject: address }, reply);
      return;
    }
    // A refused key counts as an anonymous call (then answers 401): guessing keys is limited too.
    const key = request.apiKey;
    const auth = key ? key.auth : await request.auth();
    const subject = auth ? `user:${auth.user.id}` : address;
    const verdict = (async () => {
      const who: ApiSubject = auth
        ? { plan: await planOfUser(services.db, auth.user.id), subject }
        : { plan: 'anonymous', subject };
      const [quota] = await Promise.all([
        countApiRequest(services.db, who, limits),
        key ? recordKeyUse(services.db, key.keyId) : undefined,
      ]);
      remember(subject, quota.remaining);
      limitHeaders(reply, quota);
      if (request.apiKeyRefused) throw new AppError('unauthorized', request.apiKeyRefused);
      const limited = limitedError(who, quota);
      if (limited) throw limited;
    })();
    const beside =
      request.method === 'GET' &&
      request.routeOptions.config.readsBesideLimits === true &&
      !request.apiKeyRefused &&
      (headroom.get(subject) ?? 0) > 0;
    if (!beside) return verdict;
    // Awaited by the route (answerBesideLimits), which answers with its error; handled here so that
    // it is never reported as unhandled meanwhile.
    verdict.catch(() => {});
    request.limitsVerdict = verdict;
  });
}
