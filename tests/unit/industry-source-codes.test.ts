import { describe, expect, it } from 'vitest';
import { industryForSourceCode } from '../../core/industries/source-codes.ts';
import { NACE_REV2, naceIndustryId, naceLevel } from '../../db/reference/nace-rev2.ts';

const code = (system: Parameters<typeof industryForSourceCode>[0], c: string) =>
  industryForSourceCode(system, c)?.code ?? null;

describe('industryForSourceCode (ADR 0017)', () => {
  it('files NACE Rev. 2 codes under their group, divisions and sections under themselves', () => {
    expect(code('nace-2', '62.01')).toBe('62.0');
    expect(code('nace-2', '6201')).toBe('62.0');
    expect(code('nace-2', '01.1')).toBe('01.1');
    expect(code('nace-2', '01.13')).toBe('01.1');
    expect(code('nace-2', '47')).toBe('47');
    expect(code('nace-2', 'j')).toBe('J');
    expect(code('nace-2', '04')).toBeNull(); // no such division
    expect(code('nace-2', 'Z')).toBeNull();
    expect(code('nace-2', '01.8')).toBe('01'); // no such group: its division
    expect(industryForSourceCode('nace-2', '62.01')?.id).toBe(naceIndustryId('62.0'));
  });

  it('reads UK SIC 2007 as Companies House writes it; dormant companies have no industry', () => {
    expect(code('uk-sic-2007', '62020')).toBe('62.0');
    expect(code('uk-sic-2007', '62020 - Information technology consultancy activities')).toBe('62.0');
    expect(code('uk-sic-2007', '01110 - Growing of cereals (except rice), leguminous crops and oil seeds')).toBe(
      '01.1',
    );
    expect(code('uk-sic-2007', '64209 - Activities of other holding companies n.e.c.')).toBe('64.2');
    expect(code('uk-sic-2007', '98000 - Residents property management')).toBe('98');
    expect(code('uk-sic-2007', '99999 - Dormant Company')).toBeNull();
    expect(code('uk-sic-2007', 'None Supplied')).toBeNull();
    expect(code('uk-sic-2007', '')).toBeNull();
  });

  it("reads Norway's SN2007 næringskoder; 00.000 (unknown) has no industry", () => {
    expect(code('sn2007', '62.010')).toBe('62.0');
    expect(code('sn2007', '70.100')).toBe('70.1');
    expect(code('sn2007', '47.111')).toBe('47.1');
    expect(code('sn2007', '00.000')).toBeNull();
    expect(code('sn2007', 'abc')).toBeNull();
  });

  it('maps US SIC through the longest listed prefix', () => {
    expect(code('us-sic', '7372')).toBe('62'); // prepackaged software → computer programming
    expect(code('us-sic', '7374')).toBe('63'); // data processing → information services
    expect(code('us-sic', '2834')).toBe('21'); // pharmaceutical preparations
    expect(code('us-sic', '2080')).toBe('11'); // beverages
    expect(code('us-sic', '2011')).toBe('10'); // meat packing
    expect(code('us-sic', '6022')).toBe('64'); // state commercial banks
    expect(code('us-sic', '6770')).toBe('64'); // blank checks
    expect(code('us-sic', '3711')).toBe('29');
    expect(code('us-sic', '3721')).toBe('30');
    expect(code('us-sic', '100')).toBe('01'); // SEC writes 0100 as 100
    expect(code('us-sic', '9995')).toBeNull(); // non-operating establishments
    expect(code('us-sic', '8888')).toBeNull(); // foreign governments
    expect(code('us-sic', '')).toBeNull();
  });

  it('maps every US SIC major group the table lists to a division that exists', () => {
    for (let major = 1; major <= 97; major++) {
      const c = `${String(major).padStart(2, '0')}00`;
      const result = industryForSourceCode('us-sic', c);
      if (result) expect(naceLevel(result.code)).toBe(2);
    }
    expect(NACE_REV2.filter((r) => naceLevel(r[0]) === 1)).toHaveLength(21);
    expect(NACE_REV2.filter((r) => naceLevel(r[0]) === 2)).toHaveLength(88);
    expect(NACE_REV2.filter((r) => naceLevel(r[0]) === 3)).toHaveLength(272);
    // Every group sits under its own division.
    for (const [c, parent] of NACE_REV2) if (naceLevel(c) === 3) expect(c.slice(0, 2)).toBe(parent);
  });
});

describe('NAICS codes', () => {
  it('are not mapped yet: no source writes them (ADR 0017)', () => {
    expect(industryForSourceCode('naics-2017', '511210')).toBeNull();
  });
});
