import { useTranslation } from 'react-i18next';
import { UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { loadExportJobPage } from '../../presenters/export-jobs.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/export-job';

// /dashboard/exports/{id}/: one export (docs/decisions/0031-export-jobs.md) — the rows written of
// the total while it runs (the page refreshes itself, no script needed; a Refresh link besides),
// the charge and the balance after it, then the download, or why it failed (credits given back).
// Closing the page does not stop the export.

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadExportJobPage(context, langOf(params), params.id);
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ExportJobPage({ loaderData: page }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="user-data-page export-job-page">
      <UserDataNav />
      <p className="breadcrumbs">
        <a href={page.back}>{t('exports.back')}</a>
      </p>
      <h1>{page.title}</h1>
      <p>
        <span className="export-job-status">{page.statusText}</span> · {page.charged}
      </p>
      {page.running ? (
        <section className="export-job-progress" aria-live="polite">
          {/* React hoists the refresh into the head: the page reloads until the file is ready, no script needed. */}
          <meta httpEquiv="refresh" content="2" />
          <progress max={page.progress.max} value={page.progress.value} />
          <p role="status">{page.rows}</p>
          <p className="field-hint">
            {t('exports.refreshHint')} <a href={page.self}>{t('exports.refresh')}</a>
          </p>
        </section>
      ) : null}
      {page.failed ? (
        <p role="alert" className="form-alert">
          {page.failed}
        </p>
      ) : null}
      {page.download ? (
        <section className="export-job-done">
          <p role="status">{page.size}</p>
          <p>
            <a className="button" href={page.download} download={page.fileName}>
              {t('exports.download', { name: page.fileName })}
            </a>
          </p>
        </section>
      ) : null}
      <p className="field-hint">{page.kept}</p>
    </div>
  );
}
