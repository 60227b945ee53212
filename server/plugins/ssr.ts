import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequest } from '@remix-run/node-fetch-server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { answeringAppErrors } from '../../app/page-errors.server.ts';
import { type AppServices, authContext, clientContext, cspNonceContext, servicesContext } from '../../app/services.ts';
import { sitePath } from '../../core/accounts/return-to.ts';
import { i18nFor, isLang } from '../../core/i18n/i18n.ts';
import { ENRICHMENT_MAX_BYTES, PAGE_FORM_OVERHEAD_BYTES } from '../../core/limits.ts';
import { isApiPath } from '../api/api-path.ts';
import { PAGE_COMPRESSION } from './compression.ts';
import type { PageCache } from './page-cache.ts';
import { cspNonce } from './security-headers.ts';
import { clientRequest } from './session.ts';

const BUILD_DIR = fileURLToPath(new URL('../../build/', import.meta.url));

/**
 * The largest body a page form may send: the enrichment upload's file (ADR 0020 "Enrichment") and
 * the form around it. Checked on Content-Length before anything is read, and counted as the body
 * streams, so one sent without a length (chunked) is cut off there too, never buffered whole.
 */
const PAGE_BODY_MAX = ENRICHMENT_MAX_BYTES + PAGE_FORM_OVERHEAD_BYTES;

/** What of a refused body is still read (and dropped) after the 413, so that the client reads the answer. */
const LINGER_BYTES = 4 * 1024 * 1024;
const LINGER_MS = 5_000;

/** The 413 of a page form's body, in the page's language (the upload form is the one that can reach it). */
function bodyTooLarge(request: FastifyRequest, reply: FastifyReply, pathname: string): FastifyReply {
  const prefix = pathname.split('/')[1];
  const { t } = i18nFor(isLang(prefix) ? prefix : 'en');
  const size = Math.round(ENRICHMENT_MAX_BYTES / 1024 / 1024);
  // A connection closed while the client still sends is reset, and a reset loses the answer on
  // its way: the rest of the body is read and dropped for a while (a lingering close), then the
  // connection is closed whether or not the client has stopped.
  reply.raw.once('finish', () => {
    const close = () => request.raw.socket?.destroy?.();
    let dropped = 0;
    const timer = setTimeout(close, LINGER_MS).unref();
    request.raw.on('data', (chunk: Buffer) => {
      dropped += chunk.byteLength;
      if (dropped > LINGER_BYTES) close();
    });
    request.raw.once('end', () => clearTimeout(timer));
    request.raw.resume();
  });
  return reply
    .status(413)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(t('enrichment.errors.tooLarge', { size }));
}

/**
 * The request with its body counted as it streams: past `max` bytes the body errors (whoever reads
 * it stops) and `overflow` resolves, so the page can answer 413 without waiting for the rest.
 */
