import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useRouteLoaderData } from 'react-router';
import { withReturnTo } from '../../core/accounts/account-links.ts';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import gateScript from '../islands/gate.js?raw';
import { inlineScript } from '../islands/inline-script.ts';
import type { RootData } from '../root.tsx';
import { CsrfField } from './account-form.tsx';

// What the pages of a user's data share: the sign-in gate for guests (spec §4, §5), the "add to
// list", "save search" and "track" forms, the section navigation, notices and field problems.

/** Pending actions a guest can start and finish after signing in (public/gate.js). */
export type GatedAction =
  | 'add-to-list'
  | 'create-list'
  | 'save-search'
  | 'save-table-view'
  | 'load-table-view'
  | 'export'
  | 'export-comparison'
  | 'track'
  // Enrichment (ADR 0020): upload a file of companies.
  | 'enrich'
  // Billing (docs/decisions/0019-billing.md): buy an offer of the pricing page, buy a full profile.
  | `buy-${string}`;

/** The id of the search results' "add to list" form, which the rows' checkboxes belong to. */
export const LIST_ADD_FORM = 'list-add';

function useLang() {
  const { lang } = useParams();
  return isLang(lang) ? lang : 'en';
}

export function useSignedIn(): boolean {
  const root = useRouteLoaderData('root') as RootData | undefined;
  return Boolean(root?.user);
}

/**
 * The island that opens the gate for guests and finishes a pending action after sign-in: a few
 * KB of plain script, inlined (reading pages load no script files, ADR 0004). Render it once, after
 * the page's gate and forms.
 */
export function GateScript() {
  return <script dangerouslySetInnerHTML={{ __html: GATE_SCRIPT }} />;
}

/** The island without its whole-line comments (they are for readers of the file, not for every page). */
const GATE_SCRIPT = inlineScript(gateScript);

/** The sign-in (or sign-up) page, coming back to this page with the action pending (in the fragment). */
function useAccountHref(page: '/account/login/' | '/account/sign-up/', action: GatedAction | null): string {
  const lang = useLang();
  const location = useLocation();
  const back = `${location.pathname}${location.search}${action ? `#pending=${action}` : ''}`;
  return withReturnTo(localePath(lang, page), back);
}

/**
 * The "Sign in to proceed" popup (once per page, for guests): gated controls open it instead of
 * acting; its sign-in link comes back here and finishes the action, and so does "Create an
 * account" (through the activation link, which signs in).
 */
export function SignInGate() {
  const { t } = useTranslation();
  const signIn = useAccountHref('/account/login/', null);
  const signUp = useAccountHref('/account/sign-up/', null);
  return (
    <dialog id="sign-in-gate" className="gate" aria-labelledby="sign-in-gate-title">
      <h2 id="sign-in-gate-title">{t('account.gate.title')}</h2>
      <p data-gate-message="">{t('gate.text')}</p>
      <p className="gate-actions">
        <a className="button" href={signIn} data-gate-return="">
          {t('account.signIn')}
        </a>
        <a href={signUp} data-gate-return="">
          {t('gate.signUp')}
        </a>
      </p>
      <form method="dialog">
        <button type="submit" className="secondary">
          {t('gate.cancel')}
        </button>
      </form>
    </dialog>
  );
}

/**
 * A gated control as a guest sees it: a link to the sign-in page (coming back with the action
 * pending) that the island turns into the popup. `select` names checkboxes whose ticked values
 * travel with the action.
 */
export function GatedLink({
  action,
  text,
  children,
  select,
}: {
  action: GatedAction;
  /** What the popup says: why signing in is needed. */
  text: string;
  children: ReactNode;
  select?: string;
}) {
  const href = useAccountHref('/account/login/', action);
  return (
    <a className="button gated" href={href} data-gate={action} data-gate-text={text} data-gate-select={select}>
      {children}
    </a>
  );
}

export type ListChoice = { number: number; name: string };

/**
 * "Add to list" for a signed-in user: the list (one of theirs, or a new one by name) and the
 * companies — a hidden id on a profile, the ticked rows (`form=` checkboxes) on search results.
 */
export function AddToListForm({
  lists,
  companyId,
  returnTo,
  id = LIST_ADD_FORM,
}: {
  lists: ListChoice[];
  /** The one company of a profile; without it, the ticked rows of the results. */
  companyId?: number;
  /** Where to come back to (a profile); without it, the list's page. */
  returnTo?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <form
      method="post"
      action={localePath(lang, '/companies/lists/add/')}
      id={id}
      className="list-add"
      data-pending="add-to-list"
    >
      <CsrfField />
      {companyId !== undefined ? <input type="hidden" name="ids" value={companyId} /> : null}
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      {lists.length > 0 ? (
        <>
          <label htmlFor={`${id}-list`}>{t('lists.addTo')}</label>
          <select id={`${id}-list`} name="list" defaultValue={String(lists[0].number)}>
            {lists.map((l) => (
              <option key={l.number} value={l.number}>
                {l.name}
              </option>
            ))}
            <option value="new">{t('lists.newListOption')}</option>
          </select>
          <label htmlFor={`${id}-new-name`}>{t('lists.newListName')}</label>
          <input
            id={`${id}-new-name`}
            name="new_name"
            type="text"
            maxLength={100}
            placeholder={t('lists.defaultName')}
          />
        </>
      ) : (
        <>
          <input type="hidden" name="list" value="new" />
          <label htmlFor={`${id}-new-name`}>{t('lists.firstListName')}</label>
          <input
            id={`${id}-new-name`}
            name="new_name"
            type="text"
            maxLength={100}
            defaultValue={t('lists.defaultName')}
          />
        </>
      )}
      <button type="submit">{companyId !== undefined ? t('lists.addThis') : t('lists.addSelected')}</button>
    </form>
  );
}

