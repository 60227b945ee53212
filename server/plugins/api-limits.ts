import type { FastifyInstance } from 'fastify';
import { recordKeyUse } from '../../core/api-keys/api-keys.ts';
import { type ApiLimits, type ApiSubject, countApiRequest, planOfUser } from '../../core/api-keys/api-limits.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { API_PLAN_LIMITS } from '../../core/limits.ts';
import type { AppServices } from '../../core/services.ts';
import { isApiPath } from '../api/api-path.ts';

// The published limits of /api (ADR 0020), on every API response but health checks (which must
// answer without the database): RateLimit-Limit, -Remaining and -Reset, and past the limit a 429
// with Retry-After. A key's requests are also counted per day for its user's dashboard.

/** Liveness and readiness: never counted, never touching the database for a limit. */
function isHealthPath(url: string): boolean {
  return url === '/api/health' || url.startsWith('/api/health/') || url.startsWith('/api/health?');
}

export function registerApiLimits(
  app: FastifyInstance,
  services: AppServices,
  limits: ApiLimits = API_PLAN_LIMITS,
): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url) || isHealthPath(request.url)) return;
    // A refused key counts as an anonymous call (then answers 401): guessing keys is limited too.
    const key = request.apiKey;
    const auth = key ? key.auth : await request.auth();
    const who: ApiSubject = auth
      ? { plan: await planOfUser(services.db, auth.user.id), subject: `user:${auth.user.id}` }
      : { plan: 'anonymous', subject: `ip:${request.ip ?? ''}` };
    const [quota] = await Promise.all([
      countApiRequest(services.db, who, limits),
      key ? recordKeyUse(services.db, key.keyId) : undefined,
    ]);
    reply.header('ratelimit-limit', String(quota.limit));
    reply.header('ratelimit-remaining', String(quota.remaining));
    reply.header('ratelimit-reset', String(quota.resetSeconds));
    if (request.apiKeyRefused) throw new AppError('unauthorized', request.apiKeyRefused);
    if (quota.retryAfterSeconds !== null) {
      reply.header('retry-after', String(quota.retryAfterSeconds));
      throw new AppError(
        'rate_limited',
        `Over the ${who.plan} plan's limit of ${quota.limit} requests per hour: try again in ${quota.retryAfterSeconds} seconds.`,
        { plan: who.plan, limit: quota.limit, retry_after_seconds: quota.retryAfterSeconds },
      );
    }
  });
}
