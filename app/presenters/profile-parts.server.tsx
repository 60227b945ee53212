import { LRUCache } from 'lru-cache';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { countsState } from '../../core/companies/count-companies.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { readDataVersion } from '../../core/imports/data-version.ts';
import { GATED_RECORD_FIELDS, isUnlocked, type Reveal, type Unlocked } from '../../core/purchases/paywall.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import type { SectionDecl } from '../../core/sections/section.ts';
import type { Db } from '../../db/client.ts';
import { CompanyTableFrame, searchSelectable } from '../components/company-table.tsx';
import { Facets } from '../components/facets.tsx';
import { FilterPanel } from '../components/filter-panel.tsx';
import {
  OWNERSHIP_SLOT,
  OwnershipSection,
  ProfileBody,
  ProfileHeader,
  ProfileOverview,
} from '../components/profile-parts.tsx';
import type { OwnershipView } from './ownership.server.ts';
import type { ProfilePage } from './profile-page.server.ts';
import type { SearchPage, SearchPageHead } from './search-page.server.ts';
import type { TableView } from './table-view.server.ts';

// The rendered parts of a company's profile, kept (docs/decisions/0040-cpu-per-request.md, "Rendered
// parts of the profile"). A profile page is the same for every viewer but in a few places: the site
// header (the session), the actions (lists, tracking, comparison, the purchase offer, CSRF tokens),
// the Ownership section (browsed by the request's `group_*` query) and the values a purchase unlocks
// (ADR 0029). Everything else is rendered once and its HTML reused, keyed by exactly what it depends on:
//   - the database (a map per Db: tests hold several in one process) and the site's address;
//   - the company as asked for (its uri: a wrong slug is a redirect, never kept) and the data's
//     version (core/imports/data-version.ts), read per request before the company: it moves with
//     every company and record write (afterCompanyWrite), every committed change and every takedown
//     or restore, so a write shows, and a taken-down company goes, on the next request in every process;
//   - the language, and the day (the overview says how old the company is);
//   - for the Ownership section (kept apart): the request's `group_*` query;
//   - the paywall: whether this viewer unlocked the company (what the presenter let through) and
//     whether the page shows it in full (bought, or nothing to buy) — two booleans, never who the viewer is.
// As-of profiles (ADR 0028) are rendered the same way but not kept.
//
// Search pages are kept here too, by the same rules (docs/decisions/0043-search-page-lists.md, "Search
// pages kept by data version"): their view model and the HTML of their filter side and results table, keyed by the
// database, the site, the language, the URL as asked, the table view, the day, the data's version and
// the state of the counts they show (core/companies/count-companies.ts countsState). Sections whose rows
// hold values a purchase unlocks (ADR 0029) are not kept: nothing a viewer bought is ever in a kept search.

/** What the loader needs of a profile before its parts, and its price: the same for every viewer of one version. */
export type ProfileHead = {
  id: number;
  name: string;
  uri: string;
  advanced: boolean;
  title: string;
  description: string;
  historyHref: string;
  asOfHref: string;
  /** What buying the company reveals (core/purchases/paywall.ts revealOf): counts, the same for every viewer. */
  reveal: Reveal;
};

/** A profile's HTML parts (the insides of their elements on the page), the Ownership section cut out. */
export type ProfileParts = {
  jsonLd: string;
  header: string;
  overview: string;
  /** The body up to where the Ownership section goes, and after it (empty when it has none). */
  bodyBefore: string;
  bodyAfter: string;
  /** The images the parts show that the page's head preloads (the flags). */
  preloads: string[];
};

/** How much rendered HTML is kept per database, in characters (a profile is tens to a few hundred thousand). */
const PARTS_MAX_CHARS = 48_000_000;
const HEADS_MAX = 50_000;

type Kept = {
  heads: LRUCache<string, ProfileHead>;
  parts: LRUCache<string, ProfileParts>;
  /** The Ownership section's HTML by version and `group_*` query. */
  ownership: LRUCache<string, RenderedPart>;
  searches: LRUCache<string, SearchParts>;
};
const keptByDb = new WeakMap<Db, Kept>();

