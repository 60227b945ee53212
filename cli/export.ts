import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { AppError } from '../core/errors/app-error.ts';
import { EXPORT_ROW_LIMIT } from '../core/export/export-options.ts';
import type { parseExportParams } from '../core/export/export-request.ts';
import { SECTIONS } from '../core/sections/sections.ts';
import type { Db } from '../db/client.ts';
import type { JobDefinition, JobServices } from '../jobs/worker.ts';
import type { Env } from '../server/env.ts';

// `npm run cli -- export`: the export of a search to a file, for operators. The same
// parameters, checks and writers as the download; the file appears only when it is complete (it
// is written beside the target and renamed at the end; a failure removes it). With `--job --user
// <email>` it is that user's export job instead (charged, kept on their exports page).

type ExportOptions = {
  job?: boolean;
  user?: string;
  work: boolean;
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
    .option('--job', "run it as a user's export job: charged to --user, listed on their exports page for 7 days")
    .option('--user <email>', 'with --job: the user the export is for (and charged to)')
    .option('--no-work', 'with --job: only start the job and follow it (a worker elsewhere runs it)')
    .action(async (options: ExportOptions) => {
      const started = Date.now();
      const { sectionById } = await import('../core/sections/sections.ts');
      const { AppError } = await import('../core/errors/app-error.ts');
      const { parseExportParams } = await import('../core/export/export-request.ts');
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReference } = await import('../core/reference/reference-data.ts');
      const { prepareExport } = await import('../core/export/run-export.ts');
      const { LANGUAGE_EN } = await import('../db/reference/enumerations.ts');
      const { progressBar } = await import('./progress.ts');
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
      if (options.job && !options.user) fail('--job needs --user <email>: the user the export is charged to');
      if (!options.job && options.user) fail('--user goes with --job');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      if (options.job) {
        try {
          await stat(dirname(options.out)).catch(() =>
            fail(`--out: the folder ${dirname(options.out)} does not exist`),
          );
          await exportAsJob(db, { ...options, user: options.user as string }, section.id, params, started);
        } finally {
          await db.close();
        }
        return;
      }
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

/**
 * `--job`: the export as the user's job (docs/decisions/0031-export-jobs.md) — checked, charged and
 * queued as the page and the API do, worked by this process (or, with --no-work, by a server's
 * worker) with a progress bar that follows its rows, then its stored file written to --out.
 */
async function exportAsJob(
  db: Db,
  options: ExportOptions & { user: string },
  sectionId: string,
  params: URLSearchParams,
  started: number,
): Promise<void> {
  const { findUserByEmail } = await import('../core/accounts/sign-up.ts');
  const { AppError } = await import('../core/errors/app-error.ts');
  const { loadReference } = await import('../core/reference/reference-data.ts');
  const { getExportJob, startExportJob } = await import('../core/export/export-jobs.ts');
  const { readExportFile } = await import('../core/export/export-files.ts');
  const { exportJob } = await import('../jobs/export.job.ts');
  const { runOneJob } = await import('../jobs/worker.ts');
  const { progressBar } = await import('./progress.ts');
  const user = await findUserByEmail(db, options.user);
  if (!user) fail(`--user: no user has the email ${options.user}`);
  const userId = Number(user.id);
  const reference = await loadReference(db);
  const { job, balance } = await startExportJob(db, reference, userId, sectionId, params).catch((error: unknown) => {
    if (error instanceof AppError) fail(optionMessage(error));
    throw error;
  });
  console.log(
    `Export #${job.id}: ${job.rowsTotal.toLocaleString('en')} rows; charged ${job.credits} credit${job.credits === 1 ? '' : 's'}, balance ${balance}.`,
  );
  const bar = progressBar('rows', job.rowsTotal);
  let state = job;
  const services = { db, reference } as JobServices;
  const log = { info: () => {}, error: (o: Record<string, unknown>, m: string) => console.error(m, o) };
  for (;;) {
    state = await getExportJob(db, userId, job.id);
    bar.update(state.rowsWritten);
    if (state.status === 'done' || state.status === 'failed') break;
    const ran =
      options.work &&
      (await runOneJob(
        { services, log, definitions: [exportJob as JobDefinition<never>], retryDelay: () => 0 },
        `cli:${process.pid}`,
      ));
    if (!ran) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  bar.stop();
  if (state.status === 'failed') fail(`The export failed and its credits were given back: ${state.error}`);
  const partial = `${options.out}.partial-${process.pid}`;
  try {
    await pipeline(
      Readable.from(readExportFile(db, job.id, 0, (state.sizeBytes ?? 0) - 1)),
      createWriteStream(partial),
    );
    await rename(partial, options.out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `Exported ${state.rowsWritten.toLocaleString('en')} rows to ${options.out} (${options.format}, ${((state.sizeBytes ?? 0) / 1024).toFixed(1)} KB) in ${seconds.toFixed(1)} s; export #${job.id} is on the user's exports page until ${state.expiresAt.slice(0, 10)}.`,
  );
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
