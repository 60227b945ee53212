import { type ReactNode, useContext } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useParams,
  useRouteLoaderData,
} from 'react-router';
import { i18nFor, isLang, localePath, unprefixedPath } from '../core/i18n/i18n.ts';
import { consentOf } from '../core/visitors/cookie-consent.ts';
import type { Route } from './+types/root';
import { CookieNotice } from './components/cookie-notice.tsx';
import { LanguageSwitcher } from './components/language-switcher.tsx';
import { HeaderSearch } from './components/search-box.tsx';
import { SiteFooter } from './components/site-footer.tsx';
import { SuggestScript } from './components/suggest-script.tsx';
import { verifyCsrf } from './csrf.server.ts';
import { DatabaseOutage } from './database-outage.ts';
import balanceScript from './islands/balance.js?raw';
import cleanGetFormsScript from './islands/clean-get-forms.js?raw';
import { inlineScript } from './islands/inline-script.ts';
import narrowPanelsScript from './islands/narrow-panels.js?raw';
import preferencesScript from './islands/preferences.js?raw';
import { balanceOf } from './presenters/billing.server.ts';
import { rejectNulInForm } from './reject-nul.server.ts';
import { authContext, servicesContext } from './services.ts';
import './styles.css';

/** Every page form is checked for CSRF, and for text the database cannot store, before its action runs. */
export const middleware: Route.MiddlewareFunction[] = [verifyCsrf, rejectNulInForm];

/** The signed-in user (their name for the header) and the session's CSRF token for forms; null for guests. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = context.get(authContext);
  return {
    user: auth ? { id: auth.user.id, name: auth.user.name } : null,
    csrfToken: auth?.csrfToken ?? null,
    /** The cookie notice's choice; null until the visitor chooses (ADR 0021). */
    cookieConsent: consentOf(request.headers.get('cookie')),
    // The balance in the header (docs/decisions/0019-billing.md): one indexed sum, signed-in pages only.
    credits: await balanceOf(context.get(servicesContext).db, auth?.user.id),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

function useLang() {
  const { lang } = useParams();
  return isLang(lang) ? lang : 'en';
}

/** The stored-preferences island (app/islands/preferences.js) without its comment lines: every page inlines it. */
const PREFERENCES_SCRIPT = inlineScript(preferencesScript);
/** Opens the header menu and search filters on a wide screen (app/islands/narrow-panels.js, ADR 0022). */
const NARROW_PANELS_SCRIPT = inlineScript(narrowPanelsScript);
/** The header's balance, kept current after spends (app/islands/balance.js, ADR 0030): signed-in pages only. */
const BALANCE_SCRIPT = inlineScript(balanceScript);
/** GET forms leave empty fields out of the URL (app/islands/clean-get-forms.js, ADR 0022). */
const CLEAN_GET_FORMS_SCRIPT = inlineScript(cleanGetFormsScript);

/**
 * Route modules that need the client (forms with live behaviour) export `handle = { hydrate: true }`;
 * a page whose own search box stands in for the header's (the home page) exports `pageSearch: true`.
 */
export type RouteHandle = { hydrate?: boolean; pageSearch?: boolean };

/**
 * Reading pages are complete as server-rendered HTML (links and GET forms), so they ship no
 * framework JavaScript; React hydrates only pages with a route that asks for it. This keeps the
 * search page far below its 100 KB budget (React and React Router alone are about 107 KB gzip).
 */
function useHydrate(): boolean {
  return useMatches().some((m) => (m.handle as RouteHandle | undefined)?.hydrate === true);
}

/**
 * Images of parts a route rendered apart (kept HTML: app/presenters/profile-parts.server.tsx) that the
 * head preloads, as React preloads the images it renders itself: a loader's `headImages` (server only).
 */
function useHeadImages(): string[] {
  return useMatches().flatMap((m) => (m.loaderData as { headImages?: string[] } | undefined)?.headImages ?? []);
}

export function Layout({ children }: { children: ReactNode }) {
  const lang = useLang();
  const hydrate = useHydrate();
  const headImages = useHeadImages();
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The attributes in the order React writes for an image it preloads (the same bytes as before the parts were kept). */}
        {headImages.map((href) => (
          <link key={href} rel="preload" as="image" href={href} />
        ))}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nextProvider i18n={i18nFor(lang)}>{children}</I18nextProvider>
        <script dangerouslySetInnerHTML={{ __html: PREFERENCES_SCRIPT }} />
        <script dangerouslySetInnerHTML={{ __html: NARROW_PANELS_SCRIPT }} />
        <script dangerouslySetInnerHTML={{ __html: CLEAN_GET_FORMS_SCRIPT }} />
        {/* Every page has a search box that suggests (the header's, or the home page's own). */}
        <SuggestScript />
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

