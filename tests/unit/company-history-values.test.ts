import { describe, expect, it } from 'vitest';
import { provenanceText, sourcePublisher } from '../../core/companies/company-history.ts';

describe('where a fact came from', () => {
  it('says the publisher and the source’s date, else when it was seen', () => {
    const observed_at = new Date('2024-06-01T08:00:00Z');
    expect(
      provenanceText({ source: 'gleif-lei', source_date: new Date('2024-05-05T23:00:00Z'), observed_at }, 'en'),
    ).toBe('GLEIF, 5 May 2024');
    expect(provenanceText({ source: 'ch-psc', source_date: null, observed_at }, 'de')).toBe(
      'Companies House, 1. Juni 2024',
    );
    expect(sourcePublisher('some-new-source')).toBe('some-new-source');
  });
});
