import { describe, expect, it } from 'vitest';
import {
  abnFromAcn,
  frenchVatKey,
  type IdentifierKind,
  isValidAbn,
  isValidAcn,
  isValidAustrianVat,
  isValidBelgianEnterpriseNumber,
  isValidCnpj,
  isValidDanishCvr,
  isValidEin,
  isValidFinnishBusinessId,
  isValidFrenchVat,
  isValidGermanVat,
  isValidIban,
  isValidIdentifier,
  isValidIrishVat,
  isValidItalianVatNumber,
  isValidJapaneseCorporateNumber,
  isValidLei,
  isValidMexicanRfc,
  isValidNorwegianOrgNumber,
  isValidPolishNip,
  isValidSiren,
  isValidSpanishCif,
  isValidSwedishOrgNumber,
  isValidSwissUid,
  isValidUkCompanyNumber,
  makeIban,
  makeLei,
} from '../../core/identifiers/check-digits.ts';
import {
  generateIban,
  generateIdentifiers,
  generateLei,
  IDENTIFIER_COUNTRIES,
  type Rng,
} from '../../db/seed/identifiers.ts';

/** A small seeded generator (mulberry32), so that every run tests the same numbers. */
function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every variant of `value` with exactly one digit replaced by another digit. */
function oneDigitChanges(value: string, skipLast = 0): string[] {
  const variants: string[] = [];
  for (let i = 0; i < value.length - skipLast; i++) {
    const c = value[i];
    if (c < '0' || c > '9') continue;
    for (let d = 0; d <= 9; d++) {
      if (String(d) !== c) variants.push(value.slice(0, i) + d + value.slice(i + 1));
    }
  }
  return variants;
}

describe('LEI (ISO 17442)', () => {
  it('accepts published LEIs', () => {
    expect(isValidLei('5493001KJTIIGC8Y1R12')).toBe(true);
    expect(isValidLei('7LTWFZYICNSX8D621K86')).toBe(true);
  });

  it('computes the check digits from the first 18 characters', () => {
    expect(makeLei('5493001KJTIIGC8Y1R')).toBe('5493001KJTIIGC8Y1R12');
    expect(makeLei('7LTWFZYICNSX8D621K')).toBe('7LTWFZYICNSX8D621K86');
  });

  it('rejects a changed digit, a wrong length and lower case', () => {
    for (const variant of oneDigitChanges('5493001KJTIIGC8Y1R12')) expect(isValidLei(variant)).toBe(false);
    expect(isValidLei('5493001KJTIIGC8Y1R1')).toBe(false);
    expect(isValidLei('5493001kjtiigc8y1r12')).toBe(false);
    expect(() => makeLei('TOO-SHORT')).toThrow();
  });

  it('generates valid LEIs', () => {
    const rng = seededRng(7);
    for (let i = 0; i < 200; i++) expect(isValidLei(generateLei(rng))).toBe(true);
  });
});

describe('IBAN', () => {
  it('accepts published examples', () => {
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
  });

  it('computes check digits', () => {
    expect(makeIban('DE', '370400440532013000')).toBe('DE89370400440532013000');
    expect(makeIban('GB', 'WEST12345698765432')).toBe('GB82WEST12345698765432');
  });

  it('rejects a changed digit and a wrong length', () => {
    for (const variant of oneDigitChanges('DE89370400440532013000')) expect(isValidIban(variant)).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
  });

  it('generates valid IBANs', () => {
    const rng = seededRng(11);
    for (const country of ['DE', 'FR', 'GB', 'NL', 'CH', 'ES', 'IT', 'PL', 'SE']) {
      expect(isValidIban(generateIban(country, rng))).toBe(true);
    }
  });
});

