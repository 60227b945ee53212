// The real app (production build, pages and API) listening on a free local port, over a private
// copy of the test template (see tests/support/test-database.ts). It runs inside the test
// process, so a test can make its own rows through `server.db` before driving the browser:
//
//   let server: TestServer;
//   beforeAll(async () => { server = await startServer(); });
//   afterAll(() => server.close());
//   await page.goto(`${server.url}/companies/`);
//
// Needs `npm run build` first (npm test runs it).

import { createServer } from 'node:net';
import type { Reference } from '../../core/reference/reference-data.ts';
import type { Db } from '../../db/client.ts';
import type { PageCacheOptions } from '../../server/plugins/page-cache.ts';
import { buildTestApp } from '../../tests/support/test-app.ts';

export type TestServer = {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  url: string;
  db: Db;
  reference: Reference;
  /** Stops the server, then closes the database. */
  close(): Promise<void>;
};

const HOST = '127.0.0.1';

export async function startServer(
  options: { jobs?: { pollMs?: number }; pageCache?: PageCacheOptions } = {},
): Promise<TestServer> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const t = await buildTestApp({ pages: 'build', siteUrl: url, jobs: options.jobs, pageCache: options.pageCache });
  try {
    await t.app.listen({ host: HOST, port });
  } catch (error) {
    await t.close();
    throw error;
  }
  return { url, db: t.db, reference: t.reference, close: t.close };
}

/** A port nobody listens on right now (the app's URL must be known before it is built). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
