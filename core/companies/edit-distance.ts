// Edit distance between two words, for ranking typo corrections (core/companies/name-query.ts).

/**
 * Optimal string alignment distance (restricted Damerau-Levenshtein): the fewest insertions,
 * deletions, substitutions and swaps of two adjacent letters that turn `a` into `b`, no substring
 * edited twice. Letters are code points. Stops as soon as the distance must exceed `max`, and then
 * returns `max + 1`.
 */
export function osaDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  const s = Array.from(a);
  const t = Array.from(b);
  const m = s.length;
  const n = t.length;
  if (Math.abs(m - n) > max) return max + 1;
  if (m === 0) return n;
  if (n === 0) return m;
  // Three rows of the dynamic-programming table: i-2, i-1 and i.
  let before = new Array<number>(n + 1).fill(0);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  let current = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // Every later cell descends from this row: once all of it exceeds max, so will the result.
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[n];
  return distance > max ? max + 1 : distance;
}