describe('national numbers: published examples', () => {
  it.each([
    ['German VAT', isValidGermanVat, 'DE136695976'],
    ['French SIREN', isValidSiren, '732829320'],
    ['French VAT', isValidFrenchVat, 'FR44732829320'],
    ['Swiss UID', isValidSwissUid, 'CHE-116.281.710'],
    ['Spanish CIF', isValidSpanishCif, 'A58818501'],
    ['Italian partita IVA', isValidItalianVatNumber, '00743110157'],
    ['Polish NIP', isValidPolishNip, '5260250995'],
    ['Danish CVR', isValidDanishCvr, '24256790'],
    ['Norwegian org number', isValidNorwegianOrgNumber, '923609016'],
    ['Swedish org number', isValidSwedishOrgNumber, '556036-0793'],
    ['Belgian enterprise number', isValidBelgianEnterpriseNumber, '0403.170.701'],
    ['Australian ABN', isValidAbn, '51824753556'],
    ['Australian ACN', isValidAcn, '004085616'],
    ['Austrian UID', isValidAustrianVat, 'ATU13585627'],
    ['Irish VAT', isValidIrishVat, 'IE6388047V'],
    ['Finnish business id', isValidFinnishBusinessId, '0112038-9'],
    ['Japanese corporate number', isValidJapaneseCorporateNumber, '7000012050002'],
    ['Brazilian CNPJ', isValidCnpj, '11.222.333/0001-81'],
    ['Mexican RFC', isValidMexicanRfc, 'CFE370814QI0'],
    ['US EIN', isValidEin, '12-3456789'],
    ['UK company number', isValidUkCompanyNumber, 'SC123456'],
  ])('%s %s', (_label, validate, value) => {
    expect(validate(value)).toBe(true);
  });

  it('knows the French VAT key and the ABN of an ACN', () => {
    expect(frenchVatKey('732829320')).toBe('44');
    expect(abnFromAcn('004085616')).toBe('53004085616');
  });

  it('rejects EINs with an unassigned prefix and malformed UK company numbers', () => {
    expect(isValidEin('07-1234567')).toBe(false);
    expect(isValidEin('00-1234567')).toBe(false);
    expect(isValidEin('123456789')).toBe(false);
    expect(isValidUkCompanyNumber('1234567')).toBe(false);
    expect(isValidUkCompanyNumber('XX123456')).toBe(false);
  });
});

describe('generateIdentifiers', () => {
  const kinds: IdentifierKind[] = ['company_number', 'tax_number', 'vat', 'business_number'];

  it.each(IDENTIFIER_COUNTRIES)('%s: every generated number validates', (country) => {
    const rng = seededRng(country.charCodeAt(0) * 256 + country.charCodeAt(1));
    for (let i = 0; i < 300; i++) {
      const ids = generateIdentifiers(country, rng);
      for (const kind of kinds) {
        const value = ids[kind];
        if (value !== undefined)
          expect([country, kind, value, isValidIdentifier(country, kind, value)]).toEqual([country, kind, value, true]);
      }
    }
  });

  // Schemes whose check digits catch every single-digit error; `skipLast` leaves out fixed suffix digits.
  const strict: [string, IdentifierKind, number][] = [
    ['AT', 'vat', 0],
    ['AU', 'business_number', 0],
    ['BE', 'company_number', 0],
    ['BE', 'vat', 0],
    ['CA', 'business_number', 0],
    ['CH', 'company_number', 0],
    ['DE', 'vat', 0],
    ['DK', 'company_number', 0],
    ['ES', 'company_number', 0],
    ['FI', 'company_number', 0],
    ['FR', 'company_number', 0],
    ['FR', 'business_number', 0],
    ['FR', 'vat', 0],
    ['IE', 'vat', 0],
    ['IT', 'vat', 0],
    ['LU', 'vat', 0],
    ['NL', 'tax_number', 0],
    ['NL', 'vat', 2],
    ['NO', 'company_number', 0],
    ['NZ', 'business_number', 0],
    ['PL', 'vat', 0],
    ['SE', 'company_number', 0],
  ];

  it.each(strict)('%s %s: a one-digit change is rejected', (country, kind, skipLast) => {
    const rng = seededRng(99);
    for (let i = 0; i < 40; i++) {
      const value = generateIdentifiers(country, rng)[kind];
      expect(value).toBeDefined();
      for (const variant of oneDigitChanges(value ?? '', skipLast)) {
        expect([value, variant, isValidIdentifier(country, kind, variant)]).toEqual([value, variant, false]);
      }
    }
  });

  it('is deterministic for the same random sequence', () => {
    expect(generateIdentifiers('DE', seededRng(5))).toEqual(generateIdentifiers('DE', seededRng(5)));
  });

  it('falls back to an 8-digit number for other countries', () => {
    expect(generateIdentifiers('ZZ', seededRng(1)).company_number).toMatch(/^[1-9]\d{7}$/);
  });
});
