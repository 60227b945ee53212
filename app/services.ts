import { createContext, type RouterContext } from 'react-router';
import type { SessionAuth } from '../core/accounts/sessions.ts';
import type { AppServices, ClientRequest } from '../core/services.ts';

export type { AppServices, ClientRequest };

// One context object even when this module is loaded twice (by the server and inside the
// bundled build): each lives on globalThis under a registered symbol.
function sharedContext<T>(name: string, defaultValue?: T): RouterContext<T> {
  const key = Symbol.for(`registra.${name}`);
  const holder = globalThis as unknown as Record<symbol, RouterContext<T>>;
  holder[key] ??= createContext<T>(defaultValue);
  return holder[key];
}

export const servicesContext: RouterContext<AppServices> = sharedContext<AppServices>('services');

/** The signed-in user of this request (from the token cookie), or null for a guest. */
export const authContext: RouterContext<SessionAuth | null> = sharedContext<SessionAuth | null>('auth', null);

export const clientContext: RouterContext<ClientRequest> = sharedContext<ClientRequest>('client', {
  ip: '',
  userAgent: '',
  secure: false,
  siteOrigins: [],
});

/** This request's Content-Security-Policy nonce, for the inline scripts of pages that hydrate. */
export const cspNonceContext: RouterContext<string> = sharedContext<string>('cspNonce', '');

/** What loaders and actions read their context through (their `context.get`). */
export type ContextReader = { get: <T>(context: import('react-router').RouterContext<T>) => T };
