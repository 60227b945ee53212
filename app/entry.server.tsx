import { renderToString } from 'react-dom/server';
import { type EntryContext, ServerRouter } from 'react-router';

/**
 * Pages are small and need no streaming (no deferred data): one synchronous render is cheaper
 * than React's streaming pipeline for every request.
 */
export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
): Response {
  const html = renderToString(<ServerRouter context={routerContext} url={request.url} />);
  headers.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(`<!DOCTYPE html>${html}`, { status, headers });
}
