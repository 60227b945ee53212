import { Command, InvalidArgumentError } from 'commander';
import { readEnv } from '../server/env.ts';
import { registerBulkCommand } from './bulk.ts';
import { registerDemoCommand } from './demo.ts';
import { registerEnrichCommand } from './enrich.ts';
import { registerExportCommand } from './export.ts';
import { registerImportCommand } from './import.ts';
import { registerJobsCommand } from './jobs.ts';
import { registerKbCommand } from './kb.ts';
import type { ProgressBar } from './progress.ts';
import { registerTakedownCommand } from './takedown.ts';
import { registerUsersCommand } from './users.ts';

// Each command's module declares its options here; its action imports what it runs (core/, db/,
// importers, the demo seed's faker…) with `await import()`, so a command loads only its own code
// and `--help` loads none (docs/decisions/0039-test-suite-time.md).

const env = readEnv();
const program = new Command('registra').description('Registra command line: database, data and operations');

function positiveInt(label: string) {
  return (value: string) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${label} must be a whole number`);
    return Number(value);
  };
}

const db = program.command('db').description('Database: migrate and seed (DATABASE_URL, else PGlite in DATA_DIR)');

db.command('migrate')
  .description('Apply pending migrations and load reference data')
  .action(async () => {
    const { openDatabase } = await import('../db/open-database.ts');
    const { loadReferenceData } = await import('../db/reference/load-reference-data.ts');
    const { loadKnowledgeBase } = await import('../core/kb/load-knowledge-base.ts');
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    await loadReferenceData(database);
    await loadKnowledgeBase(database);
    console.log('Database is up to date.');
    await database.close();
  });

db.command('seed')
  .description('Generate demo companies (deterministic for a seed); adds to what is there')
  .option('--companies <n>', 'how many companies to add', positiveInt('--companies'), 20000)
  .option('--seed <s>', 'random seed', positiveInt('--seed'), 1)
  .action(async (options: { companies: number; seed: number }) => {
    const { openDatabase } = await import('../db/open-database.ts');
    const { loadReferenceData } = await import('../db/reference/load-reference-data.ts');
    const { withAdvisoryLock } = await import('../db/advisory-lock.ts');
    const { seedCompanies } = await import('../db/seed/seed-companies.ts');
    const { progressBar } = await import('./progress.ts');
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    await loadReferenceData(database);
    const bar = progressBar('companies', options.companies);
    const started = Date.now();
    // Waits for a start-up generating demo data (server/main.ts): both number companies after the last.
    const result = await withAdvisoryLock(database, 'demo-data', () =>
      seedCompanies(database, { ...options, onProgress: (done) => bar.update(done) }),
    );
    bar.stop();
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `Seeded ${result.companies.toLocaleString('en')} companies, ${result.members.toLocaleString('en')} members, ${result.rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s.`,
    );
    await database.close();
  });

db.command('refresh-export-documents')
  .description(
    'Build the export documents of the companies without a current one (a database from before them); --all rebuilds every one',
  )
  .option('--all', 'rebuild the documents of every company')
  .action(async (options: { all?: boolean }) => {
    const { openDatabase } = await import('../db/open-database.ts');
    const { execScript } = await import('../db/client.ts');
    const { companiesWithoutExportDocuments, refreshExportDocuments } = await import(
      '../core/export/export-documents.ts'
    );
    const { progressBar } = await import('./progress.ts');
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    const target = options.all ? 'all' : await companiesWithoutExportDocuments(database);
    if (target !== 'all' && target.length === 0) console.log('Every company has a current export document.');
    else {
      let bar: ProgressBar | undefined;
      const result = await refreshExportDocuments(database, target, (done, total) => {
        bar ??= progressBar('companies', total);
        bar.update(done);
      });
      bar?.stop();
      // Statistics and the visibility map for the reader's lookups and the start-up check.
      await execScript(database, 'vacuum (analyze) export_documents');
      console.log(
        `Built the export documents of ${result.companies.toLocaleString('en')} companies in ${result.seconds.toFixed(1)} s.`,
      );
    }
    await database.close();
  });

registerExportCommand(program, env);
registerDemoCommand(program, env);
registerEnrichCommand(program, env);
registerImportCommand(program, env);
registerJobsCommand(program, env);
registerKbCommand(program, env);
registerUsersCommand(program, env);
registerTakedownCommand(program, env);
registerBulkCommand(program, env);

await program.parseAsync(process.argv);
