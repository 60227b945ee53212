import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledApiLimits } from '../../core/api-keys/api-limits.ts';
import { runImport } from '../../core/imports/run-import.ts';
import { gleifLei } from '../../core/imports/sources/gleif-lei.ts';
import type { Db } from '../../db/client.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase } from '../support/test-database.ts';

// A running app shows an import made by another process within seconds: the import writes the
// tables (search and profiles read them at once) and the app, polling the data's version, recounts
// the aggregates it keeps in memory (section totals from the facet cube, statistics).

const DATA = '/api/site/data/v1/legal_entities';
let app: FastifyInstance;
let db: Db;

beforeAll(async () => {
  const t = await openTestDatabase();
  db = t.db;
  app = await buildApp({
    db,
    reference: t.reference,
    siteUrl: 'http://localhost:3000',
    pages: false,
    logLevel: 'silent',
    watchDataMs: 100,
    // It polls the API for up to 20 s: not a test of the API's limits (ADR 0020).
    apiLimits: scaledApiLimits(10_000),
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const json = async (url: string) => (await app.inject({ method: 'GET', url })).json();

/** Reads until `ok`, or gives up after `ms` (the app polls every 2 s; recounting is slower on a busy machine). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an import seen by a running app', () => {
  it('updates search, the section total and the statistics within seconds', async () => {
    const totalBefore = (await json(`${DATA}?count=1`)).meta.total as number;
    const statsBefore = (await json(`${DATA}/statistics`)).data.total as number;
    expect((await json(`${DATA}?q=afrinvest&count=5`)).data).toHaveLength(0);

    await runImport(db, gleifLei, ['/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml']);

    const found = (await json(`${DATA}?q=afrinvest&count=5`)).data as { legal_entities: { name: string } }[];
    expect(found.map((c) => c.legal_entities.name)).toEqual(['AFRINVEST SECURITIES LIMITED']);
    const total = await eventually(
      async () => (await json(`${DATA}?count=1`)).meta.total as number,
      (n) => n === totalBefore + 10,
    );
    expect(total).toBe(totalBefore + 10);
    const stats = await eventually(
      async () => (await json(`${DATA}/statistics`)).data.total as number,
      (n) => n === statsBefore + 10,
    );
    expect(stats).toBe(statsBefore + 10);
  });
});
