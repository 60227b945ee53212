import { sql } from 'kysely';
import { isValidLei, isValidNorwegianOrgNumber, luhnValid } from './check-digits.ts';

// How identifiers are compared, in one place (docs/decisions/0002-search-performance.md, "Identifiers"): by the
// search box, suggest, the matching engine and reconciliation (through matching), and the
// enrichment's cache key. Three forms of a written identifier:
//
//   compact  letters and digits only, upper case: "DE 123.456-789" → "DE123456789" (what matching
//            compares, migration 0022's index)
//   parts    the compact form cut into a letter prefix, leading zeros, the number and a letter
//            suffix: "HRB 20326 B" → HRB | | 20326 | B; "NO 923 609 016 MVA" → NO | | 923609016 | MVA
//   key      the number part alone: what the search looks up (migration 0030's index), so that
//            "390616", "00390616", "SC390616", "DE123456789" and "123456789" each find the stored forms
//            that differ only by the register's or the country's prefix, suffix or leading zeros.
//
// A key is wide on purpose; `identifierHit` says which stored identifiers a query really names.

/** An identifier as compared: letters and digits only, upper case ("DE 123.456-789" → "DE123456789"). */
export function compactIdentifier(value: string): string {
  return value.replace(/[^0-9A-Za-z]+/g, '').toUpperCase();
}

export type IdentifierParts = { prefix: string; zeros: string; number: string; suffix: string };

/** A compact identifier cut into its letter prefix, leading zeros, number, and letter suffix. */
export function identifierParts(value: string): IdentifierParts {
  const compact = compactIdentifier(value);
  const [, prefix, zeros, number, suffix] = /^([A-Z]*)(0*)(.*?)([A-Z]*)$/.exec(compact) ?? ['', '', '', '', ''];
  return { prefix, zeros, number, suffix };
}

/** The search key of an identifier: its number without the letters around it and leading zeros ('' when none). */
export function identifierKey(value: string): string {
  return identifierParts(value).number;
}

/**
 * identifierKey in SQL, for an identifier column: the expression of migration 0030's index
 * (legal_entity_identifiers_key_idx), which the planner uses only when a query spells it the same.
 * tests/integration/identifier-search.test.ts checks that it agrees with identifierKey.
 */
export const identifierKeySql = (column: string) =>
  sql`regexp_replace(regexp_replace(upper(regexp_replace(${sql.ref(column)}, '[^0-9A-Za-z]+', '', 'g')), '^[A-Z]*0*', ''), '[A-Z]*$', '')`;

/** compactIdentifier in SQL: the expression of migration 0022's index (legal_entity_identifiers_compact_idx). */
export const compactIdentifierSql = (column: string) =>
  sql`upper(regexp_replace(${sql.ref(column)}, '[^0-9A-Za-z]+', '', 'g'))`;

/**
 * The forms of a VAT or tax number to look up: as written, and without or with the country prefix
 * (registers keep "DE123456789" or "123456789"); Greece's VAT prefix is EL.
 */
export function vatForms(value: string, country: string | null): string[] {
  const compact = compactIdentifier(value);
  if (!compact) return [];
  const forms = new Set([compact]);
  if (/^[A-Z]{2}\d/.test(compact)) forms.add(compact.slice(2));
  else if (country) forms.add(`${country === 'GR' ? 'EL' : country}${compact}`);
  return [...forms];
}

// ---------------------------------------------------------------------------------------------
// The kinds a pasted text can be

/** An LEI (ISO 17442) in any case and spacing, when its check digits hold; else null. */
export function parseLei(value: string): string | null {
  const compact = compactIdentifier(value);
  return isValidLei(compact) ? compact : null;
}

/** An ISIN (ISO 6166: country, 9 characters, a Luhn check digit over letters as 10–35); else null. */
export function parseIsin(value: string): string | null {
  const compact = compactIdentifier(value);
  if (!/^[A-Z]{2}[0-9A-Z]{9}[0-9]$/.test(compact)) return null;
  const digits = Array.from(compact, (c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
  return luhnValid(digits) ? compact : null;
}

/** The SEC's Central Index Key, zero-padded to 10 digits as EDGAR writes it ("CIK 1318605" → "0001318605"); else null. */
export function parseCik(value: string): string | null {
  const compact = compactIdentifier(value).replace(/^CIK/, '');
  return /^\d{1,10}$/.test(compact) && !/^0+$/.test(compact) ? compact.padStart(10, '0') : null;
}

/** A Norwegian organisation number (9 digits, MOD 11; "NO 923 609 016 MVA" as well); else null. */
export function parseNorwegianOrgNumber(value: string): string | null {
  const { prefix, zeros, number, suffix } = identifierParts(value);
  const digits = zeros + number;
  if (!['', 'NO'].includes(prefix) || !['', 'MVA'].includes(suffix)) return null;
  return isValidNorwegianOrgNumber(digits) ? digits : null;
}

/**
 * What a text typed in the search box names when it is an identifier: its compact form and search
 * key, and the source keys (company_keys) it can be; null for a text that is no identifier — a name
 * (letters only, or a number of fewer than 3 digits beside words, "Route 66"), so that a name search
 * never pays for an identifier lookup.
 */
export type IdentifierQuery = {
  compact: string;
  parts: IdentifierParts;
  /** company_keys (scheme, key) to look up: the SEC's CIK, the LEI. */
  sourceKeys: { scheme: string; key: string }[];
};

/** At most this long: identifiers are short (an LEI 20, a Swiss VAT number with its suffix 20). */
const IDENTIFIER_QUERY_MAX = 40;

export function identifierQuery(text: string): IdentifierQuery | null {
  const typed = text.trim();
  if (typed.length > IDENTIFIER_QUERY_MAX || !/^[0-9A-Za-z .\-/]+$/.test(typed)) return null;
  const compact = compactIdentifier(typed);
  const parts = identifierParts(compact);
  const lei = parseLei(compact);
  if (!lei && (parts.number.replace(/\D/g, '').length < 3 || !/^[0-9]/.test(parts.number))) return null;
  const sourceKeys: { scheme: string; key: string }[] = [];
  const cik = parseCik(compact);
  if (cik) sourceKeys.push({ scheme: 'sec-cik', key: cik });
  if (lei) sourceKeys.push({ scheme: 'lei', key: lei });
  return { compact, parts, sourceKeys };
}

/**
 * Whether a stored identifier is one the query names, and how closely: 'exact' when the compact
 * forms are the same but for leading zeros ("00390616" / "390616"); 'partial' when the query leaves
 * out the register's or country's prefix or suffix the stored one has ("20326" / "HRB 20326",
 * "923609016" / "NO923609016MVA") — never when it has other letters ("HRA 20326" / "HRB 20326").
 */
export function identifierHit(query: IdentifierQuery, stored: string): 'exact' | 'partial' | null {
  const q = query.parts;
  const s = identifierParts(stored);
  if (q.number === '' || q.number !== s.number) return null;
  if (q.prefix === s.prefix && q.suffix === s.suffix) return 'exact';
  return (q.prefix === '' || q.prefix === s.prefix) && (q.suffix === '' || q.suffix === s.suffix) ? 'partial' : null;
}
