import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { type ColumnMapping, ENRICHMENT_FIELDS } from '../core/enrichment/enrichment-fields.ts';
import type { JobDefinition, JobServices } from '../jobs/worker.ts';
import type { Env } from '../server/env.ts';

// `npm run cli -- enrich <file> --user <email>`: a user's enrichment from the command line (ADR
// 0020 "Enrichment"): the same upload checks, guessed columns (or --map field=column), the cost
// charged with the job in one transaction, the run with a progress bar (this process works the
// job; a server's worker may take it instead, and the bar follows it), and --out writes the
// enriched file. Uncertain matches are left for review on the page.

type EnrichOptions = { user: string; map: string[]; out?: string; format: string; sections?: string; work: boolean };

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

export function registerEnrichCommand(program: Command, env: Env): void {
  program
    .command('enrich')
    .description("Match and complete a user's CSV or XLSX file of companies (charged to the user's credits)")
    .argument('<file>', 'the CSV or XLSX file, its first row the header')
    .requiredOption('--user <email>', 'the user the enrichment is for (and charged to)')
    .option(
      '--map <field=column>',
      `a column for a field (${ENRICHMENT_FIELDS.join(', ')}), by header or number from 1; repeatable`,
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option('--out <file>', 'write the enriched file there when done')
    .option('--format <format>', 'csv, xlsx, json or xml', 'csv')
    .option('--sections <list>', 'company data sections joined by , or |')
    .option('--no-work', 'only queue the job and follow it (a worker elsewhere runs it)')
    .action(async (file: string, options: EnrichOptions) => {
      const { COMPANY_EXPORT_SECTIONS, DEFAULT_COMPANY_SECTIONS, isExportFormat } = await import(
        '../core/export/export-options.ts'
      );
      const { openDatabase } = await import('../db/open-database.ts');
      const { findUserByEmail } = await import('../core/accounts/sign-up.ts');
      const { guessColumns, readUpload } = await import('../core/enrichment/read-upload.ts');
      const { createEnrichment, enrichmentCost, getEnrichment, outcomeCounts, startEnrichment } = await import(
        '../core/enrichment/enrichments.ts'
      );
      const { prepareEnrichedFile } = await import('../core/enrichment/enriched-file.ts');
      const { AppError } = await import('../core/errors/app-error.ts');
      const { loadReference } = await import('../core/reference/reference-data.ts');
      const { enrichmentJob } = await import('../jobs/enrichment.job.ts');
      const { runOneJob } = await import('../jobs/worker.ts');
      const { progressBar } = await import('./progress.ts');
      if (!isExportFormat(options.format)) fail('--format must be csv, xlsx, json or xml');
      const sections = options.sections
        ? options.sections.split(/[|,]/).filter(Boolean)
        : [...DEFAULT_COMPANY_SECTIONS];
      const unknown = sections.find((s) => !(COMPANY_EXPORT_SECTIONS as readonly string[]).includes(s));
      if (unknown) fail(`--sections: “${unknown}” is none of ${COMPANY_EXPORT_SECTIONS.join(', ')}`);
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        const user = await findUserByEmail(db, options.user);
        if (!user) fail(`--user: no user has the email ${options.user}`);
        const userId = Number(user.id);
        const upload = await readUpload(basename(file), new Uint8Array(await readFile(file)));
        const mapping: ColumnMapping = options.map.length > 0 ? {} : guessColumns(upload.columns);
        for (const pair of options.map) {
          const [field, column] = pair.split('=', 2);
          if (!(ENRICHMENT_FIELDS as readonly string[]).includes(field) || column === undefined) {
            fail(`--map ${pair}: give field=column with a field of ${ENRICHMENT_FIELDS.join(', ')}`);
          }
          const index = /^\d+$/.test(column) ? Number(column) - 1 : upload.columns.indexOf(column);
          if (index < 0 || index >= upload.columns.length) fail(`--map ${pair}: the file has no such column`);
          mapping[field as keyof ColumnMapping] = index;
        }
        const id = await createEnrichment(db, userId, upload, mapping);
        const described = ENRICHMENT_FIELDS.filter((f) => mapping[f] !== undefined)
          .map((f) => `${f} = “${upload.columns[mapping[f] as number]}”`)
          .join(', ');
        console.log(`Enrichment #${id}: ${upload.rows.length} rows; columns ${described || 'none recognised'}.`);
        const balance = await startEnrichment(db, userId, id, mapping);
        const cost = enrichmentCost({ rowsTotal: upload.rows.length });
        console.log(`Charged ${cost} credit${cost === 1 ? '' : 's'}; balance ${balance}.`);
        const reference = await loadReference(db);
        const bar = progressBar('rows', upload.rows.length);
        const started = Date.now();
        let finished = false;
        const follow = (async () => {
          while (!finished) {
            const e = await getEnrichment(db, userId, id);
            bar.update(e.rowsDone);
            if (e.status === 'done' || e.status === 'failed') break;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        })();
        if (options.work) {
          const services = { db, reference } as JobServices;
          const log = { info: () => {}, error: (o: Record<string, unknown>, m: string) => console.error(m, o) };
          // Works enrichment jobs (its own first in line, being the newest queued one after any older).
          for (;;) {
            const e = await getEnrichment(db, userId, id);
            if (e.status === 'done' || e.status === 'failed') break;
            const ran = await runOneJob(
              { services, log, definitions: [enrichmentJob as JobDefinition<never>], retryDelay: () => 0 },
              `cli:${process.pid}`,
            );
            if (!ran) await new Promise((resolve) => setTimeout(resolve, 500));
          }
        }
        await follow;
        finished = true;
        bar.stop();
        const done = await getEnrichment(db, userId, id);
        if (done.status === 'failed') fail(`The enrichment failed and its credits were refunded: ${done.error}`);
        const counts = await outcomeCounts(db, id);
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        console.log(
          `Done in ${seconds} s: ${counts.matched} matched, ${counts.accepted} taken from earlier decisions, ${counts.review} to review, ${counts.unmatched + counts.rejected} without a match.`,
        );
        if (options.out) {
          const prepared = await prepareEnrichedFile(db, reference, {
            userId,
            id,
            format: options.format,
            sections: sections as typeof DEFAULT_COMPANY_SECTIONS,
            lang: 'en',
          });
          const partial = `${options.out}.partial`;
          try {
            await prepared.write(createWriteStream(partial));
            await rename(partial, options.out);
          } catch (error) {
            await rm(partial, { force: true });
            throw error;
          }
          console.log(`Wrote ${options.out}.`);
        }
      } catch (error) {
        if (error instanceof AppError) fail(error.message);
        throw error;
      } finally {
        await db.close();
      }
    });
}