function keptFor(db: Db): Kept {
  let kept = keptByDb.get(db);
  if (!kept) {
    kept = {
      heads: new LRUCache({ max: HEADS_MAX }),
      parts: new LRUCache({
        maxSize: PARTS_MAX_CHARS,
        sizeCalculation: (p: ProfileParts) =>
          p.jsonLd.length + p.header.length + p.overview.length + p.bodyBefore.length + p.bodyAfter.length + 1,
      }),
      ownership: new LRUCache({
        maxSize: PARTS_MAX_CHARS / 4,
        sizeCalculation: (part: RenderedPart) => part.html.length + 1,
      }),
      searches: new LRUCache({
        maxSize: PARTS_MAX_CHARS / 2,
        sizeCalculation: (kept: SearchParts) => kept.side.length + kept.table.length + 1,
      }),
    };
    keptByDb.set(db, kept);
  }
  return kept;
}

/** Where one version of a company's profile is kept, in one language on one day. */
export type ProfileKey = { db: Db; base: string };

/**
 * The key of today's profile of `uri`: the data's version is read now, before any of the company,
 * so that what is kept under it is never older than it.
 */
export async function profileKey(reads: Db, siteUrl: string, lang: Lang, uri: string): Promise<ProfileKey> {
  const version = await readDataVersion(reads);
  const day = new Date().toISOString().slice(0, 10);
  return { db: reads, base: JSON.stringify([siteUrl, lang, uri, day, version]) };
}

export function keptHead(key: ProfileKey): ProfileHead | undefined {
  return keptFor(key.db).heads.get(key.base);
}

export function keepHead(key: ProfileKey, head: ProfileHead): void {
  keptFor(key.db).heads.set(key.base, head);
}

/** The paywall state the parts were rendered for: nothing of who the viewer is. */
function partsKey(key: ProfileKey, unlocked: boolean, full: boolean): string {
  return `${key.base}|${unlocked ? 'unlocked' : 'locked'}|${full ? 'full' : 'gated'}`;
}

export function keptParts(
  key: ProfileKey,
  unlocked: Unlocked,
  companyId: number,
  full: boolean,
): ProfileParts | undefined {
  return keptFor(key.db).parts.get(partsKey(key, isUnlocked(unlocked, companyId), full));
}

export function keepParts(
  key: ProfileKey,
  unlocked: Unlocked,
  companyId: number,
  full: boolean,
  parts: ProfileParts,
): void {
  keptFor(key.db).parts.set(partsKey(key, isUnlocked(unlocked, companyId), full), parts);
}

/** The Ownership section as kept for this version and `group` query (ownership.server.ts groupQuery). */
export function keptOwnership(key: ProfileKey, group: unknown): RenderedPart | undefined {
  return keptFor(key.db).ownership.get(`${key.base}|${JSON.stringify(group)}`);
}

export function keepOwnership(key: ProfileKey, group: unknown, part: RenderedPart): void {
  keptFor(key.db).ownership.set(`${key.base}|${JSON.stringify(group)}`, part);
}

/** The head of a presented profile (the page's title and description included). */
export function profileHead(profile: ProfilePage, reveal: Reveal): ProfileHead {
  return {
    id: profile.id,
    name: profile.name,
    uri: profile.uri,
    advanced: profile.advanced,
    title: `${profile.name} — ${profile.jurisdiction.text} — Registra`,
    description: profile.description,
    historyHref: profile.historyHref,
    asOfHref: profile.asOfHref,
    reveal,
  };
}

/**
 * The profile as the page shows it to a viewer: in full (`full`: bought, or nothing to buy), else
 * the sections that held gated values (left out by the presenter, core/purchases/paywall.ts) say where they are.
 */
export function shownProfile(profile: ProfilePage, full: boolean): ProfilePage {
  if (full) return profile;
  return {
    ...profile,
    sections: profile.sections.map((s) => (s.id === 'contacts' ? { ...s, locked: true } : s)),
    records: profile.records.map((r) =>
      r.id === 'records-contacts' || r.id === 'records-connections' ? { ...r, locked: true } : r,
    ),
  };
}

/** HTML rendered apart, and the images React would have preloaded from the page's head. */
export type RenderedPart = { html: string; preloads: string[] };

const PRELOAD = /^<link rel="preload" as="image" href="([^"]*)"\/>/;

