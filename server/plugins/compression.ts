import { constants } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from '../api/api-path.ts';

/**
 * Pages, JSON and exports go out compressed when the client accepts it: brotli first, then gzip
 * (@fastify/compress; brotli at quality 4, its default, for JSON and exports; pages below). Bodies under 1 KB, and types that are
 * compressed already (XLSX, PDF, images), go as they are; `Vary: Accept-Encoding` keeps shared
 * caches from mixing the encodings. Request bodies are not decompressed: clients send them plain.
 */
const RESPONSES = { encodings: ['br', 'gzip'], threshold: 1024 } satisfies FastifyCompressOptions;
const OPTIONS: FastifyCompressOptions = {
  ...RESPONSES,
  // Pages keep `syncThreshold`'s default (a compression stream): compressing them in one call was
  // withdrawn over a browser journey that turned out to be the test's own race (ADR 0040), and its
  // gain for pages was not measured apart.
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

/**
 * Pages (the SSR route, server/plugins/ssr.ts) at brotli 3 and gzip 4 (ADR 0043): of a 44 kB search
 * page, brotli 4 took 0.78 ms of CPU and 3 takes 0.31 ms for 4.6 % more bytes; gzip 6 0.64 ms and
 * 4 0.38 ms for 3.2 % more. JSON and exports keep the defaults above.
 */
export const PAGE_COMPRESSION: FastifyCompressOptions = {
  ...OPTIONS,
  brotliOptions: {
    params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 3 },
  },
  zlibOptions: { level: 4 },
};

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
