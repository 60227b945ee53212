import { describe, expect, it } from 'vitest';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { roundEstimate } from '../../core/search/estimate-rows.ts';

// Estimated counts (ADR 0002, "Counts"): two significant figures, never below the rows counted.
describe('roundEstimate', () => {
  it('rounds to two significant figures', () => {
    expect(roundEstimate(52_367)).toBe(52_000);
    expect(roundEstimate(52_500)).toBe(53_000);
    expect(roundEstimate(1_234_567)).toBe(1_200_000);
    expect(roundEstimate(9_960)).toBe(10_000);
    expect(roundEstimate(87.4)).toBe(87);
    expect(roundEstimate(3.6)).toBe(4);
    expect(roundEstimate(0)).toBe(0);
  });

  it('is never below the rows counted exactly: rounds up instead, or takes them when the estimate is lower', () => {
    expect(roundEstimate(1_001, 1_001)).toBe(1_100);
    expect(roundEstimate(1_040, 1_001)).toBe(1_100);
    expect(roundEstimate(1_060, 1_001)).toBe(1_100);
    expect(roundEstimate(1_160, 1_001)).toBe(1_200);
    expect(roundEstimate(400, 1_001)).toBe(1_100);
    expect(roundEstimate(52_367, 1_001)).toBe(52_000);
    expect(roundEstimate(12.2, 14)).toBe(14);
  });
});

describe('estimate labels', () => {
  it('read "about" with the language’s number formatting', () => {
    const number = (lang: 'en' | 'de' | 'fr') => new Intl.NumberFormat(lang).format(52_000);
    expect(i18nFor('en').t('search.resultsAbout', { count: 52_000 })).toBe('About 52,000 companies');
    expect(i18nFor('en').t('search.recordsAbout', { count: 52_000 })).toBe('About 52,000 records');
    expect(i18nFor('en').t('search.about', { count: 12_000 })).toBe('about 12,000');
    expect(i18nFor('de').t('search.about', { count: 52_000 })).toBe('etwa 52.000');
    expect(i18nFor('fr').t('search.about', { count: 52_000 })).toBe(`environ ${number('fr')}`);
    expect(number('fr')).toMatch(/^52\s000$/u);
    expect(i18nFor('de').t('search.resultsAbout', { count: 52_000 })).toBe('Etwa 52.000 Unternehmen');
    expect(i18nFor('fr').t('search.recordsAbout', { count: 52_000 })).toBe(`Environ ${number('fr')} enregistrements`);
  });
});
