import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors/app-error.ts';
import { escapeHtml } from '../../core/html/escape-html.ts';

// Browsable API docs at /api/docs: Swagger UI served from the installed swagger-ui-dist package
// (nothing loads from the internet: no CDN, and the online validator badge is switched off).

const require = createRequire(import.meta.url);
const DIST = dirname(require.resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The client's use, as clients/typescript/README.md shows it (tests/integration/api-client.test.ts runs these calls). */
export const CLIENT_EXAMPLE = `import { createRegistraClient } from '@registra/api-client';

const registra = createRegistraClient({ baseUrl: 'https://registra.example', apiKey: 'rk_…' });

// Search, then the next page with the cursor.
const page = await registra.GET('/api/site/data/v1/legal_entities', {
  params: { query: { q: 'acme', count: 25 } },
});
if (page.error) throw new Error(page.error.error.message);
const next = await registra.GET('/api/site/data/v1/legal_entities', {
  params: { query: { q: 'acme', count: 25, after: page.data.meta.next ?? undefined } },
});

// Nested filters, matching and the change feed.
await registra.POST('/api/site/data/v1/legal_entities/search', {
  body: { filter: { any: [{ jurisdiction: '276' }, { not: { status: '1' } }] } },
});
await registra.POST('/api/match', { body: { queries: [{ name: 'Acme GmbH', country: 'DE' }] } });
const changes = await registra.GET('/api/changes', { params: { query: { since: 0 } } });`;

export function docsPage(openApiUrl: string, assetsUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Registra API</title>
<link rel="icon" type="image/png" href="${assetsUrl}/favicon-32x32.png">
<link rel="stylesheet" href="${assetsUrl}/swagger-ui.css">
<style>body { margin: 0; } .swagger-ui .topbar { display: none; } .client { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font: 14px sans-serif; } .client pre { background: #f4f4f4; padding: 12px; overflow-x: auto; }</style>
</head>
<body>
<noscript><p>These docs need JavaScript. The API is described by the <a href="${openApiUrl}">OpenAPI document</a>.</p></noscript>
<section class="client">
<h2>TypeScript client</h2>
<p>A typed client generated from this document is in the repository (<code>clients/typescript</code>): paths, parameters, bodies and answers are checked by the compiler.</p>
<pre><code>${escapeHtml(CLIENT_EXAMPLE)}</code></pre>
</section>
<div id="docs"></div>
<script src="${assetsUrl}/swagger-ui-bundle.js"></script>
<script src="${assetsUrl}/init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI: a file of its own, as the Content-Security-Policy allows no inline script. */
export function docsInitScript(openApiUrl: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(openApiUrl)},
  dom_id: '#docs',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: true,
});
`;
}

export function registerDocs(api: FastifyInstance): void {
  const cache = new Map<string, Buffer>();
  api.get('/docs', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(docsPage('/api/openapi.json', '/api/docs')),
  );
  api.get('/docs/init.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(docsInitScript('/api/openapi.json')),
  );
  api.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    const type = ASSETS[file];
    if (!type) throw new AppError('not_found', `No docs asset ${file}`);
    let body = cache.get(file);
    if (!body) {
      body = await readFile(join(DIST, file));
      cache.set(file, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
