import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createRequest } from '@remix-run/node-fetch-server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { answeringAppErrors } from '../../app/page-errors.server.ts';
import { type AppServices, authContext, clientContext, cspNonceContext, servicesContext } from '../../app/services.ts';
import { sitePath } from '../../core/accounts/return-to.ts';
import { isApiPath } from '../api/api-path.ts';
import type { PageCache } from './page-cache.ts';
import { cspNonce } from './security-headers.ts';
import { clientRequest } from './session.ts';

const BUILD_DIR = fileURLToPath(new URL('../../build/', import.meta.url));

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
      const fetchRequest = createRequest(request.raw, reply.raw, {
        protocol: `${request.protocol}:`,
        host: request.host,
      });
      const response = await handler(fetchRequest, context);
      if (!response.headers.has('cache-control')) {
        // A signed-in user's page (their name, their CSRF token) is never kept by anyone else.
        if (auth) response.headers.set('cache-control', 'private, no-store');
        else if (pageCache && response.status === 200) response.headers.set('cache-control', pageCache.cacheControl);
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
    scope.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: handle });
  });
}
