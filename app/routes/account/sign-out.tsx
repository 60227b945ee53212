import { redirect } from 'react-router';
import { clearedSessionCookie } from '../../../core/accounts/session-cookie.ts';
import { revokeSession } from '../../../core/accounts/sessions.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { authContext, clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/sign-out';

/** Signing out is a POST (a link could be followed by anyone's page); a GET just goes home. */
export function loader({ params }: Route.LoaderArgs) {
  throw redirect(localePath(isLang(params.lang) ? params.lang : 'en', '/'));
}

/** Ends this browser's session and clears the cookie (the root middleware has checked the CSRF token). */
export async function action({ params, context }: Route.ActionArgs) {
  const auth = context.get(authContext);
  if (auth) await revokeSession(context.get(servicesContext).db, auth.sessionId);
  return redirect(localePath(isLang(params.lang) ? params.lang : 'en', '/'), {
    headers: { 'Set-Cookie': clearedSessionCookie(context.get(clientContext).secure), 'Cache-Control': 'no-store' },
  });
}

export default function SignOut() {
  return null;
}
