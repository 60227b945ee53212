// The set of companies being compared (spec §1 "company comparison"): company ids in the order
// they were added, at most MAX_COMPARED_COMPANIES. Pure: the same rules for a guest's cookie and a
// signed-in user's saved set (saved-comparison.ts), and for merging one into the other.

/** How many companies a comparison holds side by side (one A4 landscape page fits five). */
export const MAX_COMPARED_COMPANIES = 5;

/** The cookie that keeps a guest's comparison (spec §4 "saved cookies restore … comparison companies"). */
export const COMPARISON_COOKIE = 'comparison';

/** Spec §9: preference cookies live one day, path /. */
export const COMPARISON_COOKIE_MAX_AGE = 86_400;

export type ComparisonChange = {
  /** The set after the change. */
  ids: number[];
  /** Ids that were added, in order. */
  added: number[];
  /** Ids that were already in the set. */
  already: number[];
  /** Ids that did not fit (the set was full). */
  refused: number[];
};

/** Adds ids at the end, in order, without repeats, as long as there is room. */
export function addCompanies(current: readonly number[], wanted: readonly number[]): ComparisonChange {
  const ids = [...current];
  const added: number[] = [];
  const already: number[] = [];
  const refused: number[] = [];
  for (const id of wanted) {
    if (ids.includes(id)) {
      if (!added.includes(id)) already.push(id);
    } else if (ids.length >= MAX_COMPARED_COMPANIES) {
      if (!refused.includes(id)) refused.push(id);
    } else {
      ids.push(id);
      added.push(id);
    }
  }
  return { ids, added, already, refused };
}

/** The set without this company. */
export function removeCompany(current: readonly number[], id: number): number[] {
  return current.filter((c) => c !== id);
}

/**
 * A guest's set joins the user's saved one when they sign in: the user's companies first, then
 * the guest's new ones while there is room.
 */
export function mergeComparisons(saved: readonly number[], guest: readonly number[]): ComparisonChange {
  return addCompanies(saved, guest);
}

const COOKIE_VALUE = /^\d{1,15}(?:\.\d{1,15}){0,4}$/;

/**
 * The ids a comparison cookie holds: `12.345.6789` (dots need no escaping in a cookie). Anything
 * else — tampered, truncated, too many — is an empty set, never an error.
 */
export function parseComparisonCookie(value: string | undefined | null): number[] {
  if (!value || value.length > 100 || !COOKIE_VALUE.test(value)) return [];
  const ids = value.split('.').map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) return [];
  return [...new Set(ids)];
}

/** The cookie value of a set (empty for an empty set). */
export function comparisonCookieValue(ids: readonly number[]): string {
  return ids.slice(0, MAX_COMPARED_COMPANIES).join('.');
}
