// Check digits of company identifiers: LEI (ISO 17442), IBAN, and national company, tax and VAT
// numbers. Pure functions: `make…` and the `…Check` functions compute check digits from a payload,
// `isValid…` checks shape and check digits (what an importer validates with). Making up numbers
// for the demo data is the seed's (db/seed/identifiers.ts).

const digitsOf = (value: string): number[] => Array.from(value, (c) => c.charCodeAt(0) - 48);
const onlyDigits = (value: string): string => value.replace(/\D/g, '');

// ---------------------------------------------------------------------------------------------
// Generic schemes

/** ISO 7064 MOD 97-10 remainder of an alphanumeric string (letters count as 10..35). */
export function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) remainder = (remainder * 100 + (code - 55)) % 97;
    else return Number.NaN;
  }
  return remainder;
}

/** Luhn: true when the digit string (check digit last) passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  const values = digitsOf(digits);
  for (let i = 0; i < values.length; i++) {
    let d = values[values.length - 1 - i];
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit to append to `payload`. */
export function luhnCheckDigit(payload: string): number {
  for (let d = 0; d < 10; d++) if (luhnValid(payload + d)) return d;
  throw new Error(`no Luhn check digit for ${payload}`);
}

export const weightedSum = (digits: string, weights: readonly number[]): number =>
  weights.reduce((sum, w, i) => sum + w * (digits.charCodeAt(i) - 48), 0);

// ---------------------------------------------------------------------------------------------
// LEI (ISO 17442) and IBAN (ISO 13616): ISO 7064 MOD 97-10

/** An LEI from its first 18 characters (4-character LOU prefix, then entity part): appends two check digits. */
export function makeLei(prefix18: string): string {
  const base = prefix18.toUpperCase();
  if (!/^[0-9A-Z]{18}$/.test(base)) throw new Error(`LEI prefix must be 18 alphanumeric characters: ${prefix18}`);
  const check = 98 - mod97(`${base}00`);
  return base + String(check).padStart(2, '0');
}

export function isValidLei(lei: string): boolean {
  return /^[0-9A-Z]{18}[0-9]{2}$/.test(lei) && mod97(lei) === 1;
}

/** Country-specific BBAN lengths of the IBAN registry, for the countries we generate. */
export const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AT: 20,
  BE: 16,
  BG: 22,
  BR: 29,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TR: 26,
};

/** An IBAN from its country and BBAN: computes the two check digits. */
export function makeIban(country: string, bban: string): string {
  const cc = country.toUpperCase();
  const body = bban.toUpperCase().replace(/\s+/g, '');
  if (!/^[A-Z]{2}$/.test(cc) || !/^[0-9A-Z]+$/.test(body)) throw new Error(`bad IBAN parts: ${country} ${bban}`);
  const check = 98 - mod97(`${body}${cc}00`);
  return `${cc}${String(check).padStart(2, '0')}${body}`;
}

export function isValidIban(iban: string): boolean {
  const value = iban.toUpperCase().replace(/\s+/g, '');
  if (!/^[A-Z]{2}[0-9]{2}[0-9A-Z]{10,30}$/.test(value)) return false;
  const expected = IBAN_LENGTHS[value.slice(0, 2)];
  if (expected !== undefined && value.length !== expected) return false;
  return mod97(value.slice(4) + value.slice(0, 4)) === 1;
}

// ---------------------------------------------------------------------------------------------
// Germany

