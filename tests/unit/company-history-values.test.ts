import { describe, expect, it } from 'vitest';
import { changeValueText, provenanceText, sourcePublisher } from '../../core/companies/company-history.ts';

describe('a change’s value on one line', () => {
  it('writes text as is, lists joined, records in reading order whatever the stored key order', () => {
    expect(changeValueText(null, 'en')).toBe('');
    expect(changeValueText('Acme Ltd', 'en')).toBe('Acme Ltd');
    expect(changeValueText(['A', 'B'], 'en')).toBe('A; B');
    expect(
      changeValueText(
        {
          country: 'GB',
          city: 'Leeds',
          lines: ['2 New Street', 'Floor 3'],
          postCode: 'LS1 1AA',
          region: null,
        },
        'en',
      ),
    ).toBe('2 New Street; Floor 3, LS1 1AA, Leeds, GB');
    expect(changeValueText([{ code: '62020', scheme: 'uk-sic-2007', primary: true }], 'en')).toBe(
      'uk-sic-2007, 62020, true',
    );
  });

  it('says where a fact came from: the publisher and the source’s date, else when it was seen', () => {
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

describe('dates and instants in a change', () => {
  it('are written as their day in the reader’s language, with the time only when there is one', () => {
    expect(changeValueText('2014-06-01T00:00:00.000Z', 'en')).toBe('1 Jun 2014');
    expect(changeValueText('2024-05-05T10:30:00Z', 'en')).toBe('5 May 2024 10:30 UTC');
    expect(changeValueText('2001-02-03', 'de')).toBe('3. Feb. 2001');
    expect(
      changeValueText(
        {
          lei: '894500TFWZE1Z2LT0S68',
          registrationStatus: 'ISSUED',
          nextRenewalDate: '2027-06-01T00:00:00.000Z',
        },
        'fr',
      ),
    ).toBe('ISSUED, 894500TFWZE1Z2LT0S68, 1 juin 2027');
  });
});
