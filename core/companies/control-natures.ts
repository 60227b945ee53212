import type { TFunction } from 'i18next';

// A person with significant control's natures of control, as Companies House codes them
// (psc_descriptions.yml of companieshouse/api-enumerations: ownership-of-shares-25-to-50-percent,
// voting-rights-75-to-100-percent-as-trust, right-to-share-surplus-assets-…-limited-liability-partnership, …).
// Each code is what is held, the band, and through whom; read from those parts, the hundred or so codes
// need a dozen translated words. A code of another shape (a nominee's) is shown as the register wrote it.
// Kept on the membership as the source gave them (docs/decisions/0016-national-registers.md).

const NATURE =
  /^(ownership-of-shares|voting-rights|right-to-appoint-and-remove-(?:directors|members|person)|significant-influence-or-control|(?:part-)?right-to-share-surplus-assets)(?:-(25-to-50|50-to-75|75-to-100|more-than-25)-percent)?(?:-as-(trust|firm|control-over-trust|control-over-firm))?(?:-limited-liability-partnership|-registered-overseas-entity)?$/;

const KIND: Record<string, string> = {
  'ownership-of-shares': 'shares',
  'voting-rights': 'votingRights',
  'right-to-appoint-and-remove-directors': 'appointDirectors',
  'right-to-appoint-and-remove-members': 'appointMembers',
  'right-to-appoint-and-remove-person': 'appointMembers',
  'significant-influence-or-control': 'influence',
  'right-to-share-surplus-assets': 'surplusAssets',
  'part-right-to-share-surplus-assets': 'surplusAssets',
};

const VIA: Record<string, string> = {
  trust: 'trust',
  firm: 'firm',
  'control-over-trust': 'trust',
  'control-over-firm': 'firm',
};

// The Beneficial Ownership Data Standard's interest types (BODS 0.4 writes them in camelCase,
// `votingRights`; earlier versions hyphenated, `voting-rights`), as an ownership statement states
// them (ADR 0038): each is one translated word under profile.control.bods.
const BODS_INTERESTS = new Set([
  'shareholding',
  'votingRights',
  'appointmentOfBoard',
  'otherInfluenceOrControl',
  'seniorManagingOfficial',
  'settlor',
  'trustee',
  'protector',
  'beneficiaryOfLegalArrangement',
  'rightsToSurplusAssetsOnDissolution',
  'rightsToProfitOrIncome',
  'rightsGrantedByContract',
  'conditionalRightsGrantedByContract',
  'controlViaCompanyRulesOrArticles',
  'controlByLegalFramework',
  'boardMember',
  'boardChair',
  'unknownInterest',
  'unpublishedInterest',
  'enjoymentAndUseOfAssets',
  'rightToProfitOrIncomeFromAssets',
]);
/** `voting-rights` → `votingRights`; older BODS names of renamed types to their 0.4 name. */
const BODS_RENAMED: Record<string, string> = {
  settlorOfTrust: 'settlor',
  trusteeOfTrust: 'trustee',
  protectorOfTrust: 'protector',
  beneficiaryOfTrust: 'beneficiaryOfLegalArrangement',
  rightsToSurplusAssets: 'rightsToSurplusAssetsOnDissolution',
};

/** The BODS 0.4 interest type a nature of control is when it is one (`voting-rights` → `votingRights`), else null. */
export function bodsInterest(code: string): string | null {
  const camel = code.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const name = BODS_RENAMED[camel] ?? camel;
  return BODS_INTERESTS.has(name) ? name : null;
}

/**
 * One nature of control in words: "Shares 75–100 %", "Voting rights more than 25 %, through a
 * trust" (a PSC code), "Shareholding" (a BODS interest type).
 */
export function describeControlNature(code: string, t: TFunction): string {
  const match = NATURE.exec(code);
  if (!match) {
    const interest = bodsInterest(code);
    return interest ? t(`profile.control.bods.${interest}`) : code;
  }
  const [, kind, band, via] = match;
  const what = t(`profile.control.${KIND[kind]}`);
  const held = band ? `${what} ${t(`profile.control.band.${band}`)}` : what;
  return via ? t(`profile.control.via.${VIA[via]}`, { held }) : held;
}
