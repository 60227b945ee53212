import { describe, expect, it } from 'vitest';
import { chooseStatus, isActive } from '../../core/companies/company-status.ts';
import { companyIdOfUri } from '../../core/companies/company-uri.ts';
import { nameWords, normalizeName } from '../../core/companies/normalize-name.ts';
import { displayName, type RefItem } from '../../core/reference/reference-data.ts';

describe('status rule (spec §4)', () => {
  it('shows active only for status id 1', () => {
    expect(isActive(1)).toBe(true);
    expect(isActive(2)).toBe(false);
    expect(isActive(null)).toBe(false);
  });
  it('chooses id 1 when present, else the first with a name', () => {
    expect(
      chooseStatus([
        { status_id: 3, status_name: 'Dissolved' },
        { status_id: 1, status_name: 'Active' },
      ])?.status_id,
    ).toBe(1);
    expect(
      chooseStatus([
        { status_id: 5, status_name: null },
        { status_id: 3, status_name: 'Dissolved' },
      ])?.status_id,
    ).toBe(3);
    expect(chooseStatus([])).toBeUndefined();
  });
});

describe('display-name rule (spec §3)', () => {
  const item = (translations: [number, string][]): RefItem => ({
    id: 1,
    uri: 'fallback-uri',
    translations: new Map(translations.map(([id, name]) => [id, { name, name_full: null, name_short: null }])),
  });
  it('takes the translation with language id 41, else the uri', () => {
    expect(
      displayName(
        item([
          [41, 'Germany'],
          [32, 'Deutschland'],
        ]),
      ),
    ).toBe('Germany');
    expect(displayName(item([[32, 'Deutschland']]))).toBe('fallback-uri');
  });
  it('prefers the wanted language, then English', () => {
    expect(
      displayName(
        item([
          [41, 'Germany'],
          [32, 'Deutschland'],
        ]),
        32,
      ),
    ).toBe('Deutschland');
    expect(displayName(item([[41, 'Germany']]), 32)).toBe('Germany');
  });
});

describe('name normalisation', () => {
  it('folds case and accents and drops legal forms', () => {
    expect(normalizeName('Müller Bau GmbH')).toBe('muller bau');
    expect(normalizeName('MÜLLER-BAU G.m.b.H.')).toBe('muller bau');
    expect(normalizeName('Société Générale S.A.')).toBe('societe generale');
    expect(normalizeName('Acme Holdings, Inc.')).toBe('acme holdings');
    expect(normalizeName('Ærø Fisk ApS')).toBe('aero fisk');
  });
  it('drops dotted, slashed and compound legal forms at the end of a name', () => {
    const cases: [string, string][] = [
      ['Müller Bau GmbH & Co. KG', 'muller bau'],
      ['Schmidt & Co.', 'schmidt'],
      ['Construcciones Pérez S.L.U.', 'construcciones perez'],
      ['Kowalski Sp. z o.o.', 'kowalski'],
      ['Hansen Transport A/S', 'hansen transport'],
      ['Bäckerei Huber e.K.', 'backerei huber'],
      ['Tanaka Shoji K.K.', 'tanaka shoji'],
      ['Grupo Lopez S.A. de C.V.', 'grupo lopez'],
      ['Servicios Ruiz S. de R.L. de C.V.', 'servicios ruiz'],
      ['Infotech Solutions Pvt. Ltd.', 'infotech solutions'],
      ['Verde Agricultural Co-operative', 'verde agricultural'],
      ['Casa da Musica Lda', 'casa da musica'],
      ['Bank of America Corporation', 'bank of america'],
    ];
    for (const [name, expected] of cases) expect(normalizeName(name), name).toBe(expected);
  });

  it('keeps a name that is only a legal form', () => {
    expect(nameWords('GmbH')).toEqual(['gmbh']);
  });
});

describe('companyIdOfUri', () => {
  it('reads the id a company URI ends with, and nothing else', () => {
    expect(companyIdOfUri('langosh-paving-llc-10029')).toBe(10029);
    expect(companyIdOfUri('10029')).toBe(10029);
    expect(companyIdOfUri('paving-3m-llc-7')).toBe(7);
    expect(companyIdOfUri('langosh-paving-llc')).toBeNull();
    expect(companyIdOfUri('langosh-paving-llc10029')).toBeNull();
    expect(companyIdOfUri('x-0')).toBeNull();
    expect(companyIdOfUri(`x-${'9'.repeat(20)}`)).toBeNull();
  });
});
