import { INDEXED_TEXT_MAX } from './company-facts.ts';

// When the database refuses a record's values after all (docs/decisions/0014-importers.md
// "Rejects"): the schemas of company-facts.ts refuse what is known beforehand, and this is the
// safety net's plain reason for what slipped through. Only the database refusing the data counts
// (SQLSTATE classes 22 data exception, 23 integrity constraint, 54 program limit): a lost
// connection or a cancelled statement is not the record's fault, and the import stops on it.

type DatabaseError = { code?: unknown; message?: unknown; constraint?: unknown };

/** The plain reason a record could not be stored, or null when the error is not about its data. */
export function storageRefusal(error: unknown): string | null {
  const { code, message, constraint } = (error ?? {}) as DatabaseError;
  if (typeof code !== 'string' || !/^(22|23|54)/.test(code)) return null;
  const text = typeof message === 'string' ? message : '';
  const quoted = /"([^"]*)"/.exec(text)?.[1];
  const value = quoted === undefined ? '' : ` (“${quoted.slice(0, 40)}${quoted.length > 40 ? '…' : ''}”)`;
  const rule = typeof constraint === 'string' ? ` (${constraint})` : '';
  switch (code) {
    case '54000':
      return `a value too long for the database's index (names, keys and identifiers: at most ${INDEXED_TEXT_MAX} characters)`;
    case '22021':
    case '22P05':
      return 'a character the database cannot store (a NUL character, U+0000, or bytes that are not UTF-8)';
    case '22007':
    case '22008':
    case '22009':
      return `a date or time the database cannot store${value}`;
    case '22003':
      return `a number beyond what the database can store${value}`;
    case '22001':
      return 'a value longer than its column takes';
    case '23502':
      return 'a value the database requires is missing';
    case '23503':
      return `it refers to something the database does not have${rule}`;
    case '23505':
      return `it holds a value another company already has where only one may${rule}`;
    case '23514':
      return `a value the database's rules refuse${rule}`;
    default:
      return code.startsWith('23') ? `the database's rules refuse it${rule}` : 'a value the database cannot store';
  }
}
