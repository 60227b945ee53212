import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

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
    // Not `syncThreshold` above its default: pages compressed in one call broke a browser journey
    // (e2e/lists-journey, a tab that never finished closing after a sign-in's pending action), so
    // pages still go through a compression stream (ADR 0040, "Compression in one call": withdrawn).
    globalDecompression: false,
  });
}
