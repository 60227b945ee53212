import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('./', import.meta.url));

/**
 * The server's own modules, which route modules import too. The production server build imports
 * them from the project (Node runs the .ts files) instead of carrying a copy of each, so pages and
 * API share one instance: the same caches (facet cubes, counts, prepared queries, i18n instances)
 * and the same React Router contexts. Development (Vite's module runner) keeps its own copies, which
 * it reloads on an edit.
 */
const SHARED = ['core/', 'db/', 'server/', 'core/i18n/', 'core/services.ts', 'app/services.ts'].map(
  (path) => ROOT + path,
);

function shareServerModules(): Plugin {
  let outDir = '';
  return {
    name: 'registra:share-server-modules',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !SHARED.some((path) => resolved.id.startsWith(path))) return null;
      return { id: resolved.id, external: 'absolute' };
    },
    outputOptions(options) {
      outDir = options.dir ?? '';
      // Imported relative to the bundle (one file, build/server/index.js), so the build can move with the project.
      const paths = (id: string) => (id.startsWith(ROOT) ? relative(outDir, id).split(sep).join('/') : id);
      return { ...options, paths };
    },
  };
}

export default defineConfig({
  plugins: [reactRouter(), shareServerModules()],
  build: { sourcemap: false },
});
