import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceRateLimits, RATE_LIMITS, rateWindow } from '../../core/accounts/rate-limits.ts';
import { countApiRequest } from '../../core/api-keys/api-limits.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { readEnv, trustProxyOf } from '../../server/env.ts';
import { uniqueEmail } from '../support/accounts.ts';
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

describe('the per-address sign-in limit and X-Forwarded-For (TRUST_PROXY)', () => {
  /** Sign-in attempts from one connection address, each naming another client in X-Forwarded-For. */
  async function rotatingAttempts(app: TestApp['app'], socket: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/authentication',
        remoteAddress: socket,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        // Another unknown account each time: only the per-address limit can refuse.
        payload: { email: uniqueEmail(`proxy${i}`), password: 'not the password at all' },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it('without TRUST_PROXY, a client naming other addresses still meets its own limit', async () => {
    const statuses = await rotatingAttempts(t.app, '192.0.2.10', RATE_LIMITS.signInIp.limit + 1);
    expect(statuses.slice(0, RATE_LIMITS.signInIp.limit)).toEqual(Array(RATE_LIMITS.signInIp.limit).fill(401));
    expect(statuses[RATE_LIMITS.signInIp.limit]).toBe(429);
  });

  it('with TRUST_PROXY=1, the address the proxy forwards is the client’s', async () => {
    const behindProxy = await buildTestApp({ trustProxy: trustProxyOf('1') ?? false });
    try {
      const statuses = await rotatingAttempts(behindProxy.app, '192.0.2.20', RATE_LIMITS.signInIp.limit + 1);
      expect(statuses).toEqual(Array(RATE_LIMITS.signInIp.limit + 1).fill(401));
    } finally {
      await behindProxy.close();
    }
  });

  it('reads TRUST_PROXY as off, a hop count or proxy addresses, and refuses anything else', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('')).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('2')).toBe(2);
    expect(trustProxyOf('10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(trustProxyOf('10.0.0.0/255.0.0.0')).toEqual(['10.0.0.0/255.0.0.0']);
    for (const bad of ['true', 'yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example', '1.5', '-1', '10.0.0.1;10.0.0.2']) {
      expect(trustProxyOf(bad), bad).toBeNull();
    }
    expect(readEnv({}).TRUST_PROXY).toBe(false);
    expect(readEnv({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(() => readEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: a number of proxy hops/);
  });
});

describe('the API limits on a read-only route, whose reads run beside the count (ADR 0044)', () => {
  const LIMITS = { anonymous: 5, free: 8, paid: 20, webhook: 30 };
  const SEARCH = '/api/site/data/v1/legal_entities?q=limited';
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ apiLimits: LIMITS });
  });
  afterAll(async () => {
    await limited?.close();
  });
  const call = (ip: string, url = SEARCH) => limited.app.inject({ url, remoteAddress: ip });
  /** A call of the same address counted by another process: only the database knows of it. */
  const elsewhere = (ip: string) => countApiRequest(limited.db, { plan: 'anonymous', subject: `ip:${ip}` }, LIMITS);

  it('count every call, this process’s and the others’, and refuse the one past the limit', async () => {
    const ip = '192.0.2.40';
    const first = await call(ip);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('4');
    await elsewhere(ip);
    await elsewhere(ip);
    // This process last saw 4 left; the database says 1 after this call.
    const second = await call(ip);
    expect(second.statusCode).toBe(200);
    expect(second.headers['ratelimit-limit']).toBe('5');
    expect(second.headers['ratelimit-remaining']).toBe('1');
    await elsewhere(ip);
    // Its reads ran beside the count (1 left when last seen here), but the count says over: a 429, not the page.
    const over = await call(ip);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({ code: 'rate_limited', details: { plan: 'anonymous', limit: 5 } });
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['retry-after']).toBe(over.headers['ratelimit-reset']);
    // Decided before any read now (none left when last seen): still a 429.
    expect((await call(ip)).statusCode).toBe(429);
  });

  it('answer a bad request with the limit’s headers under the limit, and with the 429 past it', async () => {
    const ip = '192.0.2.41';
    expect((await call(ip)).statusCode).toBe(200);
    const bad = await call(ip, `${SEARCH}&count=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.parameter).toBe('count');
    expect(bad.headers['ratelimit-remaining']).toBe('3');
    await elsewhere(ip);
    await elsewhere(ip);
    await elsewhere(ip);
    // Past the limit the verdict wins over the handler's own error, as when the count ran first.
    const over = await call(ip, `${SEARCH}&count=0`);
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('rate_limited');
  });
});
