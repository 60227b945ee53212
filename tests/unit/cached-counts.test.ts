import { describe, expect, it } from 'vitest';
import { cached, expireCachedCounts } from '../../core/companies/count-companies.ts';
import type { Db } from '../../db/client.ts';

// The whole-table counts a process keeps (core/companies/count-companies.ts) and an import seen by a
// running app (docs/decisions/0014-importers.md "Refresh"): a recount that began before the data
// changed again must not be kept as fresh.

describe('cached counts', () => {
  it('recounts after an expiry that came while a recount was running', async () => {
    const db = {} as Db;
    let counted = 0;
    let release: (value: number) => void = () => {};
    const compute = () => {
      counted += 1;
      if (counted === 1) return Promise.resolve(400);
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    expect(await cached(db, 'total', compute)).toBe(400);
    expireCachedCounts(db); // an import begins: the next reader starts a recount
    expect(await cached(db, 'total', compute)).toBe(400);
    expect(counted).toBe(2);
    expireCachedCounts(db); // … and the import ends while that recount runs
    release(405); // the recount saw the data half-way
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cached(db, 'total', compute)).toBe(405);
    expect(counted).toBe(3); // taken as stale: counted again
    release(410);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cached(db, 'total', compute)).toBe(410);
    expect(counted).toBe(3); // fresh now
  });
});
