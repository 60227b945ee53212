import type { MetaDescriptor } from 'react-router';
import type { Lang } from '../core/reference/reference-data.ts';
import { LANGUAGES, localePath } from './i18n/i18n.ts';

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

const OG_LOCALE: Record<Lang, string> = { en: 'en_GB', de: 'de_DE', fr: 'fr_FR' };

export function pageMeta(seo: Seo | undefined): MetaDescriptor[] {
  if (!seo) return [{ title: 'Registra' }];
  const url = (lang: Lang) => `${seo.siteUrl}${localePath(lang, seo.path)}`;
  const tags: MetaDescriptor[] = [{ title: seo.title }, { name: 'description', content: seo.description }];
  if (seo.noindex) tags.push({ name: 'robots', content: 'noindex, nofollow' });
  if (seo.social === false) return tags;
  tags.push({ tagName: 'link', rel: 'canonical', href: url(seo.lang) });
  for (const l of LANGUAGES) tags.push({ tagName: 'link', rel: 'alternate', hrefLang: l.hreflang, href: url(l.lang) });
  tags.push({ tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: url('en') });
  tags.push(
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: 'Registra' },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url(seo.lang) },
    { property: 'og:locale', content: OG_LOCALE[seo.lang] },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
  );
  return tags;
}
