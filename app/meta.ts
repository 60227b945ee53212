import type { MetaDescriptor } from 'react-router';
import { LANGUAGES, localePath } from '../core/i18n/i18n.ts';
import type { Lang } from '../core/reference/reference-data.ts';

/** What a loader says about its page, for `meta` (spec §2 "Page metadata"). */
export type Seo = {
  siteUrl: string;
  lang: Lang;
  /** The page's path without language prefix, e.g. '/companies/search/'. */
  path: string;
  title: string;
  description: string;
  noindex?: boolean;
  /** Canonical, alternates and social tags; off for activation and recovery-code pages. */
  social?: boolean;
};

/**
 * Spec §2: login, sign-up, password recovery and dashboard pages are not indexed; nor is the
 * activation page (its URL holds a one-time code), nor sign-out; nor a user's company lists and
 * histories and settings (personal pages under /companies/).
 */
const NOINDEX = [
  /^\/account\/(login|sign-up|sign-out|password\/recovery|activation|email\/confirm)\//,
  /^\/dashboard\//,
  // The support desk (ADR 0021).
  /^\/support-desk\//,
  /^\/companies\/(lists|history|settings|monitoring)\//,
  // Export forms of a search.
  /^\/[a-z-]+\/export\//,
];
/** Spec §2: no canonical, alternates or social tags on the activation and recovery-code pages. */
const NO_SOCIAL = [/^\/account\/(activation|email\/confirm)\/[^/]+\/$/, /^\/account\/password\/recovery\/[^/]+\/?$/];

export function isNoindexPath(path: string): boolean {
  return NOINDEX.some((r) => r.test(path));
}

export function isSocialPath(path: string): boolean {
  return !NO_SOCIAL.some((r) => r.test(path));
}

const OG_LOCALE: Record<Lang, string> = { en: 'en_GB', de: 'de_DE', fr: 'fr_FR' };

export function pageMeta(seo: Seo | undefined): MetaDescriptor[] {
  if (!seo) return [{ title: 'Registra' }];
  const url = (lang: Lang) => `${seo.siteUrl}${localePath(lang, seo.path)}`;
  const title = seo.title.includes('Registra') ? seo.title : `${seo.title} — Registra`;
  const tags: MetaDescriptor[] = [{ title }, { name: 'description', content: seo.description }];
  if (seo.noindex || isNoindexPath(seo.path)) tags.push({ name: 'robots', content: 'noindex, nofollow' });
  if (seo.social === false || !isSocialPath(seo.path)) return tags;
  tags.push({ tagName: 'link', rel: 'canonical', href: url(seo.lang) });
  for (const l of LANGUAGES) tags.push({ tagName: 'link', rel: 'alternate', hrefLang: l.hreflang, href: url(l.lang) });
  tags.push({ tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: url('en') });
  tags.push(
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: 'Registra' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url(seo.lang) },
    { property: 'og:locale', content: OG_LOCALE[seo.lang] },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: seo.description },
  );
  return tags;
}
