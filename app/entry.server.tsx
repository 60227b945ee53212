import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from 'react-router';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/database-unavailable.ts';
import { DatabaseOutage } from './database-outage.ts';
import type { RouteHandle } from './root.tsx';
import { hasServerOnlyData } from './server-rendered.ts';
import { cspNonceContext } from './services.ts';

/** A render that takes longer than this is aborted (the error boundary shows instead). */
const STREAM_TIMEOUT_MS = 5_000;

/** Requests whose loader or action failed because the database is away. */
const outages = new WeakSet<Request>();

/**
 * Errors of loaders and actions: one that means the database is away marks its request (the page
 * becomes a 503, below) and is logged in a line; others are logged in full, as React Router does.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (isDatabaseUnavailable(error)) {
    outages.add(request);
    console.warn(`database unavailable: ${(error as Error).message}`);
  } else if (!request.signal.aborted) {
    // A thrown 4xx (data(…, { status })) is an answer, not a failure; React Router's own default logs it too.
    const cause = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
    console.error(cause ?? error);
  }
};

/**
 * Reading pages are small and ship no JavaScript: one synchronous render is cheaper than React's
 * streaming pipeline. A page that hydrates (a route with `handle.hydrate`) needs the streamed
 * render, which also carries the loader data to the browser.
 */
export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Response | Promise<Response> {
  headers.set('Content-Type', 'text/html; charset=utf-8');
  const outage = outages.has(request);
  // The error boundary says the database is away; browsers and crawlers are asked to come back.
  const answered = outage ? 503 : status;
  if (outage) {
    headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
    headers.set('Cache-Control', 'no-store');
  }
  // A page that hydrates carries React Router's and React's inline scripts, with the request's
  // nonce (docs/decisions/0012-security-headers.md); a reading page has none, so that it can be cached.
  const router = (nonce?: string) => (
    <DatabaseOutage.Provider value={outage}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </DatabaseOutage.Provider>
  );
  const hydrates = routerContext.staticHandlerContext.matches.some(
    (m) => (routerContext.routeModules[m.route.id]?.handle as RouteHandle | undefined)?.hydrate === true,
  );
  if (hydrates) {
    // Data kept from the browser (app/server-rendered.ts) would be missing when the page hydrates.
    const { loaderData } = routerContext.staticHandlerContext;
    const route = Object.keys(loaderData).find((id) => hasServerOnlyData(loaderData[id]));
    if (route)
      throw new Error(`route ${route} hydrates but its loader data is serverRendered (not sent to the browser)`);
  }
  if (!hydrates) {
    const html = renderToString(router());
    // Bytes, not a string: a string body is checked character by character for lone surrogates
    // (WebIDL USVString) before it is encoded, ~0.2 ms for a search page.
    return new Response(Buffer.from(`<!DOCTYPE html>${html}`), { status: answered, headers });
  }
  const nonce = loadContext.get(cspNonceContext) || undefined;
  return new Promise((resolve, reject) => {
    let statusCode = answered;
    const { pipe, abort } = renderToPipeableStream(router(nonce), {
      nonce,
      onAllReady() {
        const body = new PassThrough();
        resolve(new Response(createReadableStreamFromReadable(body), { status: statusCode, headers }));
        pipe(body);
      },
      onShellError: reject,
      onError(error) {
        statusCode = 500;
        console.error(error);
      },
    });
    setTimeout(abort, STREAM_TIMEOUT_MS + 1000);
  });
}

export const streamTimeout = STREAM_TIMEOUT_MS;
