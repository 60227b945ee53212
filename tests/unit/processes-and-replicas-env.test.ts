import { describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env.ts';

// WEB_CONCURRENCY and DATABASE_REPLICA_URLS (docs/decisions/0024-processes-and-replicas.md): app processes on one port, more
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

describe('DATABASE_REPLICA_URLS', () => {
  it('is none by default, and a comma-separated list of PostgreSQL URLs', () => {
    expect(readEnv({ DATABASE_URL }).DATABASE_REPLICA_URLS).toEqual([]);
    const urls = 'postgres://reader@10.0.0.2:5432/registra, postgresql://reader@10.0.0.3/registra';
    expect(readEnv({ DATABASE_URL, DATABASE_REPLICA_URLS: urls }).DATABASE_REPLICA_URLS).toEqual([
      'postgres://reader@10.0.0.2:5432/registra',
      'postgresql://reader@10.0.0.3/registra',
    ]);
    expect(readEnv({ DATABASE_URL }).DATABASE_REPLICA_MAX_LAG_SECONDS).toBe(5);
  });

  it('refuses what is not a PostgreSQL URL, without showing its password', () => {
    expect(() => readEnv({ DATABASE_URL, DATABASE_REPLICA_URLS: 'mysql://u:secret@h/db' })).toThrow(
      /DATABASE_REPLICA_URLS: not a PostgreSQL URL: mysql:\/\/u:\*\*\*@h\/db/,
    );
  });

  it('needs the primary in DATABASE_URL', () => {
    expect(() => readEnv({ DATABASE_REPLICA_URLS: 'postgres://reader@10.0.0.2/registra' })).toThrow(
      /DATABASE_REPLICA_URLS.*DATABASE_URL/,
    );
  });
});
