import type { FastifyRequest } from 'fastify';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import type { ApiKeyScope } from '../../core/api-keys/api-keys.ts';
import { AppError } from '../../core/errors/app-error.ts';

// The two guards of every JSON route that needs a user (spec §5, §6): a guest gets 401 whatever
// the browser showed, and a {user_id} or record that is not the caller's gets 403.

/**
 * The signed-in user of the request (the `token` cookie or an API key), or a 401; a key also
 * needs `scope` (a user's own records are `manage`'s).
 */
export async function requireUser(request: FastifyRequest, scope: ApiKeyScope = 'manage'): Promise<SessionAuth> {
  requireScope(request, scope);
  const auth = await request.auth();
  if (!auth) {
    throw new AppError('unauthorized', 'Sign in first: this call needs a signed-in user (POST /api/authentication).');
  }
  return auth;
}

/** A 403 unless the {user_id} (or a record's owner) is the caller. */
export function requireOwner(auth: SessionAuth, userId: number): void {
  if (auth.user.id !== userId) throw new AppError('forbidden', 'This belongs to another user.');
}

/**
 * A 403 when the request's API key lacks the route's scope (ADR 0020): `read` for the data,
 * `manage` for the user's own records. Cookie and anonymous requests are not scoped.
 */
export function requireScope(request: FastifyRequest, scope: ApiKeyScope): void {
  const key = request.apiKey;
  if (key && !key.scopes.includes(scope)) {
    throw new AppError('forbidden', `This API key lacks the ${scope} scope this call needs.`, { scope });
  }
}

/** The caller's user id (the cookie or an API key), or undefined for a guest: whose purchases unlock contact details (ADR 0029). */
export async function viewerOf(request: FastifyRequest): Promise<number | undefined> {
  return (await request.auth())?.user.id;
}
