import { describe, expect, it } from 'vitest';
import { industryForSourceCode } from '../../core/industries/source-codes.ts';
import { NACE_REV2, naceIndustryId, naceLevel } from '../../db/reference/nace-rev2.ts';

const code = (system: Parameters<typeof industryForSourceCode>[0], c: string) =>
  industryForSourceCode(system, c)?.code ?? null;

describe('industryForSourceCode (ADR 0017)', () => {
  it('files NACE Rev. 2 codes under themselves, whatever the separators', () => {
    expect(code('nace-2', '62.01')).toBe('62.01');
    expect(code('nace-2', '6201')).toBe('62.01');
    expect(code('nace-2', '01.1')).toBe('01.1');
    expect(code('nace-2', '01.13')).toBe('01.13');
    expect(code('nace-2', '47')).toBe('47');
    expect(code('nace-2', 'j')).toBe('J');
    expect(code('nace-2', '04')).toBeNull(); // no such division
    expect(code('nace-2', 'Z')).toBeNull();
    expect(code('nace-2', '01.8')).toBe('01'); // no such group: its division
    expect(code('nace-2', '01.18')).toBe('01.1'); // no such class: its group
    expect(industryForSourceCode('nace-2', '62.01')?.id).toBe(naceIndustryId('62.01'));
  });

  it('reads UK SIC 2007 as Companies House writes it, filed under its NACE class; dormant companies have no industry', () => {
    expect(code('uk-sic-2007', '62020')).toBe('62.02');
    expect(code('uk-sic-2007', '62020 - Information technology consultancy activities')).toBe('62.02');
    expect(code('uk-sic-2007', '01110 - Growing of cereals (except rice), leguminous crops and oil seeds')).toBe(
      '01.11',
    );
    // UK SIC's fifth digit subdivides the class: 64201 and 64209 are both NACE 64.20.
    expect(code('uk-sic-2007', '64209 - Activities of other holding companies n.e.c.')).toBe('64.20');
    expect(code('uk-sic-2007', '64201')).toBe('64.20');
    expect(code('uk-sic-2007', '98000 - Residents property management')).toBe('98'); // no NACE 98.00 or 98.0
    expect(industryForSourceCode('uk-sic-2007', '62020')?.id).toBe(naceIndustryId('62.02'));
    expect(code('uk-sic-2007', '99999 - Dormant Company')).toBeNull();
    expect(code('uk-sic-2007', 'None Supplied')).toBeNull();
    expect(code('uk-sic-2007', '')).toBeNull();
  });

  it("reads Norway's SN2007 næringskoder, filed under their NACE class; 00.000 (unknown) has no industry", () => {
    expect(code('sn2007', '62.010')).toBe('62.01');
    expect(code('sn2007', '70.100')).toBe('70.10');
    expect(code('sn2007', '47.111')).toBe('47.11');
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
    expect(NACE_REV2.filter((r) => naceLevel(r[0]) === 4)).toHaveLength(615);
    // Every group sits under its own division, every class under its own group.
    for (const [c, parent] of NACE_REV2) if (naceLevel(c) === 3) expect(c.slice(0, 2)).toBe(parent);
    for (const [c, parent] of NACE_REV2) if (naceLevel(c) === 4) expect(c.slice(0, 4)).toBe(parent);
  });
});

describe('NACE Rev. 2 titles', () => {
  const row = (c: string) => NACE_REV2.find((r) => r[0] === c)!;

  it('carry each class with its own official German and French title', () => {
    expect(row('62.02').slice(2)).toEqual([
      'Computer consultancy activities',
      'Erbringung von Beratungsleistungen auf dem Gebiet der Informationstechnologie',
      'Conseil informatique',
    ]);
    expect(row('47.11').slice(2)).toEqual([
      'Retail sale in non-specialised stores with food, beverages or tobacco predominating',
      'Einzelhandel mit Waren verschiedener Art, Hauptrichtung Nahrungs- und Genussmittel, Getränke und Tabakwaren',
      'Commerce de détail en magasin non spécialisé à prédominance alimentaire',
    ]);
    // Every item has a title in each language, and every code is unique.
    for (const r of NACE_REV2) for (const t of r.slice(2)) expect(t).toMatch(/\S/);
    expect(new Set(NACE_REV2.map((r) => r[0])).size).toBe(NACE_REV2.length);
  });

  it('title an item like the one above it only where the English titles are the same', () => {
    // The source keys German and French by English title; only same-titled items may share them.
    const byCode = new Map(NACE_REV2.map((r) => [r[0], r]));
    for (const r of NACE_REV2) {
      const parent = r[1] === null ? undefined : byCode.get(r[1]);
      if (parent && r[3] === parent[3] && r[4] === parent[4]) expect(r[2]).toBe(parent[2]);
    }
    expect(row('01.30')[3]).toBe(row('01.3')[3]); // "Plant propagation", class and group
    expect(row('62.0')[3]).toBe(row('62')[3]); // the group titled like its division
  });
});

describe('NAICS codes', () => {
  it('are not mapped yet: no source writes them (ADR 0017)', () => {
    expect(industryForSourceCode('naics-2017', '511210')).toBeNull();
  });
});
