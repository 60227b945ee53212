// The people (and companies) that sit on boards. Ids are arithmetic, so that any company can pick
// its members from its own random stream without knowing what other batches did:
//   - person p (1, 2, 3, …) has member id 2p − 1; company c introduces the persons up to
//     ceil(0.6 × c), so a batch of companies [a, b] inserts persons ceil(0.6(a−1))+1 … ceil(0.6 b);
//   - company X has member id 2X when X ≡ 3 (mod 10): those companies can be shareholders or
//     parent companies of later ones.
// Person p's country follows a fixed interleaved sequence built from the jurisdiction weights, so
// that a company mostly finds people of its own country; picks favour recently introduced people
// (most people sit on 2–6 boards) with a Zipf-like tail towards the earliest (a few sit on dozens).

import type { Random } from '../../core/seeded-random.ts';

export const PERSONS_PER_COMPANY = 0.6;

export const personPoolSize = (companies: number): number => Math.ceil(PERSONS_PER_COMPANY * companies);
export const personMemberId = (person: number): number => 2 * person - 1;
export const companyMemberId = (companyId: number): number => 2 * companyId;
export const isCorporateMember = (companyId: number): boolean => companyId % 10 === 3;

const SEQUENCE_LENGTH = 1000;

export type PersonPool = {
  countryOf: (person: number) => string;
  /** A person for a board of company `companyId` registered in `country`. */
  pick: (companyId: number, country: string, random: Random) => number;
  /** A company that can be a shareholder or parent of `companyId` (always an earlier one), or null. */
  pickCorporate: (companyId: number, random: Random) => number | null;
};

export function createPersonPool(countries: { country: string; weight: number }[]): PersonPool {
  const total = countries.reduce((s, c) => s + c.weight, 0);
  // Largest-remainder counts per country, then interleave them evenly.
  const exact = countries.map((c) => ({ ...c, exact: (c.weight / total) * SEQUENCE_LENGTH }));
  const counts = exact.map((c) => ({ country: c.country, count: Math.max(1, Math.floor(c.exact)), rest: c.exact % 1 }));
  let missing = SEQUENCE_LENGTH - counts.reduce((s, c) => s + c.count, 0);
  for (const c of [...counts].sort((a, b) => b.rest - a.rest || (a.country < b.country ? -1 : 1))) {
    if (missing <= 0) break;
    c.count++;
    missing--;
  }
  const slots: { country: string; key: number }[] = [];
  for (const c of counts)
    for (let k = 0; k < c.count; k++) slots.push({ country: c.country, key: (k + 0.5) / c.count });
  slots.sort((a, b) => a.key - b.key || (a.country < b.country ? -1 : 1));
  const sequence = slots.slice(0, SEQUENCE_LENGTH).map((s) => s.country);
  const length = sequence.length;

  // positions[country] = indexes in the sequence; before[country][r] = how many of them are < r
  const positions = new Map<string, number[]>();
  sequence.forEach((country, i) => {
    const list = positions.get(country) ?? [];
    list.push(i);
    positions.set(country, list);
  });
  const before = new Map<string, Uint16Array>();
  for (const [country, list] of positions) {
    const counts = new Uint16Array(length + 1);
    let n = 0;
    for (let r = 0; r <= length; r++) {
      counts[r] = n;
      if (r < length && list[n] === r) n++;
    }
    before.set(country, counts);
  }

  /** How many persons of `country` exist among persons 1..pool. */
  const countIn = (country: string, pool: number): number => {
    const list = positions.get(country);
    const counts = before.get(country);
    if (list === undefined || counts === undefined) return 0;
    return Math.floor(pool / length) * list.length + counts[pool % length];
  };
  /** The k-th (0-based) person of `country`. */
  const nthOf = (country: string, k: number): number => {
    const list = positions.get(country) ?? [];
    return Math.floor(k / list.length) * length + list[k % list.length] + 1;
  };
  /** Recent-biased index in [0, n) with a heavy tail towards 0. */
  const skewedIndex = (n: number, random: Random): number => {
    if (random.chance(0.06)) return Math.min(n - 1, Math.floor(n * random.next() ** 1.7));
    const window = Math.max(8, Math.floor(n * 0.25));
    return n - 1 - Math.floor(Math.min(n, window) * random.next());
  };

  return {
    countryOf: (person) => sequence[(person - 1) % length],
    pick(companyId, country, random) {
      const pool = personPoolSize(companyId);
      if (random.chance(0.85)) {
        const n = countIn(country, pool);
        if (n > 0) return nthOf(country, skewedIndex(n, random));
      }
      return skewedIndex(pool, random) + 1;
    },
    pickCorporate(companyId, random) {
      if (companyId <= 3) return null;
      const count = Math.floor((companyId - 4) / 10) + 1;
      const k = count - 1 - Math.floor(Math.min(count, Math.max(20, count * 0.5)) * random.next());
      return 10 * k + 3;
    },
  };
}
