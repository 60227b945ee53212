import { useTranslation } from 'react-i18next';
import type { HistoryCell, HistoryPageData } from '../presenters/user-data.server.ts';
import { CsrfField, RowAction } from './account-form.tsx';
import { ReportChanges } from './change-lines.tsx';
import { Flag } from './flag.tsx';
import { Notice, UserDataNav } from './user-data.tsx';

/**
 * A history page (views, searches, purchases): its filters, its table of entries with a delete
 * button each, paging, and "clear"; `texts` are the page's own translated words.
 */
export function HistoryPage({
  data,
  texts,
}: {
  data: HistoryPageData;
  texts: { title: string; queryLabel: string; empty: string; clearConfirm: string };
}) {
  const { t } = useTranslation();
  const { rows, columns } = data;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <h1>{texts.title}</h1>
      {data.done ? <Notice>{t(`history.done.${data.done}`, { count: data.count, defaultValue: '' })}</Notice> : null}
      <HistoryFilters action={data.action} values={data.filters} queryLabel={texts.queryLabel} />
      {rows.length === 0 ? (
        <p className="empty">{data.filters.active ? t('history.noMatch') : texts.empty}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                {columns.map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {row.cells.map((cell, i) => (
                    <td key={columns[i]} data-label={columns[i]} className={cell.number ? 'number' : undefined}>
                      <HistoryCellContent cell={cell} />
                    </td>
                  ))}
                  <td className="row-actions">
                    <RowAction
                      action={data.action}
                      intent="delete"
                      fields={{ id: row.id }}
                      label={t('history.deleteOne', { name: row.name })}
                    >
                      {t('history.delete')}
                    </RowAction>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <HistoryPager firstHref={data.firstHref} nextHref={data.nextHref} />
      {rows.length > 0 ? <ClearHistory action={data.action} confirm={texts.clearConfirm} /> : null}
    </div>
  );
}

export function HistoryCellContent({ cell }: { cell: HistoryCell }) {
  if (cell.dateTime) return <time dateTime={cell.dateTime}>{cell.text}</time>;
  if (cell.changes) return <ReportChanges changes={cell.changes} />;
  if (cell.lines) {
    return (
      <ul className="cell-lines">
        {cell.lines.map((line, i) => (
          <li key={i}>{line.href ? <a href={line.href}>{line.text}</a> : line.text}</li>
        ))}
      </ul>
    );
  }
  if (cell.flag) {
    return (
      <>
        <Flag code={cell.flag} />
        {cell.text}
      </>
    );
  }
  return cell.href ? <a href={cell.href}>{cell.text}</a> : cell.text;
}

/** The filters of a history page: text, and a day range (GET, in the URL). */
export function HistoryFilters({
  action,
  values,
  queryLabel,
}: {
  action: string;
  values: { q: string; from: string; to: string; active: boolean };
  queryLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <search>
      <form method="get" action={action} className="history-filters">
        <div className="field">
          <label htmlFor="history-q">{queryLabel}</label>
          <input id="history-q" name="q" type="search" defaultValue={values.q} />
        </div>
        <div className="field">
          <label htmlFor="history-from">{t('history.from')}</label>
          <input id="history-from" name="from" type="date" defaultValue={values.from} />
        </div>
        <div className="field">
          <label htmlFor="history-to">{t('history.to')}</label>
          <input id="history-to" name="to" type="date" defaultValue={values.to} />
        </div>
        <button type="submit" className="secondary">
          {t('history.filter')}
        </button>
        {values.active ? <a href={action}>{t('history.showAll')}</a> : null}
      </form>
    </search>
  );
}

/** Newest page and next page links. */
export function HistoryPager({ firstHref, nextHref }: { firstHref: string | null; nextHref: string | null }) {
  const { t } = useTranslation();
  if (!firstHref && !nextHref) return null;
  return (
    <nav className="pagination" aria-label={t('search.pagination')}>
      {firstHref ? <a href={firstHref}>← {t('history.newest')}</a> : <span />}
      {nextHref ? (
        <a href={nextHref} rel="next">
          {t('search.next')} →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** "Clear history" (after a confirmation step), for a history page that has entries. */
export function ClearHistory({ action, confirm }: { action: string; confirm: string }) {
  const { t } = useTranslation();
  return (
    <details className="clear-history">
      <summary>{t('history.clear')}</summary>
      <form method="post" action={action}>
        <CsrfField />
        <input type="hidden" name="intent" value="clear" />
        <p>{confirm}</p>
        <button type="submit" className="danger">
          {t('history.clearNow')}
        </button>
      </form>
    </details>
  );
}
