import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import type { HistoryPageData } from '../presenters/user-data.server.ts';
import { RowAction } from './account-form.tsx';
import { HistoryCellContent, HistoryFilters, HistoryPager } from './history.tsx';
import { Notice, UserDataNav } from './user-data.tsx';

// The monitoring pages (spec §2: updates, update reports, new-company monitoring and its reports):
// the history pages' filters, table and pager (app/components/history.tsx), with a tracking's row
// actions — pause or resume, stop tracking — and the links between the four pages.

const MONITORING_PAGES = [
  ['/companies/monitoring/updates/', 'monitoring.updates.title'],
  ['/companies/monitoring/updates/reports/', 'monitoring.updateReports.title'],
  ['/companies/monitoring/new/', 'monitoring.new.title'],
  ['/companies/monitoring/new/reports/', 'monitoring.newReports.title'],
] as const;

function useLang() {
  const { lang } = useParams();
  return isLang(lang) ? lang : 'en';
}

export function MonitoringNav() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  return (
    <nav className="user-data-nav monitoring-nav" aria-label={t('monitoring.navigation')}>
      <ul>
        {MONITORING_PAGES.map(([path, key]) => {
          const href = localePath(lang, path);
          return (
            <li key={path}>
              <a href={href} aria-current={location.pathname === href ? 'page' : undefined}>
                {t(key)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function MonitoringPage({
  data,
  texts,
  trackings,
  addHref,
}: {
  data: HistoryPageData;
  texts: { title: string; queryLabel: string; empty: string };
  /** Rows are trackings: pause or resume, stop tracking. */
  trackings?: boolean;
  /** "Track new companies" (the new-company pages). */
  addHref?: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const { rows, columns } = data;
  // The reports of one run (`?reports=`, what a notification or the digest links to): the way to all of them.
  const oneRun = new URLSearchParams(location.search).has('reports');
  return (
    <div className="user-data-page monitoring-page">
      <UserDataNav />
      <MonitoringNav />
      <h1>{texts.title}</h1>
      {data.done ? <Notice>{t(`monitoring.done.${data.done}`, { count: data.count, defaultValue: '' })}</Notice> : null}
      {addHref ? (
        <p>
          <a className="button" href={addHref}>
            {t('monitoring.new.add')}
          </a>
        </p>
      ) : null}
      <HistoryFilters action={data.action} values={data.filters} queryLabel={texts.queryLabel} />
      {oneRun ? (
        <p className="one-run">
          {t('monitoring.oneRun')} <a href={data.action}>{t('monitoring.allReports')}</a>
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="empty">{data.filters.active ? t('history.noMatch') : texts.empty}</p>
      ) : (
        // Rows are cards on a phone (ADR 0022): every column, the updates too, in the first screen.
        <div className="row-cards">
          <div className="table-wrap">
            <table className="results-table style-2">
              <thead>
                <tr>
                  {columns.map((label) => (
                    <th key={label} scope="col">
                      {label}
                    </th>
                  ))}
                  {trackings ? (
                    <th scope="col">
                      <span className="visually-hidden">{t('monitoring.columns.actions')}</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    {row.cells.map((cell, i) => (
                      <td
                        key={columns[i]}
                        data-label={columns[i]}
                        className={cell.number ? 'number' : cell.lines ? 'lines' : undefined}
                      >
                        <HistoryCellContent cell={cell} />
                      </td>
                    ))}
                    {trackings ? (
                      <td className="row-actions">
                        <RowAction
                          action={data.action}
                          intent="status"
                          fields={{ id: row.id, status: row.status === 'paused' ? 'active' : 'paused' }}
                          label={t(row.status === 'paused' ? 'monitoring.resumeOne' : 'monitoring.pauseOne', {
                            name: row.name,
                          })}
                        >
                          {t(row.status === 'paused' ? 'monitoring.resume' : 'monitoring.pause')}
                        </RowAction>
                        <RowAction
                          action={data.action}
                          intent="delete"
                          fields={{ id: row.id }}
                          label={t('monitoring.removeOne', { name: row.name })}
                        >
                          {t('monitoring.remove')}
                        </RowAction>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      <HistoryPager firstHref={data.firstHref} nextHref={data.nextHref} />
    </div>
  );
}
