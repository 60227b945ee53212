import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { parseAsOfDay } from '../../../core/companies/as-of.ts';
import { currentCompanyUri } from '../../../core/companies/company-uri.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { purchaseProfile } from '../../../core/purchases/purchases.ts';
import { staleReads } from '../../../core/services.ts';
import { findVisibleCompany } from '../../../core/takedowns/visible.ts';
import { ProfilePurchase } from '../../components/billing.tsx';
import { FinancialsChart } from '../../components/charts/financials-chart.tsx';
import { CompanyTable } from '../../components/company-table.tsx';
import { AddToComparison } from '../../components/comparison-actions.tsx';
import { ConnectionsGraphView } from '../../components/connections-graph.tsx';
import { Flag } from '../../components/flag.tsx';
import { OwnershipBody } from '../../components/ownership.tsx';
import { ProfileListActions, TrackButton } from '../../components/user-data.tsx';
import copyButtonsScript from '../../islands/copy-buttons.js?raw';
import { inlineScript } from '../../islands/inline-script.ts';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { profileOffer } from '../../presenters/billing.server.ts';
import { groupQuery, loadOwnership } from '../../presenters/ownership.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { type AsOfView, loadProfilePage } from '../../presenters/profile-page.server.ts';
import { profileUserData } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { serverRendered } from '../../server-rendered.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/details';

/**
 * The profile's `as_of` (docs/decisions/0028-company-as-of.md): a day no later than today (UTC), or
 * null for today's profile; anything else is a 400 naming it.
 */
function asOfQuery(url: URL): string | null {
  const raw = url.searchParams.get('as_of');
  if (raw === null || raw === '') return null;
  const parsed = parseAsOfDay('as_of', raw);
  if (!parsed.ok) throw data({ message: parsed.message }, { status: 400 });
  return parsed.day;
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const asOf = asOfQuery(url);
  const group = groupQuery(url);
  const auth = context.get(authContext);
  // The contact details the viewer bought are shown, nobody else's (ADR 0029).
  const profile = await loadProfilePage(services, lang, params.uri, asOf, auth?.user.id);
  if (!profile) {
    // The right id with a wrong or old slug: the company's own address, for good.
    const current = await currentCompanyUri(staleReads(services), params.uri);
    if (current)
      throw redirect(localePath(lang, `/companies/details/${encodeURIComponent(current)}/${url.search}`), 301);
    throw data({ message: 'company not found' }, { status: 404 });
  }
  if ('notYet' in profile) {
    // Before the company appeared: a page that says so (not found, at that day).
    return data(
      serverRendered(
        {
          seo: {
            siteUrl: services.siteUrl,
            lang,
            path: `/companies/details/${encodeURIComponent(profile.uri)}/`,
            title: `${profile.name} — Registra`,
            description: profile.name,
            noindex: true,
          },
        },
        { profile: null, notYet: profile, user: null, offer: null, ownership: null },
      ),
      { status: 404 },
    );
  }
  // Read first, side by side; a group level refused (a 400) records no view.
  const [offer, ownership] = await Promise.all([
    // The full profile (docs/decisions/0019-billing.md): its contact details are shown to a user
    // who bought it; everyone else sees its price, the balance after, and how to buy it.
    profileOffer(services.db, presenter(services.reference, lang), auth?.user.id, profile.id, profile.advanced),
    // Who owns the company and what it owns (ADR 0038), the same for a guest and a user: public
    // registers' statements, nothing to buy. An as-of profile has none (ownership keeps no history here).
    profile.asOf
      ? null
      : loadOwnership(
          staleReads(services),
          presenter(services.reference, lang),
          { id: profile.id, name: profile.name, path: `/companies/details/${encodeURIComponent(profile.uri)}/` },
          group,
        ),
  ]);
  // A signed-in user's view goes into their browsing history, and they can add the company to a
  // list; a guest costs nothing more.
  const user = await profileUserData(context, profile.id);
  // The presenter left the gated values out (core/purchases/paywall.ts); the sections that had
  // them say where they are.
  const full = offer.boughtOn !== null || offer.nothingToBuy;
  const shown = full
    ? profile
    : {
        ...profile,
        sections: profile.sections.map((s) => (s.id === 'contacts' ? { ...s, locked: true } : s)),
        records: profile.records.map((r) =>
          r.id === 'records-contacts' || r.id === 'records-connections' ? { ...r, locked: true } : r,
        ),
      };
  // This page never hydrates: its view model is read by the server render only, not encoded for
  // the browser (app/server-rendered.ts).
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: `/companies/details/${encodeURIComponent(profile.uri)}/`,
        title: `${profile.name} — ${profile.jurisdiction.text} — Registra`,
        description: profile.description,
        // A profile as of a past day is today's page's past, not a page of its own to index.
        noindex: profile.asOf !== null,
      },
    },
    { profile: shown, notYet: null, user, offer, ownership },
  );
}

