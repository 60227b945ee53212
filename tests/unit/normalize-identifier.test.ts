import { describe, expect, it } from 'vitest';
import {
  compactIdentifier,
  identifierHit,
  identifierKey,
  identifierParts,
  identifierQuery,
  parseCik,
  parseIsin,
  parseLei,
  parseNorwegianOrgNumber,
  vatForms,
} from '../../core/identifiers/normalize-identifier.ts';

// The one normaliser of identifiers (core/identifiers/normalize-identifier.ts), per kind, on real
// numbers: Companies House (00390616, SC312961), GLEIF, SEC EDGAR (Tesla), Brønnøysund (Equinor).

const hit = (typed: string, stored: string) => {
  const query = identifierQuery(typed);
  return query ? identifierHit(query, stored) : 'no identifier';
};

describe('company numbers', () => {
  it('compares without spaces, punctuation, the register’s letters or leading zeros', () => {
    expect(compactIdentifier(' hrb 20326 ')).toBe('HRB20326');
    expect(identifierParts('HRB 20326 B')).toEqual({ prefix: 'HRB', zeros: '', number: '20326', suffix: 'B' });
    expect(identifierKey('00390616')).toBe('390616');
    expect(identifierKey('390616')).toBe('390616');
    expect(identifierKey('SC312961')).toBe('312961');
    expect(identifierKey('FN 123456a')).toBe('123456');
    expect(identifierKey('CHE-123.456.789 MWST')).toBe('123456789');
  });

  it('says which stored numbers a typed one names', () => {
    expect(hit('00390616', '00390616')).toBe('exact');
    expect(hit('390616', '00390616')).toBe('exact');
    expect(hit('SC312961', 'SC312961')).toBe('exact');
    expect(hit('sc 312961', 'SC312961')).toBe('exact');
    expect(hit('312961', 'SC312961')).toBe('partial');
    expect(hit('HRB 20326', 'HRB 20326')).toBe('exact');
    expect(hit('HRB20326', 'HRB 20326 B')).toBe('partial');
    expect(hit('20326', 'HRB 20326')).toBe('partial');
    // Other letters are another register's number.
    expect(hit('HRA 20326', 'HRB 20326')).toBeNull();
    expect(hit('NI312961', 'SC312961')).toBeNull();
    expect(hit('3129610', 'SC312961')).toBeNull();
  });
});

describe('LEIs', () => {
  it('reads an LEI in any case and spacing when its check digits hold', () => {
    expect(parseLei('029200013a5n6zd0f605')).toBe('029200013A5N6ZD0F605');
    expect(parseLei('5493 0043 XZGB 27CT OV49')).toBe('54930043XZGB27CTOV49');
    expect(parseLei('029200013A5N6ZD0F606')).toBeNull();
    expect(hit('029200013a5n6zd0f605', '029200013A5N6ZD0F605')).toBe('exact');
    expect(identifierQuery('HWUPKR0MPOU8FGXBT394')?.sourceKeys).toEqual([
      { scheme: 'lei', key: 'HWUPKR0MPOU8FGXBT394' },
    ]);
  });
});

describe('VAT numbers', () => {
  it('finds them with or without the country prefix, spaces or dots', () => {
    expect(hit('NO 923 609 016 MVA', 'NO923609016MVA')).toBe('exact');
    expect(hit('923609016', 'NO923609016MVA')).toBe('partial');
    expect(hit('NO923609016', 'NO923609016MVA')).toBe('partial');
    expect(hit('DE 123.456.789', 'DE123456789')).toBe('exact');
    expect(hit('123456789', 'DE123456789')).toBe('partial');
    expect(hit('FR123456789', 'DE123456789')).toBeNull();
    expect(vatForms('DE 123 456 789', null)).toEqual(['DE123456789', '123456789']);
    expect(vatForms('123456789', 'GR')).toEqual(['123456789', 'EL123456789']);
  });
});

describe('SEC CIKs, Norwegian organisation numbers, ISINs', () => {
  it('pads a CIK to EDGAR’s ten digits', () => {
    expect(parseCik('1318605')).toBe('0001318605');
    expect(parseCik('0001318605')).toBe('0001318605');
    expect(parseCik('CIK 1318605')).toBe('0001318605');
    expect(parseCik('12345678901')).toBeNull();
    expect(identifierQuery('1318605')?.sourceKeys).toEqual([{ scheme: 'sec-cik', key: '0001318605' }]);
  });

  it('reads a Norwegian organisation number with spaces, checking its MOD 11 digit', () => {
    expect(parseNorwegianOrgNumber('923 609 016')).toBe('923609016');
    expect(parseNorwegianOrgNumber('NO 923609016 MVA')).toBe('923609016');
    expect(parseNorwegianOrgNumber('923609017')).toBeNull();
    expect(hit('923 609 016', '923609016')).toBe('exact');
  });

  it('checks an ISIN’s Luhn digit over its letters', () => {
    expect(parseIsin('US88160R1014')).toBe('US88160R1014');
    expect(parseIsin('us0378331005')).toBe('US0378331005');
    expect(parseIsin('US0378331006')).toBeNull();
    expect(hit('US88160R1014', 'US88160R1014')).toBe('exact');
  });
});

describe('what is no identifier', () => {
  it('leaves names to the name search', () => {
    for (const name of ['Equinor', 'Route 66', '3M Company', 'Apollo 13 Ltd', 'Müller & Söhne 1234', 'x'.repeat(41)])
      expect(identifierQuery(name), name).toBeNull();
    // A number beside a word is looked up, but names no identifier with other letters.
    expect(hit('Studio 54321', '54321')).toBeNull();
    expect(identifierQuery('19004784')).not.toBeNull();
    expect(identifierQuery('9921977')).not.toBeNull();
  });
});
