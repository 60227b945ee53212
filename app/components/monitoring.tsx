import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import type { HistoryPageData } from '../presenters/user-data.server.ts';
import { CsrfField, RowAction } from './account-form.tsx';
import { HistoryCellContent, HistoryFilters, HistoryPager } from './history.tsx';
import { GatedLink, Notice, UserDataNav } from './user-data.tsx';

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
  const { rows, columns } = data;
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
                    <td key={columns[i]} data-label={columns[i]} className={cell.number ? 'number' : undefined}>
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
      )}
      <HistoryPager firstHref={data.firstHref} nextHref={data.nextHref} />
    </div>
  );
}

/**
 * "Track updates" for one company (a profile) or the ticked rows (`form=` checkboxes of search
 * results and lists): the form for a signed-in user, the gated link for a guest (spec §5).
 */
export function TrackButton({
  signedIn,
  companyId,
  tracked,
  returnTo,
  id = 'track-form',
  selection,
}: {
  signedIn: boolean;
  companyId?: number;
  tracked?: boolean;
  /** Where to come back to (default: this page). */
  returnTo?: string;
  id?: string;
  /** The checkboxes whose ticked companies a guest's pending action carries. */
  selection?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const label = companyId !== undefined ? t('monitoring.track') : t('monitoring.trackSelected');
  if (!signedIn) {
    return (
      // The page's own sign-in gate and island serve this link (one popup, one island a page).
      <GatedLink action="track" text={t('gate.track')} select={selection}>
        {label}
      </GatedLink>
    );
  }
  if (tracked) {
    return (
      <p className="tracking-state">
        {t('monitoring.tracking')}{' '}
        <a href={localePath(lang, '/companies/monitoring/updates/')}>{t('monitoring.seeTracking')}</a>
      </p>
    );
  }
  return (
    <form
      method="post"
      action={localePath(lang, '/companies/monitoring/track/')}
      id={id}
      className="track-form"
      data-pending="track"
    >
      <CsrfField />
      {companyId !== undefined ? <input type="hidden" name="ids" value={companyId} /> : null}
      <input type="hidden" name="returnTo" value={returnTo ?? location.pathname} />
      <button type="submit" className="secondary">
        {label}
      </button>
    </form>
  );
}

/**
 * "Track selected companies" for a signed-in user: submits the form the rows' checkboxes belong
 * to (the search results' "add to list", a list's row actions) to the tracking instead
 * (`formaction`), with its CSRF token — as CompareSelected does.
 */
export function TrackSelected({ form }: { form: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <button
      type="submit"
      form={form}
      formAction={localePath(lang, '/companies/monitoring/track/')}
      formMethod="post"
      formNoValidate
      className="secondary"
      data-pending="track"
    >
      {t('monitoring.trackSelected')}
    </button>
  );
}

/** "Track new companies of this search": the form that defines a tracking, with this search chosen. */
export function TrackSearchLink({ query, signedIn }: { query: string; signedIn: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!signedIn) {
    return (
      <GatedLink action="track" text={t('gate.track')}>
        {t('monitoring.trackSearch')}
      </GatedLink>
    );
  }
  return (
    <a
      className="button secondary"
      href={`${localePath(lang, '/companies/monitoring/new/add/')}?query=${encodeURIComponent(query)}`}
    >
      {t('monitoring.trackSearch')}
    </a>
  );
}
