import { preload } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { parseAsOfDay } from '../../../core/companies/as-of.ts';
import { companyIdOfUri, currentCompanyUri } from '../../../core/companies/company-uri.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { revealOf, unlockedFor } from '../../../core/purchases/paywall.ts';
import { purchaseProfile } from '../../../core/purchases/purchases.ts';
import { staleReads } from '../../../core/services.ts';
import { findVisibleCompany } from '../../../core/takedowns/visible.ts';
import { ProfilePurchase } from '../../components/billing.tsx';
import { AddToComparison } from '../../components/comparison-actions.tsx';
import { ProfileListActions, TrackButton } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { profileOffer } from '../../presenters/billing.server.ts';
import { groupQuery, loadOwnership } from '../../presenters/ownership.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { type AsOfView, loadProfilePage, type ProfilePage } from '../../presenters/profile-page.server.ts';
import {
  keepHead,
  keepOwnership,
  keepParts,
  keptHead,
  keptOwnership,
  keptParts,
  profileHead,
  profileKey,
  type RenderedPart,
  renderOwnershipSection,
  renderProfileParts,
  shownProfile,
} from '../../presenters/profile-parts.server.tsx';
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
  const reads = staleReads(services);
  const p = presenter(services.reference, lang);
  /** The right id with a wrong or old slug: the company's own address, for good; else not found. */
  const notFound = async (): Promise<never> => {
    const current = await currentCompanyUri(reads, params.uri);
    if (current)
      throw redirect(localePath(lang, `/companies/details/${encodeURIComponent(current)}/${url.search}`), 301);
    throw data({ message: 'company not found' }, { status: 404 });
  };
  // What the viewer bought (from the primary: a purchase just made shows at once), and, for today's
  // profile, where its rendered parts are kept (app/presenters/profile-parts.server.tsx): the
  // data's version is read before the company.
  const id = companyIdOfUri(params.uri) ?? 0;
  const [unlocked, key] = await Promise.all([
    unlockedFor(services.db, auth?.user.id, [id]),
    asOf === null ? profileKey(reads, services.siteUrl, lang, params.uri) : null,
  ]);
  // The contact details the viewer bought are shown, nobody else's (ADR 0029).
  let profile: ProfilePage | null = null;
  let head = key ? keptHead(key) : undefined;
  if (!head) {
    // The company and what buying it reveals (counts, the same for everyone: kept with the head), side by side.
    const [loaded, reveal] = await Promise.all([
      loadProfilePage(services, lang, params.uri, asOf, unlocked),
      revealOf(services.db, id),
    ]);
    if (!loaded) return notFound();
    if ('notYet' in loaded) {
      // Before the company appeared: a page that says so (not found, at that day).
      return data(
        serverRendered(
          {
            seo: {
              siteUrl: services.siteUrl,
              lang,
              path: `/companies/details/${encodeURIComponent(loaded.uri)}/`,
              title: `${loaded.name} — Registra`,
              description: loaded.name,
              noindex: true,
            },
          },
          { view: null, notYet: loaded, user: null, offer: null },
        ),
        { status: 404 },
      );
    }
    profile = loaded;
    head = profileHead(loaded, loaded.id === id ? reveal : await revealOf(services.db, loaded.id));
    if (key) keepHead(key, head);
  }
  const company = head;
  // Who owns the company and what it owns (ADR 0038), the same for a guest and a user: public
  // registers' statements, nothing to buy. An as-of profile has none (ownership keeps no history here).
  const ownershipSection = async (): Promise<RenderedPart> => {
    const kept = key ? keptOwnership(key, group) : undefined;
    if (kept !== undefined) return kept;
    const ownership = await loadOwnership(
      reads,
      p,
      { id: company.id, name: company.name, path: `/companies/details/${encodeURIComponent(company.uri)}/` },
      group,
    );
    const part = renderOwnershipSection(ownership, lang);
    if (key) keepOwnership(key, group, part);
    return part;
  };
  // Read first, side by side; a group level refused (a 400) records no view.
  const [offer, ownership] = await Promise.all([
    // The full profile (docs/decisions/0019-billing.md): its contact details are shown to a user
    // who bought it; everyone else sees its price, the balance after, and how to buy it.
    profileOffer(services.db, p, auth?.user.id, company.id, company.advanced, company.reveal),
    asOf !== null ? null : ownershipSection(),
  ]);
  // A signed-in user's view goes into their browsing history, and they can add the company to a
  // list; a guest costs nothing more.
  const user = await profileUserData(context, company.id);
  // The presenter left the gated values out (core/purchases/paywall.ts); unless the page shows the
  // profile in full, the sections that had them say where they are.
  const full = offer.boughtOn !== null || offer.nothingToBuy;
  let parts = key ? keptParts(key, unlocked, company.id, full) : undefined;
  if (!parts) {
    const loaded = profile ?? (await loadProfilePage(services, lang, params.uri, null, unlocked));
    // The company went between the two reads (a takedown): not found, as on the next request.
    if (!loaded || 'notYet' in loaded) return notFound();
    profile = loaded;
    parts = renderProfileParts(shownProfile(loaded, full), lang, ownership !== null);
    if (key) keepParts(key, unlocked, company.id, full, parts);
  }
  // This page never hydrates: its view model is read by the server render only, not encoded for
  // the browser (app/server-rendered.ts).
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: `/companies/details/${encodeURIComponent(company.uri)}/`,
        title: company.title,
        description: company.description,
        // A profile as of a past day is today's page's past, not a page of its own to index.
        noindex: asOf !== null,
      },
    },
    {
      view: {
        ...company,
        parts,
        ownership: ownership ?? { html: '', preloads: [] },
        asOf: profile && 'asOf' in profile ? profile.asOf : null,
      },
      notYet: null,
      user,
      offer,
    },
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

