// Pages as a signed-in user (or a guest) sees them through app.inject: a GET with the session
// cookie, and a form POST with the session's CSRF token first, repeated fields for arrays.

import type { FastifyInstance } from 'fastify';
import type { TestUser } from './users.ts';

export type PageUser = Pick<TestUser, 'cookie' | 'csrf'>;

export function pageClient(app: () => FastifyInstance) {
  const get = (url: string, user?: PageUser) =>
    app().inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });
  const post = (url: string, fields: Record<string, string | string[]>, user?: PageUser) => {
    const form = new URLSearchParams();
    if (user) form.append('_csrf', user.csrf);
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    }
    return app().inject({
      method: 'POST',
      url,
      payload: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(user ? { cookie: user.cookie } : {}) },
    });
  };
  return { get, post };
}
