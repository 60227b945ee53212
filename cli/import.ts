import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { ImportProgress } from '../core/imports/run-import.ts';
import { IMPORT_SOURCE_NAMES } from '../core/imports/sources/source-names.ts';
import type { Env } from '../server/env.ts';

// `npm run cli -- import <source> <file…>` (docs/decisions/0014-importers.md "Command line"):
// exit 0 when the files were imported (rejected rows listed in the rejects file), 1 when they
// could not be (a wrong file, a missing one, an error; a file that ended early or is malformed
// part-way: the message says what was applied before that point), 130 when interrupted (Ctrl-C).

const number = (n: number) => n.toLocaleString('en');

export function registerImportCommand(program: Command, env: Env): void {
  program
    .command('import')
    .description(`Import public registry files (plain, .gz or .zip). Sources: ${IMPORT_SOURCE_NAMES.join(', ')}`)
    .argument('<source>', 'the source the files come from')
    .argument('<files...>', 'the files to import, in order')
    .option('--rejects <path>', 'where to list rejected rows (default: <first file>.rejects.tsv)')
    .action(async (sourceName: string, files: string[], options: { rejects?: string }) => {
      const { IMPORT_SOURCES } = await import('../core/imports/sources/index.ts');
      const source = IMPORT_SOURCES[sourceName];
      if (!source) {
        console.error(`Unknown source “${sourceName}”. Sources: ${IMPORT_SOURCE_NAMES.join(', ')}.`);
        process.exitCode = 1;
        return;
      }
      for (const file of files) {
        try {
          await access(file);
        } catch {
          console.error(`Cannot read ${file}.`);
          process.exitCode = 1;
          return;
        }
      }
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReferenceData } = await import('../db/reference/load-reference-data.ts');
      const { ImportInterrupted, ImportStopped, runImport } = await import('../core/imports/run-import.ts');
      const { WrongFileError } = await import('../core/imports/company-facts.ts');
      const { SingleBar } = await import('cli-progress');
      const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      await loadReferenceData(database);
      const controller = new AbortController();
      const onSignal = () => {
        console.error('\nStopping after the batch being written…');
        controller.abort();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const bar = new SingleBar({
        format: '{bar} {percentage}% | {file} | {read} read, {rate} rows/s | {eta_formatted} left',
        stream: process.stderr,
        noTTYOutput: false,
        etaBuffer: 50,
      });
      const started = Date.now();
      let barStarted = false;
      const onProgress = (p: ImportProgress) => {
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        const payload = { file: p.file, read: number(p.read), rate: number(Math.round(p.read / seconds)) };
        if (!barStarted) {
          bar.start(Math.max(p.totalBytes, 1), 0, payload);
          barStarted = true;
        }
        bar.update(Math.min(p.bytes, p.totalBytes), payload);
      };
      try {
        const summary = await runImport(database, source, files, {
          rejectsPath: options.rejects ?? `${basename(files[0] as string)}.rejects.tsv`,
          onProgress,
          signal: controller.signal,
        });
        if (barStarted) bar.stop();
        console.log(
          `Imported ${files.length === 1 ? files[0] : `${files.length} files`} (${sourceName}) in ${summary.seconds.toFixed(1)} s: ` +
            `${number(summary.read)} read, ${number(summary.new)} new, ${number(summary.changed)} changed, ` +
            `${number(summary.unchanged)} unchanged, ${number(summary.rejected)} rejected.`,
        );
        if (summary.rejected > 0) {
          for (const r of summary.rejects.slice(0, 10))
            console.log(`  rejected: ${r.file} ${r.unit} ${r.at}: ${r.reason}`);
          console.log(`Every rejected row is listed in ${summary.rejectsFile}.`);
        }
      } catch (error) {
        if (barStarted) bar.stop();
        if (error instanceof ImportInterrupted) {
          console.error(error.message);
          process.exitCode = 130;
        } else if (error instanceof ImportStopped) {
          // What was applied before the point the file stopped at stays; the message says what it was.
          console.error(`Not imported completely: ${error.message}`);
          process.exitCode = 1;
        } else if (error instanceof WrongFileError) {
          console.error(`Not imported: ${error.message}`);
          process.exitCode = 1;
        } else {
          console.error(`Not imported: ${error instanceof Error ? error.message : String(error)}`);
          process.exitCode = 1;
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await database.close();
      }
    });
}
