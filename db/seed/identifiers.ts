// Made-up national identifiers for the demo data: each country's company, tax and VAT numbers in
// its real shape, with check digits computed by core/identifiers/check-digits.ts (where importers
// validate real ones), so that generated companies pass the same checks as imported ones.

import {
  abnFromAcn,
  acnCheck,
  austrianUidCheck,
  cnpjDigit,
  EIN_PREFIXES,
  finnishCheck,
  formatAbn,
  formatAcn,
  formatBelgian,
  formatCnpj,
  formatSwissUid,
  frenchVatKey,
  gs1CheckDigit,
  IBAN_LENGTHS,
  irishVatLetter,
  japaneseCheck,
  luhnCheckDigit,
  makeIban,
  makeLei,
  mexicanRfcCheck,
  mod11_10CheckDigit,
  norwegianCheck,
  polishNipCheck,
  portugueseCheck,
  spanishCifControl,
  swissUidCheck,
  weightedSum,
} from '../../core/identifiers/check-digits.ts';

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

export type GeneratedIdentifiers = {
  company_number: string;
  tax_number?: string;
  vat?: string;
  business_number?: string;
};

const randomDigits = (rng: Rng, count: number, firstNonZero = false): string => {
  let out = '';
  for (let i = 0; i < count; i++) {
    const d = i === 0 && firstNonZero ? 1 + Math.floor(rng() * 9) : Math.floor(rng() * 10);
    out += d;
  }
  return out;
};
const randomLetters = (rng: Rng, count: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(rng() * alphabet.length)];
  return out;
};
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

/** A random IBAN of a country in the registry above (digits-only BBAN). */
export function generateIban(country: string, rng: Rng): string {
  const length = IBAN_LENGTHS[country.toUpperCase()];
  if (length === undefined) throw new Error(`no IBAN length for ${country}`);
  return makeIban(country, randomDigits(rng, length - 4));
}

