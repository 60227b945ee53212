// Keyset cursors: the sort-column values of the last row of a page, base64url-encoded JSON.

export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, length: number): (string | number)[] | null {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(values) || values.length !== length) return null;
    if (!values.every((v) => typeof v === 'string' || typeof v === 'number')) return null;
    return values;
  } catch {
    return null;
  }
}
