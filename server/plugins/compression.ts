import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * A body already whole in memory up to this size (a page, a JSON answer: strings and Buffers) is
 * compressed in one call and sent with its length; larger ones, and streams (exports), go through
 * a compression stream. @fastify/compress's default on two cores is 8 KB, so every page went
 * through a stream: an async iterator, a zlib stream fed in 16 KB chunks through the thread pool,
 * a pipeline and a chunked response, about a millisecond of CPU per page beside the compression
 * itself (ADR 0040). On two cores shared with PostgreSQL the thread pool has nothing to overlap
 * with; brotli 4 of a 200 KB page holds the event loop about as long as rendering it.
 */
export const COMPRESS_IN_ONE_CALL_BYTES = 1024 * 1024;

/**
 * Pages, JSON and exports go out compressed when the client accepts it: brotli first, then gzip
 * (@fastify/compress, brotli at quality 4, its default). Bodies under 1 KB, and types that are
 * compressed already (XLSX, PDF, images), go as they are; `Vary: Accept-Encoding` keeps shared
 * caches from mixing the encodings. Request bodies are not decompressed: clients send them plain.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: COMPRESS_IN_ONE_CALL_BYTES,
    globalDecompression: false,
  });
}