function makeUkVat(rng: Rng): string {
  const base = randomDigits(rng, 7, true);
  const check = (97 - (weightedSum(base, [8, 7, 6, 5, 4, 3, 2]) % 97)) % 97;
  return `GB${base}${String(check).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Generation per country

const GERMAN_COURTS = ['B', 'HH', 'M', 'K', 'F', 'S', 'D', 'HB', 'DU', 'E', 'H', 'L', 'DD', 'N', 'MA', 'HD'];
const ITALIAN_PROVINCES = ['MI', 'RM', 'TO', 'NA', 'BO', 'FI', 'VE', 'GE', 'BA', 'PA', 'VR', 'BG', 'BS', 'PD'];
const INDIAN_STATES = ['MH', 'KA', 'DL', 'TN', 'TG', 'GJ', 'WB', 'UP', 'HR', 'RJ', 'KL'];
const INDIAN_NIC = ['72900', '74999', '51909', '45200', '65999', '15122', '52100', '85110', '70100', '62099'];

function generateGerman(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 8, true);
  const court = pick(rng, GERMAN_COURTS);
  const register = rng() < 0.85 ? 'HRB' : 'HRA';
  return {
    company_number: `${register} ${randomDigits(rng, 5 + Math.floor(rng() * 2), true)}${court === 'B' ? ' B' : ''}`,
    tax_number: `${randomDigits(rng, 2, true)}/${randomDigits(rng, 3)}/${randomDigits(rng, 5)}`,
    vat: `DE${base}${mod11_10CheckDigit(base)}`,
  };
}

function generateFrench(rng: Rng): GeneratedIdentifiers {
  const payload = randomDigits(rng, 8, true);
  const siren = `${payload}${luhnCheckDigit(payload)}`;
  const nic = `0001${luhnCheckDigit(`${siren}0001`)}`;
  return { company_number: siren, business_number: `${siren}${nic}`, vat: `FR${frenchVatKey(siren)}${siren}` };
}

function generateBritish(rng: Rng): GeneratedIdentifiers {
  const roll = rng();
  const company_number =
    roll < 0.08
      ? `SC${randomDigits(rng, 6)}`
      : roll < 0.1
        ? `NI${randomDigits(rng, 6)}`
        : `${pick(rng, ['0', '1'])}${randomDigits(rng, 7)}`;
  return { company_number, vat: makeUkVat(rng) };
}

function generateSwiss(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = randomDigits(rng, 8, true);
    const check = swissUidCheck(base);
    if (check === 10) continue;
    const uid = formatSwissUid(`${base}${check}`);
    return { company_number: uid, vat: `${uid} MWST` };
  }
}

function generateDutch(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = randomDigits(rng, 8, true);
    const check = weightedSum(base, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    if (check === 10) continue;
    const rsin = `${base}${check}`;
    return { company_number: randomDigits(rng, 8, true), tax_number: rsin, vat: `NL${rsin}B01` };
  }
}

function generateSpanish(rng: Rng): GeneratedIdentifiers {
  const digits = randomDigits(rng, 7);
  const cif = `${rng() < 0.8 ? 'B' : 'A'}${digits}${spanishCifControl(digits)}`;
  return { company_number: cif, tax_number: cif, vat: `ES${cif}` };
}

function generateItalian(rng: Rng): GeneratedIdentifiers {
  const payload = randomDigits(rng, 10, true);
  const piva = `${payload}${luhnCheckDigit(payload)}`;
  return {
    company_number: `${pick(rng, ITALIAN_PROVINCES)}-${randomDigits(rng, 7, true)}`,
    tax_number: piva,
    vat: `IT${piva}`,
  };
}

function generatePolish(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = randomDigits(rng, 9, true);
    const check = polishNipCheck(base);
    if (check === 10) continue;
    const nip = `${base}${check}`;
    return { company_number: `0000${randomDigits(rng, 6)}`, tax_number: nip, vat: `PL${nip}` };
  }
}

function generateDanish(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = randomDigits(rng, 7, true);
    const sum = weightedSum(base, [2, 7, 6, 5, 4, 3, 2]);
    const check = (11 - (sum % 11)) % 11;
    if (check === 10) continue;
    const cvr = `${base}${check}`;
    return { company_number: cvr, vat: `DK${cvr}` };
  }
}

function generateNorwegian(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = `9${randomDigits(rng, 7)}`;
    const check = norwegianCheck(base);
    if (check === 10) continue;
    const orgnr = `${base}${check}`;
    return { company_number: orgnr, vat: `NO${orgnr}MVA` };
  }
}

function generateSwedish(rng: Rng): GeneratedIdentifiers {
  const payload = `55${6 + Math.floor(rng() * 4)}${randomDigits(rng, 6)}`;
  const digits = `${payload}${luhnCheckDigit(payload)}`;
  return { company_number: `${digits.slice(0, 6)}-${digits.slice(6)}`, vat: `SE${digits}01` };
}

function generateBelgian(rng: Rng): GeneratedIdentifiers {
  const base = `0${randomDigits(rng, 7, true)}`;
  const check = String(97 - (Number(base) % 97)).padStart(2, '0');
  const digits = `${base}${check}`;
  return { company_number: formatBelgian(digits), vat: `BE${digits}` };
}

function generateAustrian(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 7, true);
  return {
    company_number: `FN ${randomDigits(rng, 6, true)}${randomLetters(rng, 1, 'abdfghikmpstvwxyz')}`,
    tax_number: `${randomDigits(rng, 2, true)}-${randomDigits(rng, 3)}/${randomDigits(rng, 4)}`,
    vat: `ATU${base}${austrianUidCheck(base)}`,
  };
}

function generateIrish(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 7, true);
  return { company_number: randomDigits(rng, 6, true), vat: `IE${base}${irishVatLetter(base)}` };
}

function generateAustralian(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 8, true);
  const acn = `${base}${acnCheck(base)}`;
  return { company_number: formatAcn(acn), business_number: formatAbn(abnFromAcn(acn)) };
}

function generateCanadian(rng: Rng): GeneratedIdentifiers {
  const payload = randomDigits(rng, 8, true);
  const bn = `${payload}${luhnCheckDigit(payload)}`;
  return { company_number: randomDigits(rng, 7, true), business_number: bn, tax_number: `${bn}RC0001` };
}

function generateAmerican(rng: Rng): GeneratedIdentifiers {
  const prefix = String(pick(rng, EIN_PREFIXES)).padStart(2, '0');
  return { company_number: randomDigits(rng, 7, true), tax_number: `${prefix}-${randomDigits(rng, 7)}` };
}

function generatePortuguese(rng: Rng): GeneratedIdentifiers {
  const base = `5${randomDigits(rng, 7)}`;
  const nipc = `${base}${portugueseCheck(base)}`;
  return { company_number: nipc, tax_number: nipc, vat: `PT${nipc}` };
}

function generateFinnish(rng: Rng): GeneratedIdentifiers {
  for (;;) {
    const base = randomDigits(rng, 7, true);
    const check = finnishCheck(base);
    if (check === 10) continue;
    return { company_number: `${base}-${check}`, vat: `FI${base}${check}` };
  }
}

function generateLuxembourgish(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 6, true);
  return {
    company_number: `B${randomDigits(rng, 6, true)}`,
    vat: `LU${base}${String(Number(base) % 89).padStart(2, '0')}`,
  };
}

function generateNewZealand(rng: Rng): GeneratedIdentifiers {
  const base = `94${randomDigits(rng, 10)}`;
  return { company_number: randomDigits(rng, 7, true), business_number: `${base}${gs1CheckDigit(base)}` };
}

function generateJapanese(rng: Rng): GeneratedIdentifiers {
  const base = randomDigits(rng, 12, true);
  const number = `${japaneseCheck(base)}${base}`;
  return { company_number: number, tax_number: `T${number}` };
}

function generateBrazilian(rng: Rng): GeneratedIdentifiers {
  const base = `${randomDigits(rng, 8, true)}0001`;
  const first = cnpjDigit(base);
  const cnpj = `${base}${first}${cnpjDigit(`${base}${first}`)}`;
  return { company_number: formatCnpj(cnpj), tax_number: cnpj };
}

function generateMexican(rng: Rng): GeneratedIdentifiers {
  const year = String(Math.floor(rng() * 100)).padStart(2, '0');
  const month = String(1 + Math.floor(rng() * 12)).padStart(2, '0');
  const day = String(1 + Math.floor(rng() * 28)).padStart(2, '0');
  const base = `${randomLetters(rng, 3)}${year}${month}${day}${randomLetters(rng, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ123456789')}`;
  return { company_number: `N-${year}${randomDigits(rng, 8, true)}`, tax_number: `${base}${mexicanRfcCheck(base)}` };
}

function generateIndian(rng: Rng): GeneratedIdentifiers {
  const year = 1980 + Math.floor(rng() * 46);
  const company_number = `${rng() < 0.9 ? 'U' : 'L'}${pick(rng, INDIAN_NIC)}${pick(rng, INDIAN_STATES)}${year}${rng() < 0.9 ? 'PTC' : 'PLC'}${randomDigits(rng, 6)}`;
  return {
    company_number,
    tax_number: `${randomLetters(rng, 3)}C${randomLetters(rng, 1)}${randomDigits(rng, 4)}${randomLetters(rng, 1)}`,
  };
}

function generateSingaporean(rng: Rng): GeneratedIdentifiers {
  const year = 1990 + Math.floor(rng() * 36);
  return { company_number: `${year}${randomDigits(rng, 5)}${randomLetters(rng, 1)}` };
}

function generateHongKong(rng: Rng): GeneratedIdentifiers {
  return { company_number: randomDigits(rng, 7, true), business_number: randomDigits(rng, 8, true) };
}

function generateEmirati(rng: Rng): GeneratedIdentifiers {
  return { company_number: randomDigits(rng, 6, true), tax_number: `100${randomDigits(rng, 12)}` };
}

const GENERATORS: Record<string, (rng: Rng) => GeneratedIdentifiers> = {
  AE: generateEmirati,
  AT: generateAustrian,
  AU: generateAustralian,
  BE: generateBelgian,
  BR: generateBrazilian,
  CA: generateCanadian,
  CH: generateSwiss,
  DE: generateGerman,
  DK: generateDanish,
  ES: generateSpanish,
  FI: generateFinnish,
  FR: generateFrench,
  GB: generateBritish,
  HK: generateHongKong,
  IE: generateIrish,
  IN: generateIndian,
  IT: generateItalian,
  JP: generateJapanese,
  LU: generateLuxembourgish,
  MX: generateMexican,
  NL: generateDutch,
  NO: generateNorwegian,
  NZ: generateNewZealand,
  PL: generatePolish,
  PT: generatePortuguese,
  SE: generateSwedish,
  SG: generateSingaporean,
  US: generateAmerican,
};

/** Countries for which `generateIdentifiers` knows the national shapes. */
export const IDENTIFIER_COUNTRIES = Object.keys(GENERATORS);

/** A company's national identifiers in the shape of its country (ISO 3166-1 alpha-2), with valid check digits. */
export function generateIdentifiers(countryCode: string, rng: Rng): GeneratedIdentifiers {
  const generate = GENERATORS[countryCode.toUpperCase()];
  if (generate !== undefined) return generate(rng);
  return { company_number: randomDigits(rng, 8, true) };
}

/** A random valid LEI: a LOU prefix of four characters, '00', twelve entity characters, check digits. */
export function generateLei(rng: Rng): string {
  const lou = pick(rng, ['5493', '2138', '5299', '9695', '8156', '3912', '7245', '6354', '8945', '2549', '9845']);
  return makeLei(`${lou}00${randomLetters(rng, 12, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`);
}
