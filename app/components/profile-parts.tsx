import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import copyButtonsScript from '../islands/copy-buttons.js?raw';
import { inlineScript } from '../islands/inline-script.ts';
import type { OwnershipView } from '../presenters/ownership.server.ts';
import type { ProfilePage } from '../presenters/profile-page.server.ts';
import { FinancialsChart } from './charts/financials-chart.tsx';
import { CompanyTable } from './company-table.tsx';
import { ConnectionsGraphView } from './connections-graph.tsx';
import { Flag } from './flag.tsx';
import { OwnershipBody } from './ownership.tsx';

// The parts of a company's profile that are the same for every viewer of one company version, one
// language and one paywall state (ADR 0040, "Rendered parts"): rendered apart, to HTML, by
// app/presenters/profile-parts.server.tsx, which keeps them. They read nothing of the router or the
// session (no route hooks): only the profile given and the language's messages.

const COPY_SCRIPT = inlineScript(copyButtonsScript);

/** Where the Ownership section goes in the profile's body: cut out of the kept HTML and rendered per request. */
export const OWNERSHIP_SLOT = '<template data-slot="ownership"></template>';

/** The profile's name and badges: the inside of `<header class="profile-header">`. */
export function ProfileHeader({ profile }: { profile: ProfilePage }) {
  const { t } = useTranslation();
  return (
    <>
      <h1>{profile.name}</h1>
      <p className="profile-badges">
        <span className={`badge status-${profile.status.tone}`}>{profile.status.text}</span>{' '}
        <a href={profile.jurisdictionHref} className="badge">
          <Flag code={profile.jurisdiction.flag} />
          {profile.jurisdiction.text}
        </a>{' '}
        {profile.advanced ? (
          <span className="badge advanced" title={t('profile.advancedHint')}>
            {t('profile.advanced')}
          </span>
        ) : null}
      </p>
    </>
  );
}

/** Who the company is, in one screen (ADR 0022): the inside of `<section class="profile-summary">`. */
export function ProfileOverview({ profile }: { profile: ProfilePage }) {
  const { t } = useTranslation();
  return (
    <>
      <h2 id="overview">{t('profile.overview')}</h2>
      <dl className="overview">
        {profile.summary.map((item) => (
          <div key={item.key} data-summary={item.key}>
            <dt>{item.label}</dt>
            <dd>
              <Flag code={item.flag} />
              {item.copy ? (
                <>
                  <span id={`copy-${item.key}`} className="copy-value">
                    {item.value}
                  </span>{' '}
                  <button
                    type="button"
                    className="copy-button"
                    data-copy={`copy-${item.key}`}
                    data-copied={t('profile.summary.copied')}
                    aria-label={t('profile.summary.copyLabel', { label: item.label })}
                    hidden
                  >
                    {t('profile.summary.copy')}
                  </button>
                  <span className="copy-status" role="status" />
                </>
              ) : item.href ? (
                <a href={item.href}>{item.value}</a>
              ) : (
                item.value
              )}
              {item.note ? <span className="note"> · {item.note}</span> : null}
            </dd>
          </div>
        ))}
      </dl>
      {profile.summarySources ? <p className="provenance">{profile.summarySources}</p> : null}
      {profile.summary.some((item) => item.copy) ? <script dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} /> : null}
      {profile.financials ? <FinancialsChart chart={profile.financials} /> : null}
    </>
  );
}

/**
 * The profile's body: the inside of `<div class="profile-body">` — its contents and its detail
 * (timeline, sections, related records, connections). With `ownership`, the contents list the
 * Ownership section and the detail holds OWNERSHIP_SLOT where it goes.
 */
