import { useTranslation } from 'react-i18next';
import { UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { loadExportJobsPage } from '../../presenters/export-jobs.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/exports';

// /dashboard/exports/: the user's exports of the last 7 days (docs/decisions/0031-export-jobs.md),
// newest first, each with its state and — once done — its download; the page refreshes itself
// while one is running (no script needed).

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadExportJobsPage(context, langOf(params));
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ExportsPage({ loaderData: page }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="user-data-page exports-page">
      <UserDataNav />
      <h1>{t('exports.title')}</h1>
      <p>{t('exports.kept')}</p>
      {/* React hoists the refresh into the head: the list follows a running export, no script needed. */}
      {page.running ? <meta httpEquiv="refresh" content="3" /> : null}
      {page.exports.length === 0 ? (
        <p className="empty">{t('exports.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('exports.file')}</th>
                <th scope="col">{t('exports.status')}</th>
                <th scope="col">{t('exports.rows')}</th>
                <th scope="col">{t('exports.started')}</th>
                <th scope="col">{t('exports.until')}</th>
              </tr>
            </thead>
            <tbody>
              {page.exports.map((e) => (
                <tr key={e.id}>
                  <td>
                    <a href={e.href}>{e.fileName}</a>
                  </td>
                  <td>
                    {e.download ? (
                      <a href={e.download} download={e.fileName}>
                        {t('export.download')}
                      </a>
                    ) : (
                      e.statusText
                    )}
                  </td>
                  <td>{e.rows}</td>
                  <td>{e.started}</td>
                  <td>{e.until}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
