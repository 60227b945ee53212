import { mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import type { Env } from '../server/env.ts';

// `npm run cli -- demo advance --days N` (docs/decisions/0014-importers.md "Demo updates"): writes a
// GLEIF delta file and a Companies House delta per day for the demo companies and imports them
// through the gleif-lei and ch-companies importers, then records of some companies' sections, so
// that history and monitoring can be seen without downloading anything. Each day changes some of the
// tracked companies; their update reports are built by the job the imports enqueue, which a job
// worker runs (the server's, or `jobs work`).

const MAX_DAYS = 366;

export function registerDemoCommand(program: Command, env: Env): void {
  program
    .command('demo')
    .description('Demo data')
    .command('advance')
    .description(
      'Write and import a GLEIF and a Companies House delta file per day for the demo companies (the last N days up to today)',
    )
    .option('--days <n>', `days to advance (1 to ${MAX_DAYS})`, '1')
    .option('--dir <path>', 'where the delta files are written', 'var/demo-updates')
    .action(async (options: { days: string; dir: string }) => {
      const days = z.coerce.number().int().min(1).max(MAX_DAYS).safeParse(options.days);
      if (!days.success) {
        console.error(`--days must be a whole number from 1 to ${MAX_DAYS}, not “${options.days}”.`);
        process.exitCode = 1;
        return;
      }
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReferenceData } = await import('../db/reference/load-reference-data.ts');
      const { advanceDemo } = await import('../db/seed/demo-advance.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        await loadReferenceData(db);
        await mkdir(options.dir, { recursive: true });
        await advanceDemo(db, {
          days: days.data,
          dir: options.dir,
          onImported: (day, file, summary) =>
            console.log(
              `${day}: ${file} — ${summary.read} read, ${summary.new} new, ${summary.changed} changed, ` +
                `${summary.unchanged} unchanged, ${summary.rejected} rejected.`,
            ),
          onSkipped: (skipped) =>
            console.log(
              `${skipped[0]}${skipped.length > 1 ? ` to ${skipped.at(-1)}` : ''}: before the newest day advanced to, skipped (the demo moves forward only).`,
            ),
          onRecords: (day, summary) =>
            console.log(
              `${day}: ${summary.records} records written for ${summary.companies} companies (a new one added, a changed one updated).`,
            ),
        });
        console.log(
          'Update reports of the tracked companies are built by the job worker, then shown in the app and its notifications: ' +
            'the server runs one (unless JOBS_WORKER=off); without it, run `npm run cli -- jobs work --once`.',
        );
      } finally {
        await db.close();
      }
    });
}
