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

/** One nature of control in words: "Shares 75–100 %", "Voting rights more than 25 %, through a trust". */
export function describeControlNature(code: string, t: TFunction): string {
  const match = NATURE.exec(code);
  if (!match) return code;
  const [, kind, band, via] = match;
  const what = t(`profile.control.${KIND[kind]}`);
  const held = band ? `${what} ${t(`profile.control.band.${band}`)}` : what;
  return via ? t(`profile.control.via.${VIA[via]}`, { held }) : held;
}
