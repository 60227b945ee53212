import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../../core/imports/sql-rows.ts';

// The import's diff compares a record with the source's last one by sameJson: it must say what
// comparing their canonical JSON says (docs/decisions/0014-importers.md "Idempotency").
describe('sameJson', () => {
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: [1, { c: 'x' }] },
      { b: [1, { c: 'x' }], a: 1 },
    ],
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1, b: null }, { a: 1 }],
    [
      [1, undefined],
      [1, null],
    ],
    [{ a: [1, 2] }, { a: [2, 1] }],
    [{ a: '1' }, { a: 1 }],
    [[], {}],
    [null, []],
    [{ d: new Date('2020-01-01T00:00:00Z') }, { d: '2020-01-01T00:00:00.000Z' }],
    ['2001-02-03', '2001-02-03'],
    [{ a: { b: { c: [true] } } }, { a: { b: { c: [false] } } }],
    [{ a: 1 }, { a: 1, b: 2 }],
  ];
  it.each(cases)('agrees with canonical JSON: %j vs %j', (a, b) => {
    expect(sameJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
    expect(sameJson(b, a)).toBe(canonicalJson(a) === canonicalJson(b));
  });
});
