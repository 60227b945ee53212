import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceRateLimits, RATE_LIMITS, rateWindow } from '../../core/accounts/rate-limits.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The limits count in the database (rate_limit_buckets) over a sliding window estimated from two
// fixed ones: the end of a fixed window must not forgive the attempts made just before it.

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

const rule = RATE_LIMITS.signInAccount;
/** A window boundary in the past, so that nothing else counts against these subjects. */
const boundary = rateWindow(rule, new Date('2026-03-01T09:05:00Z')).endsAt.getTime();

async function attempt(subject: string, at: number): Promise<'allowed' | number> {
  try {
    await enforceRateLimits(t.db, [[rule, subject]], new Date(at));
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited')
      return (error.details as { minutes: number }).minutes;
    throw error;
  }
}

describe('rate limits across a window boundary', () => {
  it('refuses the attempt after the limit even when the window has just changed', async () => {
    const subject = 'straddle@example.com';
    for (let i = 0; i < rule.limit; i++) expect(await attempt(subject, boundary - 10_000 + i * 500)).toBe('allowed');
    // One second into the next window, the ten guesses are still within fifteen minutes.
    expect(await attempt(subject, boundary + 1000)).toBe(2);
  });

  it('forgets the attempts once a whole window has passed', async () => {
    const subject = 'patient@example.com';
    for (let i = 0; i < rule.limit; i++) await attempt(subject, boundary - 10_000 + i * 500);
    expect(await attempt(subject, boundary + rule.windowMs + 1000)).toBe('allowed');
  });

  it('lets the previous window’s attempts fade as the window goes on', async () => {
    const subject = 'halfway@example.com';
    for (let i = 0; i < rule.limit; i++) await attempt(subject, boundary - 10_000 + i * 500);
    // Half way through the next window, half of them count: five more are allowed, not six.
    const halfWay = boundary + rule.windowMs / 2;
    for (let i = 0; i < 5; i++) expect(await attempt(subject, halfWay + i)).toBe('allowed');
    expect(await attempt(subject, halfWay + 5)).not.toBe('allowed');
  });
});