/** Buys the full profile: its credits are spent once, and the page shows it; too few credits go to the pricing page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const form = await request.formData();
  const here = localePath(lang, `/companies/details/${encodeURIComponent(params.uri)}/`);
  if (formText(form, 'intent') !== 'buy-profile') return redirect(here, 303);
  // A company taken down is not for sale: a 404, as its profile, and nothing is charged (ADR 0021).
  const company = await findVisibleCompany(services.db, params.uri);
  if (!company) throw data({ message: 'company not found' }, { status: 404 });
  try {
    await purchaseProfile(services.db, auth.user.id, Number(company.id));
  } catch (error) {
    // Nothing to unlock (ADR 0029): nothing was charged; the page says so.
    if (error instanceof AppError && error.code === 'conflict') return redirect(here, 303);
    if (error instanceof AppError && error.code === 'payment_required') {
      const { credits } = error.details as { credits: number };
      return redirect(`${localePath(lang, '/info/pricing/')}?cost=${credits}`, 303);
    }
    throw error;
  }
  return redirect(`${here}#contacts`, 303);
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

const COPY_SCRIPT = inlineScript(copyButtonsScript);

export default function CompanyDetails({ loaderData }: Route.ComponentProps) {
  const { profile, notYet, user, offer, ownership } = loaderData;
  const { t } = useTranslation();
  if (notYet || !profile || !offer)
    return (
      <article className="profile">
        <header className="profile-header">
          <h1>{t('asOf.notYetTitle', { name: notYet?.name, date: notYet?.asOf.dayText })}</h1>
        </header>
        {notYet ? <AsOfBanner asOf={notYet.asOf} /> : null}
        <p>{t('asOf.notYetText', { date: notYet?.asOf.dayText })}</p>
      </article>
    );
  return (
    <article className="profile">
      {profile.asOf ? <AsOfBanner asOf={profile.asOf} /> : null}
      {/* A data block for search engines (schema.org), not a script: no browser runs it. */}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: profile.jsonLd }} />
      <header className="profile-header">
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
      </header>
      {/* ---- profile (ADR 0022): who the company is, in one screen, above the detail ---- */}
      <section aria-labelledby="overview" className="profile-summary">
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
        {profile.summary.some((item) => item.copy) ? (
          <script dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
        ) : null}
        {profile.financials ? <FinancialsChart chart={profile.financials} /> : null}
      </section>
      <div className="profile-actions">
        <ProfileListActions companyId={profile.id} user={user} />
        <div className="user-actions profile-tracking">
          <TrackButton signedIn={user !== null} companyId={profile.id} tracked={user?.tracked} />
        </div>
        <AddToComparison companyId={profile.id} />
        {/* The gate and its island come with the list actions above (one popup, one island a page). */}
        {/* An as-of profile shows no contacts (they have no history): nothing to buy on it. */}
        {profile.asOf ? null : <ProfilePurchase offer={offer} />}
      </div>
      <nav className="profile-tabs" aria-label={t('profile.tabs')}>
        <a href="#overview" aria-current="page">
          {t('profile.tabProfile')}
        </a>{' '}
        <a href={profile.historyHref}>{t('profile.tabHistory')}</a>
      </nav>
      {profile.asOf ? null : <AsOfForm action={profile.asOfHref} day={null} />}
      <div className="profile-body">
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
          {/* ---- ownership (ADR 0038): the chain up, the owners, the group below ---- */}
          {ownership ? (
            <Collapsible id="ownership" title={t('ownership.title')}>
              <OwnershipBody ownership={ownership} />
            </Collapsible>
          ) : null}
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
      </div>
    </article>
  );
}

/** Says that the profile is as of a past day (docs/decisions/0028-company-as-of.md), and lets another day be chosen. */
function AsOfBanner({ asOf }: { asOf: AsOfView }) {
  const { t } = useTranslation();
  return (
    <aside className="as-of-banner" role="note" aria-label={t('asOf.pick')}>
      <p>
        <strong>{t('asOf.banner', { date: asOf.dayText })}</strong> — <a href={asOf.todayHref}>{t('asOf.seeToday')}</a>{' '}
        · <a href={asOf.compareHref}>{t('asOf.compare')}</a>
      </p>
      <p className="muted">{t('asOf.basis')}</p>
      <AsOfForm action={asOf.todayHref} day={asOf.day} />
    </aside>
  );
}

/** The date picker: the profile as of the day chosen (a GET form, no script). */
function AsOfForm({ action, day }: { action: string; day: string | null }) {
  const { t } = useTranslation();
  return (
    <form method="get" action={action} className="as-of-form">
      <label>
        {t('asOf.pick')}{' '}
        <input
          type="date"
          name="as_of"
          defaultValue={day ?? undefined}
          max={new Date().toISOString().slice(0, 10)}
          required
        />
      </label>{' '}
      <button type="submit">{t('asOf.show')}</button>
    </form>
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
  children: React.ReactNode;
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