/** The site's header; `search: false` leaves its search box out (a page with its own: the home page). */
function Header({ search = true }: { search?: boolean }) {
  const lang = useLang();
  const { t } = useTranslation();
  const to = (path: string) => localePath(lang, path);
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <Link to={to('/')} className="brand">
        {t('site.name')}
      </Link>
      {search ? <HeaderSearch /> : null}
      {/* ---- layout (ADR 0022): on a phone the links fold into a menu (no script: <details>) ---- */}
      <details className="site-menu" data-wide-open="">
        <summary>{t('layout.menu')}</summary>
        <div className="site-menu-body">
          <nav aria-label={t('nav.main')}>
            <NavLink to={to('/companies/search/')}>{t('nav.search')}</NavLink>
            <NavLink to={to('/members/search/')}>{t('people.nav')}</NavLink>
            <NavLink to={to('/companies/directories/jurisdictions/')}>{t('nav.jurisdictions')}</NavLink>
            <NavLink to={to('/companies/directories/industries/')}>{t('nav.industries')}</NavLink>
          </nav>
          <LanguageSwitcher />
          <AccountMenu />
        </div>
      </details>
    </header>
  );
}

/** A "Sign in" link for guests (back to this page afterwards); the user's name and "Sign out" for users. */
function AccountMenu() {
  const lang = useLang();
  const { t } = useTranslation();
  const location = useLocation();
  const root = useRouteLoaderData('root') as RootData | undefined;
  if (root?.user) {
    return (
      <form method="post" action={localePath(lang, '/account/sign-out/')} className="account-menu">
        <a href={localePath(lang, '/companies/lists/')}>{t('lists.title')}</a>
        <a href={localePath(lang, '/companies/history/browsing/')}>{t('history.browsing.title')}</a>
        {/* Kept current after every spend by the live-balance island (ADR 0030). */}
        <a
          className="credit-balance"
          href={localePath(lang, '/info/pricing/')}
          title={t('billing.headerBalance')}
          data-balance="header"
          data-balance-url={localePath(lang, '/dashboard/balance/')}
          data-balance-value={root.credits ?? 0}
        >
          {t('billing.credits', { count: root.credits ?? 0 })}
        </a>
        <script dangerouslySetInnerHTML={{ __html: BALANCE_SCRIPT }} />
        <a className="account-name" href={localePath(lang, '/dashboard/')}>
          {root.user.name}
        </a>
        <input type="hidden" name="_csrf" value={root.csrfToken ?? ''} />
        <button type="submit" className="link-button">
          {t('account.signOut')}
        </button>
      </form>
    );
  }
  const here = unprefixedPath(location.pathname);
  const returnTo = here.startsWith('/account/')
    ? ''
    : `?returnTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  return (
    <a className="account-menu" href={`${localePath(lang, '/account/login/')}${returnTo}`}>
      {t('account.signIn')}
    </a>
  );
}

export default function App() {
  const pageSearch = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.pageSearch === true);
  return (
    <>
      <Header search={!pageSearch} />
      <main id="main">
        <Outlet />
      </main>
      <CookieNotice />
      <SiteFooter />
    </>
  );
}

/**
 * The error page's words for a status (errors.<key>Title and errors.<key>Text): one for each status
 * an AppError maps to (core/errors/app-error.ts httpStatus, app/page-errors.server.ts), the server's
 * own failure for the rest.
 */
function errorPageKey(status: number): string {
  switch (status) {
    case 400:
      return 'badRequest';
    case 402:
      return 'paymentRequired';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 409:
      return 'conflict';
    case 429:
      return 'rateLimited';
    case 503:
      return 'unavailable';
    default:
      return 'server';
  }
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const location = useLocation();
  const outage = useContext(DatabaseOutage);
  const status = outage ? 503 : isRouteErrorResponse(error) ? error.status : 500;
  const csrf = status === 403 && isRouteErrorResponse(error) && error.data?.message === 'csrf';
  const signIn = status === 401;
  // A help desk that does not answer (ADR 0021, app/presenters/support.server.ts) says so.
  const helpDesk = status === 503 && isRouteErrorResponse(error) && error.data?.message === 'help_desk_unavailable';
  const title = helpDesk
    ? t('support.unavailableTitle')
    : csrf
      ? t('account.csrf.title')
      : signIn
        ? t('account.gate.title')
        : t(`errors.${errorPageKey(status)}Title`);
  const detail = isRouteErrorResponse(error) && typeof error.data?.message === 'string' ? error.data.message : null;
  const text = helpDesk
    ? t('support.unavailableText')
    : csrf
      ? t('account.csrf.text')
      : signIn
        ? t('account.gate.text')
        : status === 404
          ? location.pathname.includes('/companies/details/')
            ? t('errors.companyNotFound')
            : t('errors.notFoundText')
          : status === 400
            ? detail
            : t(`errors.${errorPageKey(status)}Text`);
  return (
    <>
      <title>{`${title} — Registra`}</title>
      <meta name="robots" content="noindex" />
      <Header />
      <main id="main" className="error-page">
        <h1>{title}</h1>
        <p>{text}</p>
        {signIn ? (
          <p>
            <a
              className="button"
              href={`${localePath(lang, '/account/login/')}?returnTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`}
            >
              {t('account.signIn')}
            </a>
          </p>
        ) : null}
        {status === 402 ? (
          <p>
            <a className="button" href={localePath(lang, '/info/pricing/')}>
              {t('billing.orders.seePricing')}
            </a>
          </p>
        ) : null}
        <p>
          <Link to={localePath(lang, '/')}>{t('errors.home')}</Link>
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
