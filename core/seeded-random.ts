// A small, fast, seeded random source for the demo-data generator (db/seed) and the matching
// hold-out (core/matching/holdout.ts). Every company (and person)
// gets its own stream derived from (seed, kind, id), so that the data of one id never depends on
// how many were generated before it or in which batch.

export type Random = {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Integer in [0, n). */
  int: (n: number) => number;
  /** Integer in [min, max]. */
  between: (min: number, max: number) => number;
  chance: (p: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
};

/** Mixes integers into a 32-bit seed (murmur3 finaliser per step). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    // split numbers above 2^32 so that large ids stay distinct
    const low = part >>> 0;
    const high = Math.floor(part / 4294967296) >>> 0;
    for (const word of [low, high]) {
      h = Math.imul(h ^ word, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
    }
  }
  return h >>> 0;
}

/** mulberry32: 32-bit state, good enough statistically for demo data and very fast. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/** Picks from weighted items in O(log n). */
export type WeightedPicker<T> = (random: Random) => T;

export function weightedPicker<T>(items: readonly { value: T; weight: number }[]): WeightedPicker<T> {
  const cumulative: number[] = [];
  let total = 0;
  for (const item of items) {
    total += item.weight;
    cumulative.push(total);
  }
  return (random) => {
    const x = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo].value;
  };
}
