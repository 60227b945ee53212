import type { FastifyInstance, FastifyReply } from 'fastify';
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
  }
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

  app.decorateRequest('refuseUnverifiedWebhook', null);
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
    const who: ApiSubject = auth
      ? { plan: await planOfUser(services.db, auth.user.id), subject: `user:${auth.user.id}` }
      : { plan: 'anonymous', subject: address };
    const [quota] = await Promise.all([
      countApiRequest(services.db, who, limits),
      key ? recordKeyUse(services.db, key.keyId) : undefined,
    ]);
    limitHeaders(reply, quota);
    if (request.apiKeyRefused) throw new AppError('unauthorized', request.apiKeyRefused);
    const limited = limitedError(who, quota);
    if (limited) throw limited;
  });
}
