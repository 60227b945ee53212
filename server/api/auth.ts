import type { FastifyRequest } from 'fastify';
import type { SessionAuth } from '../../core/accounts/sessions.ts';
import { AppError } from '../../core/errors/app-error.ts';

// The two guards of every JSON route that needs a user (spec §5, §6): a guest gets 401 whatever
// the browser showed, and a {user_id} or record that is not the caller's gets 403.

/** The signed-in user of the request (the `token` cookie), or a 401. */
export async function requireUser(request: FastifyRequest): Promise<SessionAuth> {
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
