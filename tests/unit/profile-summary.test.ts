import { describe, expect, it } from 'vitest';
import { niceTicks, yearsBetween } from '../../app/presenters/profile-summary.server.ts';

describe('a company’s age', () => {
  it('counts whole years, a year done only on its day', () => {
    const on = (iso: string) => new Date(`${iso}T12:00:00Z`);
    expect(yearsBetween('2017-03-31', on('2026-03-30'))).toBe(8);
    expect(yearsBetween('2017-03-31', on('2026-03-31'))).toBe(9);
    expect(yearsBetween('2026-01-01', on('2026-11-27'))).toBe(0);
    // A date in the future (a data error) is no negative age.
    expect(yearsBetween('2030-01-01', on('2026-11-27'))).toBe(0);
  });
});

describe('the financial chart’s axis', () => {
  it('takes round steps that cover the values, zero among them', () => {
    expect(niceTicks(0, 80_000)).toEqual([0, 20_000, 40_000, 60_000, 80_000]);
    expect(niceTicks(0, 1_250_000)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    const withLoss = niceTicks(-50_000, 1_250_000);
    expect(withLoss[0]).toBeLessThanOrEqual(-50_000);
    expect(withLoss).toContain(0);
    expect(withLoss[withLoss.length - 1]).toBeGreaterThanOrEqual(1_250_000);
    expect(niceTicks(0, 0)).toContain(0);
  });
});
