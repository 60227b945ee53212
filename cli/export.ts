import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { AppError } from '../core/errors/app-error.ts';
import { EXPORT_ROW_LIMIT } from '../core/export/export-options.ts';
import { parseExportParams } from '../core/export/export-request.ts';
import { prepareExport } from '../core/export/run-export.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { SECTIONS, sectionById } from '../core/sections/sections.ts';
import { openDatabase } from '../db/open-database.ts';
import { LANGUAGE_EN } from '../db/reference/enumerations.ts';
import type { Env } from '../server/env.ts';
import { progressBar } from './progress.ts';

// `npm run cli -- export`: the export of a search to a file, for operators. The same
// parameters, checks and writers as the download; the file appears only when it is complete (it
// is written beside the target and renamed at the end; a failure removes it).

type ExportOptions = {
  section: string;
  filter: string[];
  format: string;
  out: string;
  separator?: string;
  limit?: string;
  sections?: string;
  lang?: string;
};

export function registerExportCommand(program: Command, env: Env): void {
  program
    .command('export')
    .description(
      `Export a search's rows to a csv, xlsx, json or xml file (at most ${EXPORT_ROW_LIMIT.toLocaleString('en')} rows)`,
    )
    .option('--section <id>', `search section: ${SECTIONS.map((s) => s.id).join(', ')}`, 'companies')
    .option(
      '--filter <query>',
      "the search's parameters as on its page, e.g. 'jurisdiction=276&status=1' (repeatable)",
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option('--format <format>', 'csv, xlsx, json or xml', 'csv')
    .requiredOption('--out <file>', 'the file to write')
    .option('--separator <separator>', 'CSV separator: comma, semicolon or tab')
    .option('--limit <n>', `the first N rows (default: all, at most ${EXPORT_ROW_LIMIT})`)
    .option('--sections <list>', 'companies: data sections joined by | or ,')
    .option('--lang <lang>', 'language of headers and names: en, de or fr')
    .action(async (options: ExportOptions) => {
      const started = Date.now();
      const section = sectionById(options.section);
      if (!section) fail(`--section must be one of ${SECTIONS.map((s) => s.id).join(', ')}`);
      const params = new URLSearchParams(options.filter.join('&'));
      for (const name of ['format', 'separator', 'sections', 'lang'] as const) {
        if (params.has(name)) fail(`give ${name} as --${name}, not in --filter`);
        const value = options[name];
        if (value !== undefined) params.set(name, value);
      }
      if (options.limit !== undefined) {
        params.set('scope', 'first');
        params.set('count', options.limit);
      }
      let parsed: ReturnType<typeof parseExportParams>;
      try {
        parsed = parseExportParams(section, params);
      } catch (error) {
        if (error instanceof AppError) fail(optionMessage(error));
        throw error;
      }
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      const partial = `${options.out}.partial-${process.pid}`;
      try {
        await stat(dirname(options.out)).catch(() => fail(`--out: the folder ${dirname(options.out)} does not exist`));
        const reference = await loadReference(db);
        const prepared = await prepareExport(db, reference, {
          section,
          state: parsed.state,
          choices: parsed.choices,
          ids: parsed.ids,
          lang: parsed.lang,
          languageId: reference.languageIds[parsed.lang] || LANGUAGE_EN,
          // The operator's own tool: they hold the database, nothing is hidden from them (ADR 0029).
          viewer: 'operator',
        }).catch((error: unknown) => {
          if (error instanceof AppError) fail(optionMessage(error));
          throw error;
        });
        const bar = progressBar('rows', prepared.expectedRows);
        const file = createWriteStream(partial);
        let rows: number;
        try {
          rows = await prepared.write(file, (done) => bar.update(done));
        } finally {
          bar.stop();
          file.destroy();
        }
        await rename(partial, options.out);
        const size = (await stat(options.out)).size;
        const seconds = (Date.now() - started) / 1000;
        console.log(
          `Exported ${rows.toLocaleString('en')} ${section.id === 'companies' ? 'companies' : `${section.id} records`} to ${options.out} (${options.format}, ${(size / 1024).toFixed(1)} KB) in ${seconds.toFixed(1)} s.`,
        );
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      } finally {
        await db.close();
      }
    });
}

/** A refusal of the parameters in terms of the command's options. */
function optionMessage(error: AppError): string {
  const parameter = (error.details as { parameter?: string } | undefined)?.parameter;
  const option: Record<string, string> = { count: '--limit', scope: '--limit' };
  const name = parameter
    ? (option[parameter] ??
      (['format', 'separator', 'sections', 'lang'].includes(parameter) ? `--${parameter}` : '--filter'))
    : '';
  return `${name ? `${name}: ` : ''}${error.message}`;
}

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}
