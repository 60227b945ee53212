import { describe, expect, it } from 'vitest';
import { pageMeta } from '../../app/meta.ts';

const base = { siteUrl: 'https://registra.example', lang: 'en' as const, title: 'T', description: 'D' };
const tagsOf = (path: string, lang: 'en' | 'de' | 'fr' = 'en') => pageMeta({ ...base, lang, path });
const has = (tags: ReturnType<typeof pageMeta>, test: (t: Record<string, unknown>) => boolean) =>
  tags.some((t) => test(t as Record<string, unknown>));

describe('page metadata (spec §2)', () => {
  it('adds canonical, every hreflang alternate with x-default, and social tags', () => {
    const tags = tagsOf('/companies/search/', 'de');
    expect(tags).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://registra.example/de/companies/search/',
    });
    for (const [lang, prefix] of [
      ['en', ''],
      ['de', '/de'],
      ['fr', '/fr'],
      ['x-default', ''],
    ]) {
      expect(tags).toContainEqual({
        tagName: 'link',
        rel: 'alternate',
        hrefLang: lang,
        href: `https://registra.example${prefix}/companies/search/`,
      });
    }
    expect(tags).toContainEqual({ property: 'og:locale', content: 'de_DE' });
    expect(has(tags, (t) => t.name === 'twitter:card')).toBe(true);
    expect(has(tags, (t) => t.name === 'robots')).toBe(false);
    expect(tags[0]).toEqual({ title: 'T — Registra' });
  });

  it('marks login, sign-up, recovery and dashboard pages noindex', () => {
    for (const path of [
      '/account/login/',
      '/account/sign-up/',
      '/account/password/recovery/',
      '/dashboard/',
      '/dashboard/settings/profile/',
    ]) {
      expect(
        has(tagsOf(path), (t) => t.name === 'robots' && t.content === 'noindex, nofollow'),
        path,
      ).toBe(true);
    }
    expect(has(tagsOf('/companies/details/acme-1/'), (t) => t.name === 'robots')).toBe(false);
  });

  it('leaves canonical, alternates and social tags off the activation and recovery-code pages', () => {
    for (const path of ['/account/activation/abc123/', '/account/password/recovery/abc123']) {
      const tags = tagsOf(path);
      expect(
        has(tags, (t) => t.rel === 'canonical' || t.rel === 'alternate'),
        path,
      ).toBe(false);
      expect(
        has(tags, (t) => typeof t.property === 'string'),
        path,
      ).toBe(false);
      expect(
        has(tags, (t) => t.name === 'description'),
        path,
      ).toBe(true);
    }
  });
});
