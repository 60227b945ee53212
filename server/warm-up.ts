import type { FastifyInstance } from 'fastify';
import { SECTIONS } from '../core/sections/sections.ts';
import type { Db } from '../db/client.ts';

// The warm-up before a process reports ready (ADR 0041): each page a visitor may ask for first —
// every section's search, the home page, a company profile, the two directories and the data
// API's companies — is answered once inside the process (app.inject, nothing on the network).
// What a first answer paid for is per process: modules imported on first use, the pages' code
// compiled by the engine, per-process caches of the sections, and the connections' catalog
// caches in PostgreSQL. Measured by bench/first-answers.ts.

/** The address the warm-up's API request is counted under (TEST-NET-1, RFC 5737: never a client). */
export const WARM_UP_ADDRESS = '192.0.2.1';

/** The paths the warm-up asks for, in order (a company profile when there is a company). */
export async function warmUpPaths(db: Db): Promise<string[]> {
  const company = await db.kysely
    .selectFrom('legal_entities')
    .select('uri')
    .orderBy('registration_sort', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return [
    ...SECTIONS.map((s) => `/${s.id}/search/`),
    '/',
    ...(company ? [`/companies/details/${encodeURIComponent(company.uri)}/`] : []),
    '/companies/directories/jurisdictions/',
    '/companies/directories/industries/',
    '/api/site/data/v1/legal_entities?count=20',
  ];
}

/**
 * Answers each warm-up path once, one at a time; resolves with how many answered with a 2xx/3xx
 * and the seconds taken. A failing page is logged and skipped: the warm-up never stops a start.
 */
export async function warmUp(
  app: FastifyInstance,
  db: Db,
  log: (message: string) => void,
): Promise<{ pages: number; seconds: number }> {
  const started = performance.now();
  let pages = 0;
  for (const url of await warmUpPaths(db)) {
    try {
      // No user agent and no cookie: no visitor is recorded, no session read. Compressed as a
      // browser asks for it: the compressor's code is part of a first answer too.
      const response = await app.inject({
        method: 'GET',
        url,
        remoteAddress: WARM_UP_ADDRESS,
        headers: { accept: 'text/html,application/json', 'accept-encoding': 'br, gzip' },
      });
      if (response.statusCode < 400) pages += 1;
      else log(`Warm-up: ${url} answered ${response.statusCode}`);
    } catch (error) {
      log(`Warm-up: ${url} failed: ${(error as Error).message}`);
    }
  }
  return { pages, seconds: (performance.now() - started) / 1000 };
}
