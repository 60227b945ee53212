// Whole numbers of the JSON API (server/api/route.ts): a path or query parameter is digits only,
// a JSON body field is a JSON integer. z.coerce read `[1]`, "1e3", "+1", " 1" and "0x10" as numbers.
import { describe, expect, it } from 'vitest';
import { intField, intParam } from '../../server/api/route.ts';

describe('intParam (path and query text)', () => {
  it('reads the text of a whole number within its bounds', () => {
    expect(intParam('id').parse('12')).toBe(12);
    expect(intParam('id').parse(12)).toBe(12);
    expect(intParam('since', 0).parse('0')).toBe(0);
  });

  it('refuses anything else with a message naming the parameter', () => {
    for (const value of ['1e3', '+1', '-1', ' 1', '1 ', '0x10', '1.0', '1.5', '', '١٢', [1], ['1'], true, null, {}]) {
      const result = intParam('id').safeParse(value);
      expect(result.success, JSON.stringify(value)).toBe(false);
      expect(result.error?.issues[0].message, JSON.stringify(value)).toMatch(/^id must be/);
    }
    expect(intParam('count', 1, 100).safeParse('101').success).toBe(false);
    expect(intParam('id').safeParse('99999999999999999').success).toBe(false);
  });
});

describe('intField (JSON body)', () => {
  it('takes a JSON integer only', () => {
    expect(intField('object_id').parse(7)).toBe(7);
    for (const value of ['7', [7], '7e0', 7.5, true, null, Number.MAX_SAFE_INTEGER + 2]) {
      const result = intField('object_id').safeParse(value);
      expect(result.success, JSON.stringify(value)).toBe(false);
      expect(result.error?.issues[0].message, JSON.stringify(value)).toMatch(/^object_id must be/);
    }
  });
});
