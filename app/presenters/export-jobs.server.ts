import { data } from 'react-router';
import { AppError } from '../../core/errors/app-error.ts';
import { type ExportJob, exportProgress, getExportJob, listExportJobs } from '../../core/export/export-jobs.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { requireUser } from '../require-user.server.ts';
import { type ContextReader, servicesContext } from '../services.ts';
import { balanceOf, creditsText } from './billing.server.ts';
import { type Presenter, presenter } from './present.server.ts';
import { userPageSeo } from './user-data.server.ts';

// The exports pages (docs/decisions/0031-export-jobs.md): /dashboard/exports/ lists the user's
// exports of the last 7 days, each downloadable again once done; /dashboard/exports/{id}/ follows
// one — the rows written of the total, refreshing itself while it runs (no script needed), the
// charge and the balance after it, and the download once done.

/** A file's length as the reader's language writes it: "12.5 KB", "3.1 MB". */
function sizeText(p: Presenter, bytes: number): string {
  const unit = bytes >= 1024 * 1024 ? 'megabyte' : 'kilobyte';
  const value = bytes / (unit === 'megabyte' ? 1024 * 1024 : 1024);
  return new Intl.NumberFormat(p.lang, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

function row(p: Presenter, job: ExportJob) {
  return {
    id: job.id,
    fileName: job.fileName,
    href: p.path(`/dashboard/exports/${job.id}/`),
    rows:
      job.status === 'done'
        ? p.number(job.rowsWritten)
        : p.t('exports.progressRows', { done: p.number(job.rowsWritten), total: p.number(job.rowsTotal) }),
    status: job.status,
    statusText: p.t(`exports.statuses.${job.status}`),
    started: p.dateTime(job.createdAt),
    until: p.date(job.expiresAt),
    download: job.status === 'done' ? `/api/exports/${job.id}/file` : null,
  };
}

export async function loadExportJobsPage(context: ContextReader, lang: Lang) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  const seo = { ...userPageSeo(context, lang, '/dashboard/exports/', 'exports.title', 'exports.description') };
  const jobs = await listExportJobs(db, auth.user.id);
  return {
    seo: { ...seo, noindex: true },
    exports: jobs.map((job) => row(p, job)),
    // Something still running: the list refreshes itself too.
    running: jobs.some((job) => job.status === 'queued' || job.status === 'running'),
  };
}

export async function loadExportJobPage(context: ContextReader, lang: Lang, idText: string | undefined) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const p = presenter(reference, lang);
  if (!idText || !/^\d{1,15}$/.test(idText)) throw data({ message: 'Not found' }, { status: 404 });
  let job: ExportJob;
  try {
    job = await getExportJob(db, auth.user.id, Number(idText));
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found')
      throw data({ message: error.message }, { status: 404 });
    throw error;
  }
  const path = `/dashboard/exports/${job.id}/`;
  const seo = { ...userPageSeo(context, lang, path, 'exports.title', 'exports.description'), noindex: true };
  seo.title = p.t('exports.jobTitle', { name: job.fileName });
  // The balance after the charge: the export was charged when it started (ADR 0019).
  const balance = (await balanceOf(db, auth.user.id)) ?? 0;
  const running = job.status === 'queued' || job.status === 'running';
  return {
    seo,
    ...row(p, job),
    title: seo.title,
    back: p.path('/dashboard/exports/'),
    self: p.path(path),
    running,
    progress: { value: job.rowsWritten, max: Math.max(1, job.rowsTotal) },
    percent: exportProgress(job),
    charged: p.t('exports.charged', { cost: creditsText(p, job.credits), balance: creditsText(p, balance) }),
    size:
      job.status === 'done' && job.sizeBytes !== null
        ? p.t('exports.size', { rows: p.number(job.rowsWritten), size: sizeText(p, job.sizeBytes) })
        : null,
    failed: job.status === 'failed' ? p.t('exports.failed', { error: job.error ?? '' }) : null,
    kept: p.t('exports.kept'),
  };
}