export default function CompanyDetails({ loaderData }: Route.ComponentProps) {
  const { view, notYet, user, offer } = loaderData;
  const { t } = useTranslation();
  if (notYet || !view || !offer)
    return (
      <article className="profile">
        <header className="profile-header">
          <h1>{t('asOf.notYetTitle', { name: notYet?.name, date: notYet?.asOf.dayText })}</h1>
        </header>
        {notYet ? <AsOfBanner asOf={notYet.asOf} /> : null}
        <p>{t('asOf.notYetText', { date: notYet?.asOf.dayText })}</p>
      </article>
    );
  // The parts the same for every viewer of this version come rendered (app/presenters/profile-parts.server.tsx);
  // what is the viewer's own (lists, tracking, the purchase offer, the session) is rendered here.
  // Their images go in the head's preloads, as when React saw them in this render.
  for (const href of [...view.parts.preloads, ...view.ownership.preloads]) preload(href, { as: 'image' });
  return (
    <article className="profile">
      {view.asOf ? <AsOfBanner asOf={view.asOf} /> : null}
      {/* A data block for search engines (schema.org), not a script: no browser runs it. */}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: view.parts.jsonLd }} />
      <header className="profile-header" dangerouslySetInnerHTML={{ __html: view.parts.header }} />
      {/* ---- profile (ADR 0022): who the company is, in one screen, above the detail ---- */}
      <section
        aria-labelledby="overview"
        className="profile-summary"
        dangerouslySetInnerHTML={{ __html: view.parts.overview }}
      />
      <div className="profile-actions">
        <ProfileListActions companyId={view.id} user={user} />
        <div className="user-actions profile-tracking">
          <TrackButton signedIn={user !== null} companyId={view.id} tracked={user?.tracked} />
        </div>
        <AddToComparison companyId={view.id} />
        {/* The gate and its island come with the list actions above (one popup, one island a page). */}
        {/* An as-of profile shows no contacts (they have no history): nothing to buy on it. */}
        {view.asOf ? null : <ProfilePurchase offer={offer} />}
      </div>
      <nav className="profile-tabs" aria-label={t('profile.tabs')}>
        <a href="#overview" aria-current="page">
          {t('profile.tabProfile')}
        </a>{' '}
        <a href={view.historyHref}>{t('profile.tabHistory')}</a>
      </nav>
      {view.asOf ? null : <AsOfForm action={view.asOfHref} day={null} />}
      <div
        className="profile-body"
        dangerouslySetInnerHTML={{ __html: view.parts.bodyBefore + view.ownership.html + view.parts.bodyAfter }}
      />
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
