import { describe, expect, it } from 'vitest';
import { byteRange } from '../../server/api/bulk.ts';

// The one Range header form a bulk download honours (ADR 0036): a single byte range.
describe('byteRange', () => {
  it('reads a-b, a- and -n within the file, clipping an end past it', () => {
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
  });

  it('answers the whole file for no header, several ranges, another unit or nonsense', () => {
    for (const header of [undefined, '', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-', 'bytes=a-b', 'bytes=1.5-2']) {
      expect(byteRange(header, 100), String(header)).toBeNull();
    }
  });

  it('refuses a range that starts past the end or ends before it starts', () => {
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
