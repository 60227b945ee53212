import type { Command } from 'commander';
import type { Env } from '../server/env.ts';

// `bulk build`: writes a bulk data snapshot and its change files since the previous one into
// BULK_DATA_DIR now (the daily job does the same; ADR 0036).

export function registerBulkCommand(program: Command, env: Env): void {
  const bulk = program.command('bulk').description('Bulk data: daily snapshots and change files (BULK_DATA_DIR)');
  bulk
    .command('build')
    .description('Build a snapshot of the public data and the change files since the previous one')
    .action(async () => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReference } = await import('../core/reference/reference-data.ts');
      const { buildBulkSnapshot } = await import('../core/bulk/build-bulk-snapshot.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        const started = Date.now();
        const reference = await loadReference(db);
        const manifest = await buildBulkSnapshot(db, reference, { dir: env.BULK_DATA_DIR });
        const companies = manifest.files.find((f) => f.section === 'companies' && f.kind === 'snapshot')?.rows ?? 0;
        console.log(
          `Built snapshot ${manifest.snapshot} in ${env.BULK_DATA_DIR}: ${companies.toLocaleString('en')} companies, ${manifest.files.length} files, ${((Date.now() - started) / 1000).toFixed(1)} s${manifest.previous ? ` (changes since ${manifest.previous})` : ''}.`,
        );
      } catch (error) {
        console.error((error as Error).message);
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
