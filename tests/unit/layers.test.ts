import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers import downwards only: the web app (app/) may use core/ and db/, and the JSON API
// (server/api/), core/, db/ and the CLI never import the web app. Shared types and the
// translator live in core/ (core/services.ts, core/i18n/). The demo data (db/seed/) is built on
// core/, never the other way round. No module imports itself through others at run time (a cycle
// makes the order modules load in decide what is defined when). And comments cite decisions, not
// tracker numbers.
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

/** The code the app, the CLI and the worker run (the graph the cycle test walks). */
const RUNTIME_DIRS = ['app', 'core', 'db', 'server', 'cli', 'jobs'];

/**
 * The files a file imports at run time, by relative path: static imports, side-effect imports and
 * re-exports, without the type-only ones (`import type …`, `export type … from`, and braces whose
 * every name is a `type`), which TypeScript erases. Dynamic `import()` loads later, on demand: it
 * cannot make a cycle of loading.
 */
function runtimeImportsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const statements = text.matchAll(
    /^\s*(?:(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm,
  );
  const out: string[] = [];
  for (const [, typeOnly, clause = '', spec] of statements) {
    if (typeOnly) continue;
    const names = /^\{([\s\S]*)\}$/
      .exec(clause.trim())?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names && names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    out.push(relative(ROOT, resolve(dirname(join(ROOT, file)), spec.replace(/\?.*$/, ''))));
  }
  return out;
}

/** The cycles of a graph: each strongly connected part of more than one file (or a file importing itself), as a path. */
function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components, then one cycle through each, for the message.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      part.push(w);
      if (w === v) break;
    }
    if (part.length > 1 || graph.get(v)?.includes(v)) parts.push(part);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return parts.map((part) => {
    // A path from the part's first file back to itself, inside the part (breadth-first).
    const inPart = new Set(part);
    const start = [...part].sort()[0];
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift() as string;
      for (const w of graph.get(v) ?? []) {
        if (!inPart.has(w)) continue;
        if (w === start) {
          const path = [v];
          for (let at = v; at !== start; at = from.get(at) as string) path.unshift(from.get(at) as string);
          return [...path, start];
        }
        if (!from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    return part;
  });
}

describe('the runtime import graph', () => {
  it('reads runtime imports and leaves type-only ones out', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { type E, e } from './e.ts';",
      "import {\n  type F,\n  f,\n} from './f.ts';",
      "export { g } from './g.ts';",
      "export type { H } from './h.ts';",
      "import './i.css';",
      "import j from './j.js?raw';",
      "import { k } from 'kysely';",
    ].join('\n');
    expect(runtimeImportsOf('core/x/y.ts', text)).toEqual([
      'core/x/a.ts',
      'core/x/e.ts',
      'core/x/f.ts',
      'core/x/g.ts',
      'core/x/i.css',
      'core/x/j.js',
    ]);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
    ]);
  });

  it('has no cycles', () => {
    const files = RUNTIME_DIRS.flatMap(sources);
    const graph = new Map(files.map((file) => [file, runtimeImportsOf(file)]));
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });
});

describe('layers', () => {
  it('core/ never imports the demo data (db/seed/): the seed is built on core/', () => {
    const offending = sources('core').flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('db/seed/') || target.startsWith('db\\seed\\'))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

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