export function ProfileBody({ profile, ownership }: { profile: ProfilePage; ownership: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <nav className="profile-toc" aria-label={t('profile.contents')}>
        <ul>
          {profile.timeline.length > 0 ? (
            <li>
              <a href="#timeline">
                {t('profile.timeline.title')} ({profile.timeline.length})
              </a>
            </li>
          ) : null}
          {profile.sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>
                {s.title} ({s.rows.length})
              </a>
            </li>
          ))}
          {ownership ? (
            <li>
              <a href="#ownership">{t('ownership.title')}</a>
            </li>
          ) : null}
          {profile.records.map((r) => (
            <li key={r.id}>
              <a href={`#${r.id}`}>
                {r.title} ({r.totalText})
              </a>
            </li>
          ))}
          {profile.graph ? (
            <li>
              <a href="#connections-graph">{t('people.graph.title')}</a>
            </li>
          ) : null}
        </ul>
      </nav>
      <div className="profile-detail">
        {profile.timeline.length > 0 ? (
          <Collapsible id="timeline" title={t('profile.timeline.title')} count={String(profile.timeline.length)}>
            <ol className="timeline">
              {profile.timeline.map((entry) => (
                <li key={entry.key}>
                  <time dateTime={entry.date}>{entry.dateText}</time>{' '}
                  <span className="timeline-kind">{entry.kind}</span>{' '}
                  {entry.href ? <a href={entry.href}>{entry.text}</a> : <span>{entry.text}</span>}
                </li>
              ))}
            </ol>
          </Collapsible>
        ) : null}
        {profile.sections.map((section) => (
          <Collapsible key={section.id} id={section.id} title={section.title} count={String(section.rows.length)}>
            {'locked' in section ? <p className="muted">{t('billing.cost.locked')}</p> : null}
            {section.rows.length === 0 ? (
              'locked' in section ? null : (
                <p className="muted">{t('profile.none')}</p>
              )
            ) : (
              <table className="profile-table">
                <tbody>
                  {section.rows.map((row) => (
                    <tr key={row.key}>
                      <th scope="row">{row.label}</th>
                      <td>
                        {row.href ? <a href={row.href}>{row.value}</a> : row.value}
                        {row.note ? <span className="note"> · {row.note}</span> : null}
                        {row.links && row.links.length > 0 ? (
                          <span className="note">
                            {' '}
                            · {t('profile.alsoOn')}:{' '}
                            {row.links.map((l, j) => (
                              <span key={l.href}>
                                {j > 0 ? '; ' : ''}
                                <a href={l.href}>{l.name}</a>
                              </span>
                            ))}
                          </span>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {section.sources && !('locked' in section) ? <p className="provenance">{section.sources}</p> : null}
          </Collapsible>
        ))}
        {/* ---- ownership (ADR 0038): the chain up, the owners, the group below; per request ---- */}
        {ownership ? <template data-slot="ownership" /> : null}
        {profile.records.map((records) => (
          <Collapsible key={records.id} id={records.id} title={records.title} count={records.totalText}>
            {'locked' in records ? <p className="muted">{t('billing.cost.locked')}</p> : null}
            <CompanyTable columns={records.columns} rows={records.rows} />
            {records.sources ? <p className="provenance">{records.sources}</p> : null}
            {records.allHref ? (
              <p>
                <a href={records.allHref}>{t('profile.seeAll', { total: records.totalText })}</a>
              </p>
            ) : null}
          </Collapsible>
        ))}
        {/* ---- people (ADR 0022): who is connected to the company, as a picture and a list ---- */}
        {profile.graph ? <ConnectionsGraphView graph={profile.graph} id="connections-graph" /> : null}
        {profile.emptyRecordTypes.length > 0 ? (
          <p className="muted">{t('profile.noRecordsOf', { types: profile.emptyRecordTypes.join(', ') })}</p>
        ) : null}
      </div>
    </>
  );
}

/** The Ownership section (ADR 0038), the same for a guest and a user, browsed by the request's `group_*` query. */
export function OwnershipSection({ ownership }: { ownership: OwnershipView }) {
  const { t } = useTranslation();
  return (
    <Collapsible id="ownership" title={t('ownership.title')}>
      <OwnershipBody ownership={ownership} />
    </Collapsible>
  );
}

/** A profile section that folds (details/summary: no script needed), open when the page loads. */
function Collapsible({
  id,
  title,
  count,
  children,
}: {
  id: string;
  title: string;
  /** Shown beside the title; a section that counts nothing has none. */
  count?: string;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="profile-section">
      <details open>
        <summary>
          <h2 id={`${id}-title`}>
            {title}
            {count === undefined ? null : (
              <>
                {' '}
                <span className="count">({count})</span>
              </>
            )}
          </h2>
        </summary>
        {children}
      </details>
    </section>
  );
}
