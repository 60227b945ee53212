import { describe, expect, it } from 'vitest';
import { describeControlNature } from '../../core/companies/control-natures.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';

// Companies House's natures of control read from their codes (core/companies/control-natures.ts).
const t = i18nFor('en').t;

describe('describeControlNature', () => {
  it.each([
    ['ownership-of-shares-25-to-50-percent', 'Shares 25–50 %'],
    ['voting-rights-75-to-100-percent-as-firm', 'Voting rights 75–100 %, through a firm'],
    ['right-to-appoint-and-remove-directors', 'Right to appoint and remove directors'],
    ['significant-influence-or-control-as-trust', 'Significant influence or control, through a trust'],
    ['right-to-share-surplus-assets-50-to-75-percent-limited-liability-partnership', 'Share of surplus assets 50–75 %'],
    [
      'part-right-to-share-surplus-assets-75-to-100-percent-as-trust',
      'Share of surplus assets 75–100 %, through a trust',
    ],
    [
      'ownership-of-shares-more-than-25-percent-as-control-over-firm-registered-overseas-entity',
      'Shares over 25 %, through a firm',
    ],
    ['right-to-appoint-and-remove-person-as-firm', 'Right to appoint and remove the managing members, through a firm'],
  ])('%s reads “%s”', (code, words) => {
    expect(describeControlNature(code, t)).toBe(words);
  });

  it('shows a code of another shape as the register wrote it', () => {
    const nominee = 'registered-owner-as-nominee-person-scotland-registered-overseas-entity';
    expect(describeControlNature(nominee, t)).toBe(nominee);
    expect(describeControlNature('ownership-of-shares-10-to-20-percent', t)).toBe(
      'ownership-of-shares-10-to-20-percent',
    );
  });

  it('is translated', () => {
    expect(describeControlNature('ownership-of-shares-50-to-75-percent', i18nFor('de').t)).toBe('Anteile 50–75 %');
    expect(describeControlNature('significant-influence-or-control', i18nFor('fr').t)).toBe(
      'Influence ou contrôle significatif',
    );
  });
});

describe('BODS interest types', () => {
  it.each([
    ['shareholding', 'Shareholding'],
    ['votingRights', 'Voting rights'],
    ['voting-rights', 'Voting rights'],
    ['beneficiary-of-trust', 'Beneficiary of a trust or arrangement'],
    ['seniorManagingOfficial', 'Senior managing official'],
  ])('%s reads “%s”', (code, words) => {
    expect(describeControlNature(code, t)).toBe(words);
  });

  it('has words in German and French', () => {
    expect(describeControlNature('shareholding', i18nFor('de').t)).toBe('Beteiligung');
    expect(describeControlNature('appointmentOfBoard', i18nFor('fr').t)).toBe('Droit de nommer le conseil');
  });
});
