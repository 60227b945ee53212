// The PGlite test template, cached under the OS temp directory and keyed by a hash of everything
// that fills it (ADR 0039): the migrations, the reference data, the help content, the seed and
// the core/ code they use, this support code, PGlite's version and the day (rows it makes take
// now() as their time). A change to any of them makes
// a new key, so a stale template is never loaded; an unchanged tree reuses it (about 15 s of CPU
// saved per Vitest process). Two processes that start together (scripts/test.ts runs the browser
// tier beside the others) build it once: the first takes a lock, the other waits for it.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the template is made of (folders are read whole). */
const INPUTS = [
  'db',
  'content',
  'core',
  'tests/support/template-database.ts',
  'tests/support/template-cache.ts',
  'tests/support/global-setup.ts',
  'node_modules/@electric-sql/pglite/package.json',
];
const CACHE = join(tmpdir(), 'registra-test-templates');
/** A lock older than this belongs to a build that died: it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;
/** Templates not used for this long are removed. */
const UNUSED_MS = 3 * 24 * 60 * 60_000;

/** The directory holding the template for the current tree, built by `build(dir)` when it is not cached yet. */
export async function cachedTemplate(build: (dir: string) => Promise<void>): Promise<string> {
  await mkdir(CACHE, { recursive: true });
  const dir = join(CACHE, templateKey());
  const lock = `${dir}.lock`;
  for (;;) {
    if (await exists(join(dir, 'done'))) {
      const now = new Date();
      await utimes(dir, now, now);
      return dir;
    }
    try {
      await mkdir(lock);
    } catch {
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (await exists(join(dir, 'done'))) continue;
      await removeUnused();
      const building = await mkdtemp(join(CACHE, 'building-'));
      try {
        await build(building);
        await mkdir(join(building, 'done'));
        await rm(dir, { recursive: true, force: true });
        await rename(building, dir);
      } catch (error) {
        await rm(building, { recursive: true, force: true });
        throw error;
      }
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/** A hash of the contents and paths of every input file. */
export function templateKey(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of INPUTS) visit(join(ROOT, input));
  // Rows the fill makes get now() as their time (the help pages' updated_at): a template of today's.
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest('hex').slice(0, 16);
}

async function removeUnused(): Promise<void> {
  for (const name of await readdir(CACHE)) {
    const path = join(CACHE, name);
    const stats = await stat(path).catch(() => undefined);
    if (stats && Date.now() - stats.mtimeMs > UNUSED_MS) await rm(path, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
