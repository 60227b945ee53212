import { describe, expect, it } from 'vitest';
import { de } from '../../core/i18n/de.ts';
import { en } from '../../core/i18n/en.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';

// Messages without options are remembered per language (core/i18n/i18n.ts): the remembered answer
// must be the message itself, and calls with options or for another language must not share it.
describe('remembered messages', () => {
  it('answers a plain message in the instance’s language, every time', () => {
    for (const [lang, messages] of [
      ['en', en],
      ['de', de],
    ] as const) {
      const { t } = i18nFor(lang);
      expect(t('search.sections')).toBe(messages.search.sections);
      expect(t('search.sections')).toBe(messages.search.sections);
      const fixed = i18nFor(lang).getFixedT(null, 'translation');
      expect(fixed('search.facets')).toBe(messages.search.facets);
    }
  });

  it('still interpolates and pluralises calls with options', () => {
    const { t } = i18nFor('en');
    expect(t('search.recordTitle', { section: 'Vessels' })).toBe('Vessels search');
    expect(t('search.records', { count: 1 })).toBe('1 record');
    expect(t('search.records', { count: 2 })).toBe('2 records');
    const fixed = i18nFor('en').getFixedT(null, 'translation');
    expect(fixed('search.recordTitle', { section: 'Aircraft' })).toBe('Aircraft search');
  });

  it('does not answer another language, prefix or namespace from the cache', () => {
    const english = i18nFor('en');
    expect(english.t('search.sections')).toBe(en.search.sections);
    expect(english.getFixedT('de', 'translation')('search.sections')).toBe(de.search.sections);
    expect(english.getFixedT(null, 'translation', 'search')('sections')).toBe(en.search.sections);
    expect(en.search.sections).not.toBe(de.search.sections);
  });
});
