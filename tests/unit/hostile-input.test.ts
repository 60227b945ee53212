// Cursors are client input, and failures of the database are classified once: pure checks.
import { describe, expect, it } from 'vitest';
import { type CursorColumn, decodeSortCursor, encodeCursor } from '../../core/search/cursor.ts';
import { isDatabaseUnavailable } from '../../db/database-unavailable.ts';

const raw = (json: string) => Buffer.from(json).toString('base64url');

describe('decodeSortCursor', () => {
  it('gives back the values of a cursor that fits its sort columns', () => {
    expect(decodeSortCursor(encodeCursor(['2020-02-29', 17]), ['date', 'int'])).toEqual(['2020-02-29', 17]);
    // Companies without a registration date sort as 0001-01-01: a date column holds it.
    expect(decodeSortCursor(encodeCursor(['0001-01-01', 3]), ['date', 'int'])).toEqual(['0001-01-01', 3]);
    expect(decodeSortCursor(encodeCursor(['acme', 3]), ['text', 'int'])).toEqual(['acme', 3]);
    // A relevance rank: similarities are float4.
    expect(decodeSortCursor(encodeCursor([0, -0.33333334, 1, 3]), ['int', 'real', 'int', 'int'])).toEqual([
      0, -0.33333334, 1, 3,
    ]);
  });

  it('refuses values the database would fail on', () => {
    const bad: [string, CursorColumn[]][] = [
      [raw('[1e39, 1]'), ['real', 'int']],
      [raw('["0.5", 1]'), ['real', 'int']],
      [raw('[1e400, 1]'), ['int', 'int']],
      [raw('["2020-01-01", 99999999999999999999]'), ['date', 'int']],
      [raw('["2020-01-01", 1.5]'), ['date', 'int']],
      [raw('["2020-01-01", "1"]'), ['date', 'int']],
      [raw('["2021-02-29", 1]'), ['date', 'int']],
      [raw('["0000-01-01", 1]'), ['date', 'int']],
      [raw('["2020-1-1", 1]'), ['date', 'int']],
      [raw('[5, 1]'), ['text', 'int']],
      [raw('["a\\u0000", 1]'), ['text', 'int']],
      [raw('[null, 1]'), ['date', 'int']],
      [raw('[[1], 1]'), ['int', 'int']],
      [raw('{"0": 1, "1": 2}'), ['int', 'int']],
      [raw('[1, 2, 3]'), ['int', 'int']],
      ['%%%', ['int', 'int']],
    ];
    for (const [cursor, columns] of bad) expect(decodeSortCursor(cursor, columns), cursor).toBeNull();
  });
});

describe('isDatabaseUnavailable', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it('knows a server that is away, starting, shutting down, full or too busy for the statement timeout', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      '08006',
      '08001',
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '57014',
      '55P03',
    ])
      expect(isDatabaseUnavailable(coded(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Cannot use a pool after calling end on the pool'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: coded('57P01') }))).toBe(true);
  });

  it('leaves the failures of a request to be what they are', () => {
    for (const code of ['22008', '22021', '23505', '42P01', '40001'])
      expect(isDatabaseUnavailable(coded(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
