// A download's Range header (RFC 9110 §14): one byte range is served (206 with Content-Range);
// a range past the end, or one that is malformed, is refused (416 with `bytes */size`, which the
// RFC allows for an invalid ranges-specifier); several ranges, another unit, or an If-Range that
// does not match the file's ETag get the whole file (200), as the RFC lets a server do.

export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function byteRange(
  header: string | undefined,
  size: number,
  etag: string,
  ifRange: string | undefined,
): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  // If-Range with a date (weak by nature) or another ETag: the file changed, send it whole.
  if (ifRange !== undefined && ifRange !== etag) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const specs = match[1].split(',');
  if (specs.length > 1) return { kind: 'whole' };
  const spec = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'unsatisfiable' };
  if (spec[1] === '') {
    // The last N bytes.
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (start >= size || (spec[2] !== '' && Number(spec[2]) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
