import { describe, expect, it } from 'vitest';
import { osaDistance } from '../../core/companies/edit-distance.ts';

describe('osaDistance', () => {
  it('is 0 for equal words and the length for an empty one', () => {
    expect(osaDistance('grill', 'grill')).toBe(0);
    expect(osaDistance('', '')).toBe(0);
    expect(osaDistance('', 'bank')).toBe(4);
    expect(osaDistance('bank', '')).toBe(4);
  });

  it('counts a swap of two adjacent letters as one edit', () => {
    expect(osaDistance('girll', 'grill')).toBe(1);
    expect(osaDistance('bnak', 'bank')).toBe(1);
    expect(osaDistance('ab', 'ba')).toBe(1);
    expect(osaDistance('tarding', 'trading')).toBe(1);
    // at either end of the word
    expect(osaDistance('rgill', 'grill')).toBe(1);
    expect(osaDistance('grilk', 'grikl')).toBe(1);
  });

  it('counts insertions, deletions and substitutions as one edit each', () => {
    expect(osaDistance('grll', 'grill')).toBe(1);
    expect(osaDistance('grilll', 'grill')).toBe(1);
    expect(osaDistance('grull', 'grill')).toBe(1);
    expect(osaDistance('kitten', 'sitting')).toBe(3);
    expect(osaDistance('flaw', 'lawn')).toBe(2);
  });

  it('does not edit a substring twice (optimal string alignment, not full Damerau-Levenshtein)', () => {
    // Damerau-Levenshtein gives 2 (ca → ac → abc); OSA may not insert between swapped letters.
    expect(osaDistance('ca', 'abc')).toBe(3);
    expect(osaDistance('abcd', 'badc')).toBe(2);
  });

  it('is symmetric', () => {
    const pairs = [
      ['girll', 'grill'],
      ['kitten', 'sitting'],
      ['ca', 'abc'],
      ['müller', 'mueller'],
      ['nordic', 'nrodci'],
    ];
    for (const [a, b] of pairs) expect(osaDistance(a, b)).toBe(osaDistance(b, a));
  });

  it('counts letters, not UTF-16 code units', () => {
    expect(osaDistance('𝒜b', 'b𝒜')).toBe(1);
    expect(osaDistance('𝒜bc', 'bc')).toBe(1);
  });

  it('returns max + 1 as soon as the distance exceeds max', () => {
    expect(osaDistance('kitten', 'sitting', 2)).toBe(3);
    expect(osaDistance('kitten', 'sitting', 3)).toBe(3);
    expect(osaDistance('a', 'abcdef', 2)).toBe(3);
    expect(osaDistance('abcdef', 'ghijkl', 1)).toBe(2);
    expect(osaDistance('girll', 'grill', 1)).toBe(1);
    expect(osaDistance('girll', 'grill', 0)).toBe(1);
  });

  it('agrees with and without max on random words', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () => Array.from({ length: Math.floor(next() * 7) }, () => 'abcd'[Math.floor(next() * 4)]).join('');
    for (let n = 0; n < 2000; n++) {
      const [a, b] = [word(), word()];
      const full = osaDistance(a, b);
      for (const max of [0, 1, 2, 3]) expect(osaDistance(a, b, max)).toBe(Math.min(full, max + 1));
      expect(full).toBe(referenceOsa(a, b));
    }
  });
});

/** The textbook full-table OSA, to check the three-row version against. */
function referenceOsa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
