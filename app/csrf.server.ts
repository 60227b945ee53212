import { data, type MiddlewareFunction } from 'react-router';
import { CSRF_FIELD, CSRF_HEADER, csrfVerdict, isUnsafeMethod } from '../core/accounts/csrf.ts';
import { authContext, clientContext } from './services.ts';

/**
 * The CSRF check of every page form (the API has its own, in server/plugins/session.ts): an
 * unsafe request must come from this site, and one signed in by the session cookie must carry the
 * session's token in the `_csrf` field (or the x-csrf-token header). A refusal is a 403 page.
 */
export const verifyCsrf: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (isUnsafeMethod(request.method)) {
    const auth = context.get(authContext);
    const client = context.get(clientContext);
    let submitted = request.headers.get(CSRF_HEADER);
    const type = request.headers.get('content-type') ?? '';
    if (!submitted && auth && (type.includes('form-urlencoded') || type.includes('multipart/form-data'))) {
      const value = (await request.clone().formData()).get(CSRF_FIELD);
      submitted = typeof value === 'string' ? value : null;
    }
    const verdict = csrfVerdict({
      method: request.method,
      secFetchSite: request.headers.get('sec-fetch-site') ?? undefined,
      origin: request.headers.get('origin') ?? undefined,
      siteOrigins: client.siteOrigins,
      sessionCsrfToken: auth?.csrfToken ?? null,
      submitted,
    });
    if (!verdict.ok) throw data({ message: 'csrf', reason: verdict.reason }, { status: 403 });
  }
  return next();
};
