import { constants } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Pages, JSON and exports go out compressed when the client accepts it: brotli first, then gzip
 * (@fastify/compress, brotli at quality 4, its default). Bodies under 1 KB, and types that are
 * compressed already (XLSX, PDF, images), go as they are; `Vary: Accept-Encoding` keeps shared
 * caches from mixing the encodings. Request bodies are not decompressed: clients send them plain.
 */
const COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  // Not `syncThreshold` above its default: pages compressed in one call broke a browser journey
  // (e2e/lists-journey, a tab that never finished closing after a sign-in's pending action), so
  // pages still go through a compression stream (ADR 0040, "Compression in one call": withdrawn).
  globalDecompression: false,
};

/**
 * Pages (the SSR route, server/plugins/ssr.ts) at brotli 3 and gzip 4 (ADR 0043): of a 44 kB search
 * page, brotli 4 took 0.78 ms of CPU and 3 takes 0.31 ms for 4.6 % more bytes; gzip 6 0.64 ms and
 * 4 0.38 ms for 3.2 % more. JSON and exports keep the defaults above.
 */
export const PAGE_COMPRESSION: FastifyCompressOptions = {
  ...COMPRESSION,
  brotliOptions: {
    params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 3 },
  },
  zlibOptions: { level: 4 },
};

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, COMPRESSION);
}
