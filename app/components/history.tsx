import { useTranslation } from 'react-i18next';
import { CsrfField } from './account-form.tsx';

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