function render(lang: Lang, node: ReactNode): RenderedPart {
  // Its own prefix for useId: the parts' ids never meet those of the page they are set into.
  let html = renderToString(<I18nextProvider i18n={i18nFor(lang)}>{node}</I18nextProvider>, {
    identifierPrefix: 'profile-',
  });
  // React puts the preloads of a render's images (the flags) before its markup when it has no head
  // of its own: they are taken off here and asked of the page again (react-dom's preload), which puts
  // them in its head as when the parts were rendered with it.
  const preloads: string[] = [];
  for (let m = PRELOAD.exec(html); m; m = PRELOAD.exec(html)) {
    preloads.push(
      m[1]
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    html = html.slice(m[0].length);
  }
  return { html, preloads };
}

/** The parts of `profile` (as shownProfile gave it) in `lang`; with `ownership`, the body leaves its place. */
export function renderProfileParts(profile: ProfilePage, lang: Lang, ownership: boolean): ProfileParts {
  const header = render(lang, <ProfileHeader profile={profile} />);
  const overview = render(lang, <ProfileOverview profile={profile} />);
  const body = render(lang, <ProfileBody profile={profile} ownership={ownership} />);
  const slot = body.html.indexOf(OWNERSHIP_SLOT);
  if (ownership && (slot < 0 || body.html.indexOf(OWNERSHIP_SLOT, slot + 1) >= 0))
    throw new Error('the profile body must hold the Ownership section’s place once');
  return {
    jsonLd: profile.jsonLd,
    header: header.html,
    overview: overview.html,
    bodyBefore: ownership ? body.html.slice(0, slot) : body.html,
    bodyAfter: ownership ? body.html.slice(slot + OWNERSHIP_SLOT.length) : '',
    preloads: [...new Set([...header.preloads, ...overview.preloads, ...body.preloads])],
  };
}

/** The Ownership section of this request (its `group_*` query), as HTML for its place in the body. */
export function renderOwnershipSection(ownership: OwnershipView, lang: Lang): RenderedPart {
  return render(lang, <OwnershipSection ownership={ownership} />);
}

/**
 * A search page as kept: its view model but for what the HTML of its filter side and its results
 * table already holds (fewer objects kept: less for the garbage collector to move and mark).
 */
export type SearchParts = { page: SearchPageHead; rowCount: number; side: string; table: string; preloads: string[] };

/** Whether a section's search pages are kept: not when its rows can hold values a purchase unlocks (ADR 0029). */
export function keepsSearchPages(section: SectionDecl): boolean {
  return !section.record || !GATED_RECORD_FIELDS[section.baseTable];
}

/**
 * The key of a search page as `url` asks it in `view`: the data's version and the counts' state are
 * read now, before the search, so that what is kept under them is never older than they are.
 */
export async function searchPageKey(
  reads: Db,
  siteUrl: string,
  lang: Lang,
  url: URL,
  view: TableView,
): Promise<ProfileKey> {
  const version = await readDataVersion(reads);
  const day = new Date().toISOString().slice(0, 10);
  const here = `${url.pathname}${url.search}`;
  return {
    db: reads,
    base: JSON.stringify(['search', siteUrl, lang, here, view.style, view.columns, day, version, countsState(reads)]),
  };
}

export function keptSearchPage(key: ProfileKey): SearchParts | undefined {
  return keptFor(key.db).searches.get(key.base);
}

export function keepSearchPage(key: ProfileKey, kept: SearchParts): void {
  keptFor(key.db).searches.set(key.base, kept);
}

/** The filter side (panel and facets) and the results table of a search page, as HTML. */
export function renderSearchParts(page: SearchPage, lang: Lang): SearchParts {
  const side = render(
    lang,
    <>
      <FilterPanel page={page} />
      <Facets facets={page.facets} />
    </>,
  );
  const table =
    page.rows.length > 0
      ? render(
          lang,
          <CompanyTableFrame
            columns={page.columns}
            rows={page.rows}
            tableStyle={page.tableStyle}
            selectable={searchSelectable(page.section, i18nFor(lang).t)}
          />,
        )
      : { html: '', preloads: [] };
  const { facets, panel, rows, columns, ...head } = page;
  return {
    page: head,
    rowCount: rows.length,
    side: side.html,
    table: table.html,
    preloads: [...new Set([...side.preloads, ...table.preloads])],
  };
}
