import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from '../api/api-path.ts';

/**
 * Pages, JSON and exports go out compressed when the client accepts it: brotli first, then gzip
 * (@fastify/compress, brotli at quality 4, its default). Bodies under 1 KB, and types that are
 * compressed already (XLSX, PDF, images), go as they are; `Vary: Accept-Encoding` keeps shared
 * caches from mixing the encodings. Request bodies are not decompressed: clients send them plain.
 */
const RESPONSES = { encodings: ['br', 'gzip'], threshold: 1024 } satisfies FastifyCompressOptions;
const OPTIONS: FastifyCompressOptions = {
  ...RESPONSES,
  // Not `syncThreshold` above its default for pages: pages compressed in one call broke a browser journey
  // (e2e/lists-journey, a tab that never finished closing after a sign-in's pending action), so
  // pages still go through a compression stream (ADR 0040, "Compression in one call": withdrawn).
  globalDecompression: false,
};

/**
 * The JSON API's answers are whole in memory: up to this size they are compressed in one call and
 * sent with their length (ADR 0044). Above the default (8 KB on two cores) each went through an
 * async iterator, a zlib stream fed through the thread pool, a pipeline and a chunked answer — about
 * a third of the CPU of a 16 KB answer. Streams (exports) still stream: only strings and buffers
 * are compressed in one call.
 */
export const API_COMPRESS_IN_ONE_CALL_BYTES = 1024 * 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads a route's `compress` options. A route that
  // says `compress: false` (a file download) keeps it.
  app.addHook('onRoute', (route) => {
    if (route.compress === undefined && isApiPath(route.url)) {
      route.compress = { ...RESPONSES, syncThreshold: API_COMPRESS_IN_ONE_CALL_BYTES };
    }
  });
  await app.register(compress, OPTIONS);
}