function boundedBody(request: Request, max: number): { request: Request; overflow: Promise<void> } {
  let seen = 0;
  // The request is aborted too: React Router stops its work on it and does not log the cut-off body as an error.
  const cutOff = new AbortController();
  let overflowed = () => {};
  const overflow = new Promise<void>((resolve) => {
    overflowed = () => {
      cutOff.abort();
      resolve();
    };
  });
  if (!request.body) return { request, overflow };
  const body = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) {
          overflowed();
          controller.error(new Error(`the body is larger than ${max} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const signal = AbortSignal.any([request.signal, cutOff.signal]);
  return { request: new Request(request, { body, signal, duplex: 'half' } as RequestInit), overflow };
}

/**
 * Serves every non-API page through React Router: the production build, or Vite in middleware
 * mode (hot reload) when `dev` is set.
 */
export async function registerSsr(
  app: FastifyInstance,
  services: AppServices,
  dev: boolean,
  pageCache?: PageCache,
): Promise<void> {
  let getBuild: () => Promise<ServerBuild>;
  if (dev) {
    const vite = await import('vite');
    const server = await vite.createServer({
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'custom',
    });
    await app.register(import('@fastify/middie'));
    app.use(server.middlewares);
    getBuild = () => server.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  } else {
    const serverEntry = `${BUILD_DIR}server/index.js`;
    if (!existsSync(serverEntry)) throw new Error('No build found: run `npm run build` first (npm start does).');
    const build = (await import(serverEntry)) as ServerBuild;
    getBuild = async () => build;
    // wildcard: false registers one route per built file, so the page catch-all below can coexist.
    await app.register(fastifyStatic, {
      root: `${BUILD_DIR}client`,
      wildcard: false,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const mode = dev ? 'development' : 'production';
  // One request handler per build (a new build only in development, after an edit). An AppError
  // that escapes a page is answered with its status and the translated error page
  // (app/page-errors.server.ts), as the API answers it.
  const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>();
  const handlerFor = (build: ServerBuild) => {
    let handler = handlers.get(build);
    if (!handler) {
      handler = createRequestHandler(answeringAppErrors(build), mode);
      handlers.set(build, handler);
    }
    return handler;
  };

  await app.register(async (scope) => {
    // Form posts reach React Router's actions untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      // A path that normalises to another host (`/.//evil.example/x` → `//evil.example/x`) is no
      // page: every redirect a page builds from its own URL would lead there.
      const here = sitePath(request.url);
      if (!here) return reply.callNotFound();
      const url = new URL(here, 'http://localhost');
      // Unknown API paths get the JSON 404, never a page.
      if (isApiPath(url.pathname)) return reply.callNotFound();
      // Canonical page URLs end with a slash.
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        !url.pathname.endsWith('/') &&
        !/\.[a-z0-9]+$/i.test(url.pathname) &&
        !url.pathname.startsWith('/@') &&
        !url.pathname.includes('/__')
      ) {
        // `here` is a path of this site, and so is it with a slash added.
        return reply.redirect(`${url.pathname}/${url.search}`, 301);
      }
      if (pageCache?.serve(request, reply)) return reply;
      const handler = handlerFor(await getBuild());
      const context = new RouterContextProvider();
      const auth = await request.auth();
      context.set(servicesContext, services);
      context.set(authContext, auth);
      context.set(clientContext, clientRequest(request, services.siteUrl));
      const nonce = cspNonce(request);
      context.set(cspNonceContext, nonce);
      // The URL as Fastify sees it (behind a proxy: X-Forwarded-Proto and -Host), so that React
      // Router's own origin check of form posts agrees with ours.
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      if (hasBody && Number(request.headers['content-length'] ?? 0) > PAGE_BODY_MAX) {
        return bodyTooLarge(request, reply, url.pathname);
      }
      const bounded = boundedBody(
        createRequest(request.raw, reply.raw, { protocol: `${request.protocol}:`, host: request.host }),
        PAGE_BODY_MAX,
      );
      const handling = handler(bounded.request, context);
      const outcome = await Promise.race([handling, bounded.overflow.then(() => null)]);
      if (outcome === null) {
        // The handler fails on its cut-off body in its own time; its answer is this one.
        handling.catch(() => {});
        return bodyTooLarge(request, reply, url.pathname);
      }
      const response = outcome;
      if (!response.headers.has('cache-control')) {
        // A signed-in user's page (their name, their CSRF token) is never kept by anyone else.
        if (auth) response.headers.set('cache-control', 'private, no-store');
        else if (pageCache && response.status === 200) {
          // A guest's copy, kept apart from a signed-in browser's by its cookies (ADR 0030).
          response.headers.set('cache-control', pageCache.cacheControl);
          response.headers.append('vary', pageCache.vary);
        }
      }
      reply.status(response.status);
      const headers: [string, string][] = [];
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') headers.push([key, value]);
      });
      for (const [key, value] of headers) reply.header(key, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      // A page that carries this request's nonce (one that hydrates) would not run with the next one's.
      if (body && cookies.length === 0 && !body.includes(nonce))
        pageCache?.store(request, response.status, headers, body);
      return reply.send(body);
    };
    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: handle,
      // Pages at a cheaper compression level than JSON and exports (server/plugins/compression.ts).
      compress: PAGE_COMPRESSION,
    });
  });
}
