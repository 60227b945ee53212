import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS } from '../../core/sections/sections.ts';
import { warmUp, warmUpPaths } from '../../server/warm-up.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The warm-up before a process listens (ADR 0041): every section's search and the pages outside
// the sections, each answered once in the process, none failing, nothing recorded for a visitor.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t.close());

describe('warm-up', () => {
  it('asks for every section’s search, the home page, a profile, the directories and the data API', async () => {
    const paths = await warmUpPaths(t.db);
    for (const section of SECTIONS) expect(paths).toContain(`/${section.id}/search/`);
    expect(paths).toContain('/');
    expect(paths.some((p) => /^\/companies\/details\/[^/]+\/$/.test(p))).toBe(true);
    expect(paths).toContain('/companies/directories/jurisdictions/');
    expect(paths).toContain('/api/site/data/v1/legal_entities?count=20');
    expect(paths).toHaveLength(SECTIONS.length + 5);
  });

  it('answers each once without an error and records no visitor', async () => {
    const visitors = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('visitors')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await visitors();
    const logged: string[] = [];
    const result = await warmUp(t.app, t.db, (m) => logged.push(m));
    expect(logged).toEqual([]);
    expect(result.pages).toBe((await warmUpPaths(t.db)).length);
    expect(await visitors()).toBe(before);
  });

  it('logs a page that fails and goes on', async () => {
    const logged: string[] = [];
    const broken = {
      inject: async (options: InjectOptions) => {
        if (options.url === '/') throw new Error('boom');
        return t.app.inject(options);
      },
    } as unknown as typeof t.app;
    const result = await warmUp(broken, t.db, (m) => logged.push(m));
    expect(logged).toEqual(['Warm-up: / failed: boom']);
    expect(result.pages).toBe((await warmUpPaths(t.db)).length - 1);
  });
});
