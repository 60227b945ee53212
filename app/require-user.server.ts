import { data } from 'react-router';
import type { SessionAuth } from '../core/accounts/sessions.ts';
import { authContext } from './services.ts';

type ContextReader = { get: <T>(context: import('react-router').RouterContext<T>) => T };

/**
 * Spec §5 and §6: the gated actions (lists, tracking, settings, saved filters, export, payment …)
 * are for signed-in users. A loader or action calls this first: a guest gets a 401 page that
 * offers to sign in and come back (the root error boundary), whatever the browser showed.
 */
export function requireUser(context: ContextReader): SessionAuth {
  const auth = context.get(authContext);
  if (!auth) throw data({ message: 'sign_in_required' }, { status: 401 });
  return auth;
}
