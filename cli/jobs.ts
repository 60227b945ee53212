import type { Command } from 'commander';
import type { Lang } from '../core/reference/reference-data.ts';
import type { JobLog, JobServices } from '../jobs/worker.ts';
import { type Env, mailSettings } from '../server/env.ts';

// `jobs work`: the job worker as a process of its own (the server runs one too unless
// JOBS_WORKER=off); `--once` runs what is due and exits. `jobs list` shows the newest jobs and
// their failures; `jobs enqueue-reports` asks for a monitoring reports run now.

const log: JobLog = {
  info: (object, message) => console.log(`${message} ${JSON.stringify(object)}`),
  error: (object, message) => console.error(`${message} ${JSON.stringify(object)}`),
};

async function translator() {
  const { i18nFor } = await import('../core/i18n/i18n.ts');
  return (lang: Lang) => {
    const { t } = i18nFor(lang);
    return (key: string, values?: Record<string, unknown>) => (values ? t(key, values) : t(key));
  };
}

export function registerJobsCommand(program: Command, env: Env): void {
  const jobs = program.command('jobs').description('Background jobs: monitoring reports and their emails');

  jobs
    .command('work')
    .description('Run the job worker until stopped (Ctrl-C); --once runs the due jobs and exits')
    .option('--once', 'run the jobs that are due, then exit')
    .action(async (options: { once?: boolean }) => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReference } = await import('../core/reference/reference-data.ts');
      const { createMailer } = await import('../core/email/mailer.ts');
      const { drainJobs, startWorker } = await import('../jobs/worker.ts');
      const translate = await translator();
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      const reference = await loadReference(db);
      const mailer = createMailer({ db, settings: mailSettings(env), log, translate });
      const services: JobServices = {
        db,
        reference,
        mailer,
        siteUrl: env.SITE_URL,
        translate,
        allowPrivateWebhookHosts: env.WEBHOOKS_ALLOW_PRIVATE_HOSTS === '1',
        bulkDataDir: env.BULK_DATA_DIR,
      };
      if (options.once) {
        const ran = await drainJobs({ services, log });
        console.log(`Ran ${ran} job${ran === 1 ? '' : 's'}.`);
      } else {
        const worker = startWorker({ services, log });
        console.log('Job worker running (Ctrl-C stops it; a long job stops at its next step and is queued again).');
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await worker.stop();
      }
      await mailer.close();
      await db.close();
    });

  jobs
    .command('list')
    .description('The newest jobs, their status and last error')
    .option('--limit <n>', 'how many', (v) => Number.parseInt(v, 10), 20)
    .action(async (options: { limit: number }) => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { recentJobs } = await import('../core/jobs/queue.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      for (const job of await recentJobs(db, options.limit)) {
        console.log(
          `#${job.id} ${job.kind} ${job.status} (attempts ${job.attempts}) ${job.created_at}${job.last_error ? ` — ${job.last_error}` : ''}`,
        );
      }
      await db.close();
    });

  jobs
    .command('enqueue-reports')
    .description('Ask for a monitoring reports run now (a worker builds it)')
    .action(async () => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { enqueueJob } = await import('../core/jobs/queue.ts');
      const { MONITORING_REPORTS_JOB } = await import('../core/monitoring/enqueue-reports.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      const id = await enqueueJob(
        db,
        MONITORING_REPORTS_JOB,
        { reason: 'manual' },
        { dedupeKey: MONITORING_REPORTS_JOB },
      );
      console.log(id === null ? 'A reports run is already waiting.' : `Queued job #${id}.`);
      await db.close();
    });
}
