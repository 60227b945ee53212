import Fastify, { type FastifyInstance } from 'fastify';
import type { AppServices } from '../app/services.ts';
import { registerApi } from './api/index.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { createPageCache, type PageCacheOptions } from './plugins/page-cache.ts';
import { registerSsr } from './plugins/ssr.ts';

export type AppOptions = AppServices & {
  /** Serve pages: 'build' (production build), 'dev' (Vite with hot reload) or false (API only). */
  pages: 'build' | 'dev' | false;
  logLevel?: string;
  /** Keep rendered pages for anonymous readers this long (off when absent or 0). */
  pageCache?: PageCacheOptions;
};

/** Builds the whole app (API and pages) without listening, for main.ts and for tests (app.inject). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logLevel && options.logLevel !== 'silent' ? { level: options.logLevel } : false,
    trustProxy: true,
  });
  const services: AppServices = { db: options.db, reference: options.reference, siteUrl: options.siteUrl };
  registerErrorHandler(app);
  await app.register(async (api) => registerApi(api, services), { prefix: '/api' });
  const pageCache =
    options.pageCache && options.pageCache.ttlSeconds > 0 && options.pages === 'build'
      ? createPageCache(options.pageCache)
      : undefined;
  if (options.pages) await registerSsr(app, services, options.pages === 'dev', pageCache);
  return app;
}