/** "Save this search" for a signed-in user: a name for the search of this page. */
export function SaveSearchForm({
  section,
  query,
  defaultName,
}: {
  section: string;
  query: string;
  defaultName: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <form
      method="post"
      action={localePath(lang, '/dashboard/saved-searches/')}
      className="save-search"
      data-pending="save-search"
    >
      <CsrfField />
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="section" value={section} />
      <input type="hidden" name="query" value={query} />
      <label htmlFor="save-search-name">{t('saved.name')}</label>
      <input
        id="save-search-name"
        name="name"
        type="text"
        required
        maxLength={100}
        defaultValue={[...defaultName].slice(0, 100).join('')}
      />
      <button type="submit" className="secondary">
        {t('saved.save')}
      </button>
    </form>
  );
}

/** Links between the pages of a user's data. */
export function UserDataNav() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const links = [
    ['/dashboard/', t('dashboard.title')],
    ['/companies/lists/', t('lists.title')],
    ['/companies/history/browsing/', t('history.browsing.title')],
    ['/companies/history/search/', t('history.search.title')],
    ['/dashboard/saved-searches/', t('saved.title')],
    ['/companies/monitoring/updates/', t('monitoring.navigation')],
    ['/companies/enrichment/', t('enrichment.title')],
    ['/dashboard/exports/', t('exports.title')],
    ['/companies/settings/', t('companySettings.title')],
    ['/dashboard/notifications/', t('notifications.title')],
    ['/dashboard/support/', t('support.navigation')],
    ['/dashboard/orders/', t('billing.orders.title')],
    ['/dashboard/subscriptions/', t('billing.subscriptions.title')],
    ['/dashboard/history/purchases/profiles/companies/', t('billing.dashboard.purchases')],
    ['/dashboard/settings/profile/', t('settings.title')],
  ] as const;
  return (
    <nav className="user-data-nav" aria-label={t('lists.navigation')}>
      <ul>
        {links.map(([path, label]) => {
          const href = localePath(lang, path);
          return (
            <li key={path}>
              <a href={href} aria-current={location.pathname === href ? 'page' : undefined}>
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A confirmation of what was just done (nothing when the text is empty: an unknown `done`). */
export function Notice({ children }: { children: ReactNode }) {
  if (children === '' || children === null || children === undefined) return null;
  return (
    <p className="form-notice" role="status">
      {children}
    </p>
  );
}

/** The translated problem of a field (`<problems>.<field>.<code>`, lists.problems unless told), if it has one. */
export function FieldProblem({
  id,
  fields,
  name,
  problems = 'lists.problems',
  values,
}: {
  id: string;
  fields?: Record<string, string>;
  name: string;
  problems?: string;
  /** What the message interpolates (a limit, say). */
  values?: Record<string, string | number>;
}) {
  const { t } = useTranslation();
  const code = fields?.[name];
  if (!code) return null;
  return (
    <span id={id} className="field-problem">
      {t(`${problems}.${name}.${code}`, values ?? {})}
    </span>
  );
}

/** The checkboxes of the search results that "add to list" takes. */
export const SELECTED_ROWS = `input[name="ids"][form="${LIST_ADD_FORM}"]`;

/**
 * What a search page offers about its results: add the ticked companies to a list (companies
 * section) and save the search — the forms for a signed-in user, gated links for a guest.
 */
export function SearchUserActions({
  user,
  canSelect,
  trackQuery,
}: {
  user: { lists: ListChoice[]; search: { section: string; query: string; name: string } } | null;
  /** The results have checkboxes (the companies section). */
  canSelect: boolean;
  /** A companies search that can be tracked for new companies (its path). */
  trackQuery?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="user-actions">
      {user ? (
        <>
          {canSelect ? <AddToListForm lists={user.lists} /> : null}
          {canSelect ? <TrackSelected form={LIST_ADD_FORM} /> : null}
          <SaveSearchForm section={user.search.section} query={user.search.query} defaultName={user.search.name} />
          {trackQuery ? <TrackSearchLink query={trackQuery} signedIn /> : null}
        </>
      ) : (
        <>
          {canSelect ? (
            <GatedLink action="add-to-list" text={t('gate.addToList')} select={SELECTED_ROWS}>
              {t('lists.addSelected')}
            </GatedLink>
          ) : null}
          {canSelect ? <TrackButton signedIn={false} selection={SELECTED_ROWS} /> : null}
          <GatedLink action="save-search" text={t('gate.saveSearch')}>
            {t('saved.save')}
          </GatedLink>
          {trackQuery ? <TrackSearchLink query={trackQuery} signedIn={false} /> : null}
          <SignInGate />
        </>
      )}
      <GateScript />
    </div>
  );
}

/** "Add to list" on a company's profile, and the lists that already hold it. */
export function ProfileListActions({
  companyId,
  user,
}: {
  companyId: number;
  user: { lists: ListChoice[]; holding: ListChoice[] } | null;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  return (
    <div className="user-actions profile-lists">
      {user ? (
        <>
          {user.holding.length > 0 ? (
            <p className="in-lists">
              {t('lists.inYourLists')}{' '}
              {user.holding.map((l, i) => (
                <span key={l.number}>
                  {i > 0 ? ', ' : ''}
                  <a href={localePath(lang, `/companies/lists/${l.number}/`)}>{l.name}</a>
                </span>
              ))}
            </p>
          ) : null}
          <AddToListForm lists={user.lists} companyId={companyId} returnTo={location.pathname} id="profile-list-add" />
        </>
      ) : (
        <>
          <GatedLink action="add-to-list" text={t('gate.addToList')}>
            {t('lists.addThis')}
          </GatedLink>
          <SignInGate />
        </>
      )}
      <GateScript />
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
