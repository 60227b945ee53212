import { describe, expect, it } from 'vitest';
import {
  maxCorrectionDistance,
  namesWithOneWordReplaced,
  oneLetterDeletions,
  rankCorrections,
} from '../../core/companies/name-query.ts';

describe('oneLetterDeletions', () => {
  it('lists each distinct word left by deleting one letter', () => {
    expect(oneLetterDeletions('bank').sort()).toEqual(['ank', 'bak', 'ban', 'bnk']);
    expect(oneLetterDeletions('grill').sort()).toEqual(['gill', 'gril', 'grll', 'rill']);
    expect(oneLetterDeletions('a')).toEqual([]);
  });

  it('matches a swapped word to its original through a shared deletion', () => {
    const shared = oneLetterDeletions('girll').filter((d) => oneLetterDeletions('grill').includes(d));
    expect(shared.sort()).toEqual(['gill', 'grll']);
  });
});

describe('rankCorrections', () => {
  const candidates = [
    { word: 'grill', documents: 12 },
    { word: 'girl', documents: 40 },
    { word: 'gill', documents: 900 },
    { word: 'grille', documents: 3 },
    { word: 'grilling', documents: 500 },
    { word: 'drill', documents: 80 },
    { word: 'gravel', documents: 1000 },
  ];

  it('puts the fewest edits first, then words of the same length, then the most common word', () => {
    // girll: grill 1 (swap, same length), girl 1 (deletion), gill 1, drill 2, grille 2; grilling 4, gravel 4 are too far
    expect(rankCorrections('girll', candidates)).toEqual(['grill', 'gill', 'girl', 'drill']);
    expect(rankCorrections('girll', candidates, 10)).toEqual(['grill', 'gill', 'girl', 'drill', 'grille']);
  });

  it('at the same distance and length, takes the same letters swapped before a wrong letter, however common', () => {
    // neoen: neeon is a swap (1), neoex a wrong letter (1) in far more names.
    const words = [
      { word: 'neoex', documents: 900 },
      { word: 'neeon', documents: 3 },
    ];
    expect(rankCorrections('neoen', words)).toEqual(['neeon', 'neoex']);
  });

  it('allows one edit in words of under five letters', () => {
    expect(maxCorrectionDistance('bnak')).toBe(1);
    expect(maxCorrectionDistance('bnaks')).toBe(2);
    const words = [
      { word: 'bank', documents: 5 },
      { word: 'back', documents: 50 },
      { word: 'bake', documents: 500 },
    ];
    expect(rankCorrections('bnak', words)).toEqual(['bank']);
  });

  it('never offers the word itself or a word twice', () => {
    const twice = [
      { word: 'grill', documents: 12 },
      { word: 'grill', documents: 12 },
      { word: 'girll', documents: 1 },
    ];
    expect(rankCorrections('girll', twice)).toEqual(['grill']);
  });
});

describe('namesWithOneWordReplaced', () => {
  it('replaces one word at a time, every word’s closest correction before the next ones', () => {
    const corrections = new Map([
      ['nenoeon', ['neoneon', 'nenoen']],
      ['bau', ['bay']],
    ]);
    expect(namesWithOneWordReplaced(['nenoeon', 'bau'], corrections)).toEqual([
      'neoneon bau',
      'nenoeon bay',
      'nenoen bau',
    ]);
  });

  it('replaces a repeated word at each place it stands, and gives nothing without corrections', () => {
    expect(namesWithOneWordReplaced(['alpha', 'alpha'], new Map([['alpha', ['aplha']]]))).toEqual([
      'aplha alpha',
      'alpha aplha',
    ]);
    expect(namesWithOneWordReplaced(['alpha'], new Map([['alpha', []]]))).toEqual([]);
  });
});
