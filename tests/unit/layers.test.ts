import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers import downwards only: the web app (app/) may use core/ and db/, and the JSON API
// (server/api/), core/, db/ and the CLI never import the web app. Shared types and the
// translator live in core/ (core/services.ts, core/i18n/). And comments cite decisions, not tracker numbers.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((spec) => relative(ROOT, resolve(dirname(join(ROOT, file)), spec)));
}

describe('comments', () => {
  it('cite decisions (docs/decisions), never tracker issue numbers', () => {
    const citing = ['app', 'core', 'db', 'server', 'cli', 'scripts', 'bench', 'tests', 'e2e']
      .flatMap(sources)
      .filter((file) => /\b[Ii]ssue \d+/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(citing).toEqual([]);
  });
});

describe('layers', () => {
  for (const dir of ['core', 'db', 'cli', 'server/api']) {
    it(`${dir}/ imports nothing from the web app`, () => {
      const offending = sources(dir).flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith('app/') || target.startsWith('app\\'))
          .map((target) => `${file} → ${target}`),
      );
      expect(sources(dir).length).toBeGreaterThan(0);
      expect(offending).toEqual([]);
    });
  }
});
