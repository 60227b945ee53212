import { describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env.ts';

// WEB_CONCURRENCY (docs/decisions/0024-processes-and-replicas.md): app processes on one port, more
// than one only on a PostgreSQL server — PGlite is one process's database.

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/registra';

describe('WEB_CONCURRENCY', () => {
  it('is one process by default', () => {
    expect(readEnv({}).WEB_CONCURRENCY).toBe(1);
  });

  it('runs several processes on PostgreSQL', () => {
    expect(readEnv({ DATABASE_URL, WEB_CONCURRENCY: '4' }).WEB_CONCURRENCY).toBe(4);
  });

  it('refuses several processes on PGlite, saying why and what to do', () => {
    expect(() => readEnv({ WEB_CONCURRENCY: '2' })).toThrow(/WEB_CONCURRENCY.*PGlite.*DATABASE_URL/);
    expect(readEnv({ WEB_CONCURRENCY: '1' }).WEB_CONCURRENCY).toBe(1);
  });

  it('refuses a count that is not one', () => {
    expect(() => readEnv({ DATABASE_URL, WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
    expect(() => readEnv({ DATABASE_URL, WEB_CONCURRENCY: 'many' })).toThrow(/WEB_CONCURRENCY/);
  });
});