/** ISO 7064 MOD 11,10 check digit (German USt-IdNr.). */
export function mod11_10CheckDigit(payload: string): number {
  let product = 10;
  for (const d of digitsOf(payload)) {
    let sum = (d + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
}

export function isValidGermanVat(vat: string): boolean {
  const m = /^DE([1-9]\d{7})(\d)$/.exec(vat);
  return m !== null && mod11_10CheckDigit(m[1]) === Number(m[2]);
}

// ---------------------------------------------------------------------------------------------
// France

export function isValidSiren(siren: string): boolean {
  return /^\d{9}$/.test(siren) && luhnValid(siren);
}

export function isValidSiret(siret: string): boolean {
  return /^\d{14}$/.test(siret) && luhnValid(siret);
}

/** The two-digit key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97. */
export function frenchVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');
}

export function isValidFrenchVat(vat: string): boolean {
  const m = /^FR(\d{2})(\d{9})$/.exec(vat);
  return m !== null && isValidSiren(m[2]) && frenchVatKey(m[2]) === m[1];
}

// ---------------------------------------------------------------------------------------------
// United Kingdom

/** Companies House number: 8 digits, or a two-letter prefix (SC, NI, OC, SO, NC, LP, SL, R0) and 6 digits. */
export function isValidUkCompanyNumber(value: string): boolean {
  return /^(\d{8}|(SC|NI|OC|SO|NC|LP|SL|NL|R0)\d{6})$/.test(value);
}

/** HMRC VAT: 9 digits; weights 8..2 on the first 7 plus the last two ≡ 0 mod 97 (or ≡ 42 for the 9755 scheme). */
export function isValidUkVat(vat: string): boolean {
  const m = /^GB(\d{9})$/.exec(vat);
  if (m === null) return false;
  const total = weightedSum(m[1], [8, 7, 6, 5, 4, 3, 2]) + Number(m[1].slice(7));
  return total % 97 === 0 || (total + 55) % 97 === 0;
}

// ---------------------------------------------------------------------------------------------
// United States

/** IRS campus prefixes of Employer Identification Numbers. */
export const EIN_PREFIXES = [
  1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 23, 24, 25, 26, 27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
  40, 41, 42, 43, 44, 45, 46, 47, 48, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 71,
  72, 73, 74, 75, 76, 77, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90, 91, 92, 93, 94, 95, 98, 99,
];
const EIN_PREFIX_SET = new Set(EIN_PREFIXES);

export function isValidEin(ein: string): boolean {
  const m = /^(\d{2})-\d{7}$/.exec(ein);
  return m !== null && EIN_PREFIX_SET.has(Number(m[1]));
}

// ---------------------------------------------------------------------------------------------
// Switzerland: UID CHE-123.456.789, mod 11 with weights 5 4 3 2 7 6 5 4

export function swissUidCheck(base8: string): number {
  const check = 11 - (weightedSum(base8, [5, 4, 3, 2, 7, 6, 5, 4]) % 11);
  return check === 11 ? 0 : check; // 10 means the number is never issued
}

export function isValidSwissUid(uid: string): boolean {
  const m = /^CHE-(\d{3})\.(\d{3})\.(\d{3})( (MWST|TVA|IVA))?$/.exec(uid);
  if (m === null) return false;
  const digits = m[1] + m[2] + m[3];
  return swissUidCheck(digits.slice(0, 8)) === Number(digits[8]);
}

export const formatSwissUid = (digits: string): string =>
  `CHE-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}`;

// ---------------------------------------------------------------------------------------------
// Netherlands: KvK number (8 digits, no check digit), RSIN and VAT (11-test)

export function isValidKvk(value: string): boolean {
  return /^\d{8}$/.test(value);
}

/** RSIN / BSN 11-test: 9 digits, weights 9..2 and −1 on the last, ≡ 0 mod 11. */
export function isValidRsin(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const sum = weightedSum(value, [9, 8, 7, 6, 5, 4, 3, 2, -1]);
  return sum % 11 === 0 && value !== '000000000';
}

export function isValidDutchVat(vat: string): boolean {
  const m = /^NL(\d{9})B\d{2}$/.exec(vat);
  return m !== null && isValidRsin(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Spain: CIF (letter, 7 digits, control digit or letter)

export function spanishCifControl(digits7: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = digits7.charCodeAt(i) - 48;
    if (i % 2 === 1) sum += d;
    else {
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidSpanishCif(cif: string): boolean {
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(cif);
  if (m === null) return false;
  const control = spanishCifControl(m[2]);
  const letter = 'JABCDEFGHI'[control];
  if ('ABEH'.includes(m[1])) return m[3] === String(control);
  if ('KPQSNW'.includes(m[1])) return m[3] === letter;
  return m[3] === String(control) || m[3] === letter;
}

export function isValidSpanishVat(vat: string): boolean {
  return vat.startsWith('ES') && isValidSpanishCif(vat.slice(2));
}

// ---------------------------------------------------------------------------------------------
// Italy: partita IVA, 11 digits, Luhn

export function isValidItalianVatNumber(value: string): boolean {
  return /^\d{11}$/.test(value) && luhnValid(value);
}

export function isValidItalianVat(vat: string): boolean {
  return vat.startsWith('IT') && isValidItalianVatNumber(vat.slice(2));
}

// ---------------------------------------------------------------------------------------------
// Poland: NIP, weights 6 5 7 2 3 4 5 6 7 mod 11 (10 never issued); KRS 10 digits

export function polishNipCheck(base9: string): number {
  return weightedSum(base9, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
}

export function isValidPolishNip(nip: string): boolean {
  const digits = nip.replace(/-/g, '');
  if (!/^\d{10}$/.test(digits)) return false;
  const check = polishNipCheck(digits.slice(0, 9));
  return check !== 10 && check === Number(digits[9]);
}

export function isValidPolishVat(vat: string): boolean {
  return /^PL\d{10}$/.test(vat) && isValidPolishNip(vat.slice(2));
}

export function isValidKrs(value: string): boolean {
  return /^\d{10}$/.test(value);
}

// ---------------------------------------------------------------------------------------------
// Denmark: CVR, weights 2 7 6 5 4 3 2 1, ≡ 0 mod 11

export function isValidDanishCvr(cvr: string): boolean {
  return /^[1-9]\d{7}$/.test(cvr) && weightedSum(cvr, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
}

export function isValidDanishVat(vat: string): boolean {
  return vat.startsWith('DK') && isValidDanishCvr(vat.slice(2));
}

// ---------------------------------------------------------------------------------------------
// Norway: organisasjonsnummer, weights 3 2 7 6 5 4 3 2, mod 11

export function norwegianCheck(base8: string): number {
  const check = 11 - (weightedSum(base8, [3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  return check === 11 ? 0 : check;
}

export function isValidNorwegianOrgNumber(value: string): boolean {
  const digits = value.replace(/\s/g, '');
  if (!/^[89]\d{8}$/.test(digits)) return false;
  return norwegianCheck(digits.slice(0, 8)) === Number(digits[8]);
}

export function isValidNorwegianVat(vat: string): boolean {
  const m = /^NO(\d{9})MVA$/.exec(vat);
  return m !== null && isValidNorwegianOrgNumber(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Sweden: organisationsnummer NNNNNN-NNNN, Luhn, third digit ≥ 2

export function isValidSwedishOrgNumber(value: string): boolean {
  const m = /^(\d{6})-?(\d{4})$/.exec(value);
  if (m === null) return false;
  const digits = m[1] + m[2];
  return Number(digits[2]) >= 2 && luhnValid(digits);
}

export function isValidSwedishVat(vat: string): boolean {
  const m = /^SE(\d{10})01$/.exec(vat);
  return m !== null && isValidSwedishOrgNumber(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Belgium: enterprise number 0NNN.NNN.NNN, check = 97 − (first 8 digits mod 97)

export function isValidBelgianEnterpriseNumber(value: string): boolean {
  const digits = value.replace(/\./g, '');
  if (!/^[01]\d{9}$/.test(digits)) return false;
  return 97 - (Number(digits.slice(0, 8)) % 97) === Number(digits.slice(8));
}

export function isValidBelgianVat(vat: string): boolean {
  return /^BE[01]\d{9}$/.test(vat) && isValidBelgianEnterpriseNumber(vat.slice(2));
}

export const formatBelgian = (d: string): string => `${d.slice(0, 4)}.${d.slice(4, 7)}.${d.slice(7)}`;

// ---------------------------------------------------------------------------------------------
// Austria: UID ATU + 8 digits; Firmenbuchnummer FN 123456a (shape)

export function austrianUidCheck(base7: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = base7.charCodeAt(i) - 48;
    if (i % 2 === 0) sum += d;
    else sum += Math.floor((d * 2) / 10) + ((d * 2) % 10);
  }
  return (96 - sum) % 10;
}

export function isValidAustrianVat(vat: string): boolean {
  const m = /^ATU(\d{7})(\d)$/.exec(vat);
  return m !== null && austrianUidCheck(m[1]) === Number(m[2]);
}

export function isValidAustrianCompanyNumber(value: string): boolean {
  return /^FN \d{1,6}[a-z]$/.test(value);
}

// ---------------------------------------------------------------------------------------------
// Ireland: CRO number (digits), VAT IE + 7 digits + check letter (mod 23)

export function irishVatLetter(base7: string): string {
  return 'WABCDEFGHIJKLMNOPQRSTUV'[weightedSum(base7, [8, 7, 6, 5, 4, 3, 2]) % 23];
}

export function isValidIrishVat(vat: string): boolean {
  const m = /^IE(\d{7})([A-W])$/.exec(vat);
  return m !== null && irishVatLetter(m[1]) === m[2];
}

// ---------------------------------------------------------------------------------------------
// Australia: ACN (mod 10, weights 8..1) and ABN (mod 89)

export function acnCheck(base8: string): number {
  return (10 - (weightedSum(base8, [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10;
}

export function isValidAcn(acn: string): boolean {
  const digits = acn.replace(/\s/g, '');
  return /^\d{9}$/.test(digits) && acnCheck(digits.slice(0, 8)) === Number(digits[8]);
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

export function isValidAbn(abn: string): boolean {
  const digits = abn.replace(/\s/g, '');
  if (!/^[1-9]\d{10}$/.test(digits)) return false;
  const values = digitsOf(digits);
  values[0] -= 1;
  return values.reduce((sum, d, i) => sum + d * ABN_WEIGHTS[i], 0) % 89 === 0;
}

/** The ABN of a company: two check digits in front of its 9-digit ACN. */
export function abnFromAcn(acn: string): string {
  const digits = acn.replace(/\s/g, '');
  for (let prefix = 10; prefix <= 99; prefix++) if (isValidAbn(`${prefix}${digits}`)) return `${prefix}${digits}`;
  throw new Error(`no ABN for ACN ${acn}`);
}

export const formatAbn = (d: string): string => `${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 8)} ${d.slice(8)}`;
export const formatAcn = (d: string): string => `${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`;

// ---------------------------------------------------------------------------------------------
// Canada: Business Number, 9 digits, Luhn

export function isValidCanadianBn(bn: string): boolean {
  const m = /^(\d{9})(RC\d{4})?$/.exec(bn.replace(/\s/g, ''));
  return m !== null && luhnValid(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Portugal (NIPC) and Finland (Y-tunnus): mod 11

export function portugueseCheck(base8: string): number {
  const check = 11 - (weightedSum(base8, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return check >= 10 ? 0 : check;
}

export function isValidPortugueseNif(nif: string): boolean {
  return /^[1-9]\d{8}$/.test(nif) && portugueseCheck(nif.slice(0, 8)) === Number(nif[8]);
}

export function isValidPortugueseVat(vat: string): boolean {
  return vat.startsWith('PT') && isValidPortugueseNif(vat.slice(2));
}

export function finnishCheck(base7: string): number {
  const remainder = weightedSum(base7, [7, 9, 10, 5, 8, 4, 2]) % 11;
  return remainder === 0 ? 0 : 11 - remainder; // 10 (remainder 1) is never issued
}

export function isValidFinnishBusinessId(value: string): boolean {
  const m = /^(\d{7})-(\d)$/.exec(value);
  return m !== null && finnishCheck(m[1]) === Number(m[2]);
}

export function isValidFinnishVat(vat: string): boolean {
  const m = /^FI(\d{7})(\d)$/.exec(vat);
  return m !== null && isValidFinnishBusinessId(`${m[1]}-${m[2]}`);
}

// ---------------------------------------------------------------------------------------------
// Luxembourg (VAT: 6 digits + their value mod 89) and New Zealand (NZBN: GS1 mod 10)

export function isValidLuxembourgVat(vat: string): boolean {
  const m = /^LU(\d{6})(\d{2})$/.exec(vat);
  return m !== null && Number(m[1]) % 89 === Number(m[2]);
}

/** GS1 check digit (weights 3 and 1 from the right), as in GLN, GTIN and NZBN. */
export function gs1CheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    const d = payload.charCodeAt(payload.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidNzbn(nzbn: string): boolean {
  return /^94\d{11}$/.test(nzbn) && gs1CheckDigit(nzbn.slice(0, 12)) === Number(nzbn[12]);
}

// ---------------------------------------------------------------------------------------------
// Japan: corporate number, 13 digits, leading check digit (mod 9)

export function japaneseCheck(base12: string): number {
  let sum = 0;
  for (let n = 1; n <= 12; n++) sum += (base12.charCodeAt(12 - n) - 48) * (n % 2 === 1 ? 1 : 2);
  return 9 - (sum % 9);
}

export function isValidJapaneseCorporateNumber(value: string): boolean {
  return /^[1-9]\d{12}$/.test(value) && japaneseCheck(value.slice(1)) === Number(value[0]);
}

// ---------------------------------------------------------------------------------------------
// Brazil: CNPJ NN.NNN.NNN/NNNN-NN, two mod 11 check digits

export function cnpjDigit(base: string): number {
  const weights = base.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const remainder = weightedSum(base, weights) % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

export function isValidCnpj(value: string): boolean {
  const digits = onlyDigits(value);
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  const first = cnpjDigit(digits.slice(0, 12));
  return first === Number(digits[12]) && cnpjDigit(digits.slice(0, 13)) === Number(digits[13]);
}

export const formatCnpj = (d: string): string =>
  `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

// ---------------------------------------------------------------------------------------------
// Mexico: RFC of a company (3 letters, YYMMDD, 2 homoclave characters, check character)

const RFC_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

export function mexicanRfcCheck(base11: string): string {
  const padded = ` ${base11}`; // companies have 12 characters: pad to the 13 of a person
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += RFC_ALPHABET.indexOf(padded[i]) * (13 - i);
  const remainder = sum % 11;
  if (remainder === 0) return '0';
  return remainder === 1 ? 'A' : String(11 - remainder);
}

export function isValidMexicanRfc(rfc: string): boolean {
  const m = /^([A-ZÑ&]{3}\d{6}[A-Z0-9]{2})([0-9A])$/.exec(rfc);
  return m !== null && mexicanRfcCheck(m[1]) === m[2];
}

// ---------------------------------------------------------------------------------------------
// Shapes without a published check digit

export function isValidUsStateFileNumber(value: string): boolean {
  return /^\d{7,8}$/.test(value);
}

export function isValidHongKongCompanyNumber(value: string): boolean {
  return /^\d{7}$/.test(value);
}

export function isValidSingaporeUen(value: string): boolean {
  return /^(19|20)\d{7}[A-Z]$/.test(value);
}

export function isValidIndianCin(value: string): boolean {
  return /^[LU]\d{5}[A-Z]{2}\d{4}(PTC|PLC|NPL|FTC|GOI)\d{6}$/.test(value);
}

export function isValidUaeTrn(value: string): boolean {
  return /^100\d{12}$/.test(value);
}

/** The national identifiers a company can have. */
export type IdentifierKind = 'company_number' | 'tax_number' | 'vat' | 'business_number';

type Validator = (value: string) => boolean;

const VALIDATORS: Record<string, Partial<Record<IdentifierKind, Validator>>> = {
  AE: { company_number: (v) => /^\d{6}$/.test(v), tax_number: isValidUaeTrn },
  AT: {
    company_number: isValidAustrianCompanyNumber,
    tax_number: (v) => /^\d{2}-\d{3}\/\d{4}$/.test(v),
    vat: isValidAustrianVat,
  },
  AU: { company_number: isValidAcn, business_number: isValidAbn },
  BE: { company_number: isValidBelgianEnterpriseNumber, vat: isValidBelgianVat },
  BR: { company_number: isValidCnpj, tax_number: isValidCnpj },
  CA: { company_number: (v) => /^\d{7}$/.test(v), business_number: isValidCanadianBn, tax_number: isValidCanadianBn },
  CH: { company_number: isValidSwissUid, vat: isValidSwissUid },
  DE: {
    company_number: (v) => /^HR[AB] [1-9]\d{3,5}( B)?$/.test(v),
    tax_number: (v) => /^\d{2,3}\/\d{3}\/\d{4,5}$/.test(v),
    vat: isValidGermanVat,
  },
  DK: { company_number: isValidDanishCvr, vat: isValidDanishVat },
  ES: { company_number: isValidSpanishCif, tax_number: isValidSpanishCif, vat: isValidSpanishVat },
  FI: { company_number: isValidFinnishBusinessId, vat: isValidFinnishVat },
  FR: { company_number: isValidSiren, business_number: isValidSiret, vat: isValidFrenchVat },
  GB: { company_number: isValidUkCompanyNumber, vat: isValidUkVat },
  HK: { company_number: isValidHongKongCompanyNumber, business_number: (v) => /^\d{8}$/.test(v) },
  IE: { company_number: (v) => /^\d{1,6}$/.test(v), vat: isValidIrishVat },
  IN: { company_number: isValidIndianCin, tax_number: (v) => /^[A-Z]{3}C[A-Z]\d{4}[A-Z]$/.test(v) },
  IT: {
    company_number: (v) => /^[A-Z]{2}-\d{6,7}$/.test(v),
    tax_number: isValidItalianVatNumber,
    vat: isValidItalianVat,
  },
  JP: {
    company_number: isValidJapaneseCorporateNumber,
    tax_number: (v) => v.startsWith('T') && isValidJapaneseCorporateNumber(v.slice(1)),
  },
  LU: { company_number: (v) => /^B\d{1,6}$/.test(v), vat: isValidLuxembourgVat },
  MX: { company_number: (v) => /^N-\d{10}$/.test(v), tax_number: isValidMexicanRfc },
  NL: { company_number: isValidKvk, tax_number: isValidRsin, vat: isValidDutchVat },
  NO: { company_number: isValidNorwegianOrgNumber, vat: isValidNorwegianVat },
  NZ: { company_number: (v) => /^\d{6,7}$/.test(v), business_number: isValidNzbn },
  PL: { company_number: isValidKrs, tax_number: isValidPolishNip, vat: isValidPolishVat },
  PT: { company_number: isValidPortugueseNif, tax_number: isValidPortugueseNif, vat: isValidPortugueseVat },
  SE: { company_number: isValidSwedishOrgNumber, vat: isValidSwedishVat },
  SG: { company_number: isValidSingaporeUen },
  US: { company_number: isValidUsStateFileNumber, tax_number: isValidEin },
};

/**
 * Whether `value` is a well-formed identifier of `kind` for the country, with correct check digits
 * where the scheme has them. Unknown countries or kinds: false.
 */
export function isValidIdentifier(countryCode: string, kind: IdentifierKind, value: string): boolean {
  const validate = VALIDATORS[countryCode.toUpperCase()]?.[kind];
  return validate?.(value) === true;
}
