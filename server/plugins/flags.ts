import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

// Flags are SVG files of the flag-icons package (4:3), served from it as they are: /flags/gb.svg
// (ADR 0022). Pages draw them as images beside the country's name (app/components/flag.tsx): a few
// hundred bytes for most countries, cached by the browser, so a page of twenty rows does not carry
// twenty inline drawings (Spain's or Mexico's flag alone is 80 KB of SVG).

const FLAGS_DIR = join(dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')), 'flags', '4x3');
const CACHE = 'public, max-age=604800';

export function registerFlags(app: FastifyInstance): void {
  const files = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/flags/:file', async (request, reply) => {
    // Two lower-case letters and nothing else: no path reaches beyond the package's folder.
    const code = /^([a-z]{2})\.svg$/.exec(request.params.file)?.[1];
    if (!code) return reply.callNotFound();
    let body = files.get(code);
    if (!body) {
      try {
        body = await readFile(join(FLAGS_DIR, `${code}.svg`));
      } catch {
        return reply.callNotFound();
      }
      files.set(code, body);
    }
    return reply.header('cache-control', CACHE).type('image/svg+xml').send(body);
  });
}
