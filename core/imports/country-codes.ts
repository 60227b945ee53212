import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

// Country names as the national registers write them, to ISO 3166-1 alpha-2 (ADR 0016). Companies
// House writes the UK's nations and a few informal names; the rest are English country names.

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

const ALIASES: Record<string, string> = {
  ENGLAND: 'GB',
  WALES: 'GB',
  SCOTLAND: 'GB',
  'NORTHERN IRELAND': 'GB',
  'ENGLAND AND WALES': 'GB',
  'ENGLAND & WALES': 'GB',
  'GREAT BRITAIN': 'GB',
  UK: 'GB',
  'UNITED KINGDOM': 'GB',
  'UNITED STATES': 'US',
  USA: 'US',
  'UNITED STATES OF AMERICA': 'US',
};

/** Names seen, with their codes (a file names a few hundred countries over millions of rows). */
const seen = new Map<string, string | null>();

/** The alpha-2 code of a country name, or null when the name is no country we know. */
export function countryCodeOf(name: string): string | null {
  let code = seen.get(name);
  if (code === undefined) {
    const key = name.trim().replace(/\s+/g, ' ').toUpperCase();
    code = ALIASES[key] ?? countries.getAlpha2Code(key, 'en') ?? null;
    if (seen.size < 10_000) seen.set(name, code);
  }
  return code;
}

/** The United States' states, district and territories by their postal codes (ISO 3166-2:US). */
export const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR UM VI'
  ).split(' '),
);
