// One way to make a company (and a person) of the demo data, shared by the seed and tests.
// Everything about company `id` comes from its own random stream (seed, id): the same seed and id
// always give the same company, whatever else is generated.

import { normalizeName } from '../../core/companies/normalize-name.ts';
import { mixSeed, type Random, seededRandom } from '../../core/seeded-random.ts';
import { slugify } from '../reference/slugify.ts';
import type { Database } from '../schema.ts';
import { dateOf, dayBetween, FIRST_DAY, LAST_DAY, yearOf } from './calendar.ts';
import {
  BRAND_END,
  BRAND_MIDDLE,
  BRAND_START,
  COUNTRY_PROFILES,
  fillPattern,
  JURISDICTIONS,
  type LegalForm,
  type NameLanguage,
  STREET_WORDS,
} from './country-profiles.ts';
import { type GeneratedIdentifiers, generateIdentifiers, generateLei } from './identifiers.ts';
import { FAMILY_SUFFIXES, type IndustryGroup, NAME_ADJECTIVES } from './industry-words.ts';
import { companyMemberId, isCorporateMember, type PersonPool, personMemberId } from './member-pool.ts';
import type { NameMaterial, ResolvedJurisdiction, SeedCatalog } from './seed-catalog.ts';

/** An address row as generated (every demo address has a country). */
export type SeedAddress = Omit<Database['legal_entity_addresses'], 'legal_entity_id' | 'country_id'> & {
  country_id: number;
};

export type SeedMember = Omit<Database['members'], 'name_type' | 'taken_down_at' | 'birth_month' | 'birth_year'> & {
  name_type: 'individual' | 'legal_entity';
  contacts: { contact_type_id: number; contact: string }[];
};

export type SeedCompany = {
  id: number;
  uri: string;
  name: string;
  search_name: string;
  jurisdiction_id: number;
  kind_id: number;
  size_id: number | null;
  employees_id: number | null;
  status_id: number;
  primary_industry_id: number;
  registered_on: string;
  statuses: { position: number; status_id: number }[];
  names: { name_type_id: number; position: number; name: string }[];
  addresses: SeedAddress[];
  dates: { date_type_id: number; date: string }[];
  identifiers: { identifier_type_id: number; position: number; identifier: string }[];
  indicators: { indicator_type_id: number; value: boolean }[];
  industries: {
    industry_id: number;
    is_primary: boolean;
    is_secondary: boolean;
    is_licensed: boolean;
    is_unlicensed: boolean;
  }[];
  shares: {
    position: number;
    kind: 'authorized' | 'paid_up' | 'share';
    type: 'ordinary' | 'preference';
    total_price: string;
    currency_id: number;
  }[];
  specification: { members_count: number; officers_count: number; partners_count: number | null };
  contacts: { contact_type_id: number; position: number; contact: string }[];
  members: { member_id: number; position_id: number; since: string | null }[];
  /** Set when this company can itself be a member (shareholder, parent) of later companies. */
  asMember: SeedMember | null;
  /** Index of its jurisdiction in the catalog (what its related records are made from). */
  jurisdictionIndex: number;
  /** Key of its industry group (industry-words.ts). */
  industryGroup: string;
  /** Day number (calendar.ts) of its dissolution, or of the demo data's today while it lasts. */
  endDay: number;
};

// Fixed ids of the enumerations (db/reference/enumerations.ts).
export const STATUS = {
  active: 1,
  inactive: 2,
  dissolved: 3,
  liquidation: 4,
  bankrupt: 5,
  dormant: 6,
  struckOff: 7,
  merged: 8,
};
const NAME_TYPE = {
  legalFull: 1,
  mixed: 2,
  short: 3,
  clean: 4,
  trade: 5,
  previous: 6,
  transliterated: 7,
  otherLanguage: 8,
};
export const ADDRESS_TYPE = {
  headquarter: 1,
  physical: 2,
  postal: 3,
  principalActivity: 4,
  registered: 5,
  parentCompany: 6,
};
const DATE_TYPE = {
  registration: 1,
  cancellation: 2,
  conversion: 3,
  dissolution: 4,
  effective: 5,
  expiration: 6,
  termination: 7,
  accounts: 8,
  annualReport: 9,
};
const IDENTIFIER_TYPE = { business: 1, company: 2, tax: 3, vat: 4, lei: 5 };
const INDICATOR = { bankrupt: 1, vatPayer: 2, woman: 3, minority: 4, veteran: 5, lgbtqi: 6, disability: 7 };
export const CONTACT = { email: 1, phone: 2, website: 3, fax: 4 };
export const POSITION = { director: 1, officer: 2, president: 3, shareholder: 4, parent: 5 };
const KIND = {
  corporation: 1,
  llc: 2,
  partnership: 3,
  soleProprietor: 4,
  nonProfit: 5,
  cooperative: 6,
  publicCompany: 8,
};

/** Age at 2026-11-01: exponential with a mean of 18 years (recent decades dominate), within 1900–2026. */
function companyAgeDays(random: Random): number {
  const span = LAST_DAY - FIRST_DAY;
  const age = Math.floor(-Math.log(1 - random.next()) * 18 * 365.25);
  return age <= span ? age : random.int(span + 1);
}

const STATUS_WEIGHTS: [number, number][] = [
  [STATUS.active, 70],
  [STATUS.inactive, 5],
  [STATUS.dissolved, 8],
  [STATUS.liquidation, 3],
  [STATUS.bankrupt, 3],
  [STATUS.dormant, 3],
  [STATUS.struckOff, 6],
  [STATUS.merged, 2],
];
const SECOND_STATUS: Record<number, number> = {
  [STATUS.inactive]: STATUS.dormant,
  [STATUS.dissolved]: STATUS.struckOff,
  [STATUS.liquidation]: STATUS.inactive,
  [STATUS.bankrupt]: STATUS.liquidation,
  [STATUS.dormant]: STATUS.inactive,
  [STATUS.struckOff]: STATUS.dissolved,
  [STATUS.merged]: STATUS.dissolved,
};

function pickStatus(random: Random): number {
  let x = random.next() * 100;
  for (const [status, weight] of STATUS_WEIGHTS) {
    x -= weight;
    if (x < 0) return status;
  }
  return STATUS.active;
}

/** size id → employee range ids it allows. */
const EMPLOYEES_BY_SIZE: Record<number, number[]> = { 1: [1], 2: [2, 2, 2, 3], 3: [3, 3, 4], 4: [5, 6, 6, 7, 8] };
/** Units of a currency that buy about one euro (amounts are drawn in euros, then scaled). */
export const CURRENCY_SCALE: Record<string, number> = {
  JPY: 150,
  INR: 80,
  HKD: 8,
  MXN: 18,
  BRL: 5,
  SEK: 10,
  NOK: 10,
  DKK: 7,
  PLN: 4,
  AED: 4,
  SGD: 1.3,
  CAD: 1.4,
  AUD: 1.5,
  NZD: 1.6,
  CHF: 1,
};

/** Banks in German-speaking countries are mostly AGs (Volksbanken are cooperatives, see bankName). */
const BANK_FORMS: Partial<Record<NameLanguage, LegalForm[]>> = {
  de: [
    { form: 'AG', kind: 8, weight: 1 },
    { form: 'AG', kind: 8, weight: 1 },
    { form: 'AG', kind: 8, weight: 1 },
    { form: 'GmbH', kind: 2, weight: 1 },
    { form: 'KGaA', kind: 8, weight: 1 },
  ],
};

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export function brandWord(random: Random): string {
  return capitalize((random.pick(BRAND_START) + random.pick(BRAND_MIDDLE) + random.pick(BRAND_END)).toLowerCase());
}

type NameParts = { core: string; trade: string | null };

function companyNameCore(
  random: Random,
  language: NameLanguage,
  group: IndustryGroup,
  names: NameMaterial,
  city: string,
  country: string,
): NameParts {
  const words = group.words[language] ?? group.words.en;
  const word = random.pick(words);
  const surname = (): string => (names.lastNames.length > 0 ? random.pick(names.lastNames) : brandWord(random));
  const adjective = random.pick(NAME_ADJECTIVES[language]);

  if (group.key === 'bank') return { core: bankName(random, language, word, surname(), city, adjective), trade: null };

  const roll = random.next();
  let core: string;
  if (language === 'fr' && roll < 0.05) {
    core = `${random.pick(['Société', 'Compagnie', 'Union'])} ${adjective} de ${random.pick(words)}`;
  } else if (language === 'fr' && roll < 0.08) {
    core = `Établissements ${surname()}`;
  } else if (roll < 0.22) core = `${surname()} ${word}`;
  else if (roll < 0.3)
    core = random.chance(0.5) ? `${surname()} & ${surname()}` : `${surname()} & ${surname()} ${word}`;
  else if (roll < 0.41) core = `${city} ${word}`;
  else if (roll < 0.58) core = `${brandWord(random)} ${word}`;
  else if (roll < 0.66) core = brandWord(random);
  else if (roll < 0.74) core = language === 'en' ? `${surname()} ${word}` : `${word} ${surname()}`;
  else if (roll < 0.83) core = `${adjective} ${word}`;
  else if (roll < 0.88) core = `${random.pick(names.firstNames)} ${surname()} ${word}`;
  else if (roll < 0.94) core = `${surname()} ${random.pick(FAMILY_SUFFIXES[language])}`;
  else core = `${surname()} ${word} ${city}`;
  // Japanese and Hong Kong names often carry a trading word
  if (country === 'JP' && random.chance(0.3))
    core = `${core} ${random.pick(['Shoji', 'Sangyo', 'Kogyo', 'Seisakusho', 'Tsusho'])}`;
  const trade = random.chance(0.12) ? `${brandWord(random)}${random.chance(0.5) ? ` ${word}` : ''}` : null;
  return { core, trade };
}

function bankName(
  random: Random,
  language: NameLanguage,
  word: string,
  surname: string,
  city: string,
  adjective: string,
): string {
  const roll = random.next();
  if (language === 'de') {
    if (roll < 0.18) return `Volksbank ${city}`;
    if (roll < 0.3) return `Sparkasse ${city}`;
    if (roll < 0.38) return `Raiffeisenbank ${city}`;
    if (roll < 0.55) return `${city} Bank`;
    if (roll < 0.7) return `Bank ${surname}`;
    // no "Deutsche Bank": demo names should not be a real bank's
    if (roll < 0.85) return `${adjective === 'Deutsche' ? 'Neue' : adjective} Bank`;
    return `${surname} Privat Bank`;
  }
  if (language === 'en' || language === 'nl' || language === 'sv' || language === 'da' || language === 'nb') {
    if (roll < 0.3) return `${city} ${word}`;
    if (roll < 0.55) return `${adjective} Bank`;
    if (roll < 0.75) return `${surname} Bank`;
    return `Bank of ${city}`;
  }
  if (roll < 0.4) return `${word} ${adjective}`;
  if (roll < 0.7) return `${word} ${surname}`;
  return `${word} ${city}`;
}

function withForm(core: string, form: string): string {
  if (form.endsWith(' ')) return `${form}${core}`;
  if (form.startsWith('&') && core.includes('&')) return core;
  return `${core} ${form}`;
}

/** Every legal form the demo names of a country are written with (its jurisdictions' too), longest first. */
function demoFormsOf(country: string): string[] {
  const profile = COUNTRY_PROFILES[country];
  if (!profile) return [];
  const forms = [
    ...profile.forms,
    ...profile.nonProfitForms,
    ...JURISDICTIONS.filter((j) => j.country === country).flatMap((j) => j.forms ?? []),
    ...(BANK_FORMS[profile.language] ?? []),
  ].map((f) => f.form);
  if (profile.language === 'de') forms.push('eG');
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/**
 * A demo company's name split at its legal form, as the factory wrote it for its country: the
 * form after the name ("Schwäbische Wohnbau" + "UG (haftungsbeschränkt)") or before it
 * ("Stichting " + "Zorg Utrecht"); null when the name carries none of the country's forms
 * (a Sparkasse). What renames a demo company keeps its form whole (db/seed/demo-advance.ts).
 */
export function splitLegalForm(
  name: string,
  country: string,
): { core: string; form: string; position: 'after' | 'before' } | null {
  for (const form of demoFormsOf(country)) {
    if (form.endsWith(' ') && name.startsWith(form) && name.length > form.length)
      return { core: name.slice(form.length), form: form.trim(), position: 'before' };
    if (!form.endsWith(' ') && name.endsWith(` ${form}`))
      return { core: name.slice(0, -form.length - 1), form, position: 'after' };
  }
  return null;
}

// Addresses -----------------------------------------------------------------------------------------

type Street = { street: string; house: string; line: string };

/** Languages whose street names are one word: a stem and a suffix ("Kerkstraat", "Storgatan"). */
const COMPOUND_STREETS = {
  nl: [STREET_WORDS.nlStem, STREET_WORDS.nlSuffix],
  sv: [STREET_WORDS.svStem, STREET_WORDS.svSuffix],
  nb: [STREET_WORDS.nbStem, STREET_WORDS.nbSuffix],
  fi: [STREET_WORDS.fiStem, STREET_WORDS.fiSuffix],
} as const;

function makeStreet(random: Random, j: ResolvedJurisdiction, names: NameMaterial): Street {
  const w = STREET_WORDS;
  const house = String(1 + Math.floor(random.next() ** 2 * 180));
  const style = j.profile.street;
  switch (style) {
    case 'de':
    case 'da': {
      const street = names.streets.length > 0 ? random.pick(names.streets) : `${random.pick(names.lastNames)}straße`;
      const h = random.chance(0.1) ? `${house}${random.pick(['a', 'b', 'c'])}` : house;
      return { street, house: h, line: `${street} ${h}` };
    }
    case 'nl':
    case 'sv':
    case 'nb':
    case 'fi': {
      const [stems, suffixes] = COMPOUND_STREETS[style];
      const street = `${random.pick(stems)}${random.pick(suffixes)}`;
      return { street, house, line: `${street} ${house}` };
    }
    case 'fr': {
      const street = `${random.pick(w.frType)} ${random.chance(0.7) ? random.pick(w.fr) : random.pick(names.lastNames)}`;
      const h = random.chance(0.08) ? `${house} bis` : house;
      return { street, house: h, line: `${h} ${street}` };
    }
    case 'es': {
      const street = `${random.pick(w.esType)} ${random.chance(0.7) ? random.pick(w.es) : random.pick(names.lastNames)}`;
      return { street, house, line: `${street}, ${house}` };
    }
    case 'it': {
      const street = `${random.pick(w.itType)} ${random.chance(0.75) ? random.pick(w.it) : random.pick(names.lastNames)}`;
      return { street, house, line: `${street}, ${house}` };
    }
    case 'pl': {
      const street = random.pick(w.pl);
      const h = random.chance(0.4) ? `${house}/${1 + random.int(60)}` : house;
      return { street, house: h, line: `ul. ${street} ${h}` };
    }
    case 'pt': {
      const street = `${random.pick(w.ptType)} ${random.chance(0.7) ? random.pick(w.pt) : random.pick(names.lastNames)}`;
      return { street, house, line: `${street}, ${house}` };
    }
    case 'mx': {
      const street = `Av. ${random.pick(w.mx)}`;
      return { street, house, line: `${street} ${house}` };
    }
    case 'gb': {
      const street = names.streets.length > 0 ? random.pick(names.streets) : `${random.pick(w.auName)} Road`;
      return { street, house, line: `${house} ${street}` };
    }
    case 'us': {
      const number = String(100 + random.int(9800));
      const street = `${random.chance(0.7) ? random.pick(w.usName) : random.pick(names.lastNames)} ${random.pick(w.usSuffix)}`;
      return { street, house: number, line: `${number} ${street}` };
    }
    case 'au': {
      const street = `${random.pick(w.auName)} ${random.pick(w.auSuffix)}`;
      return { street, house, line: `${house} ${street}` };
    }
    case 'asia': {
      const street = random.pick(w.asiaName);
      return { street, house, line: `${house} ${street}` };
    }
    case 'ae': {
      const street = random.pick(w.ae);
      return { street, house: '', line: street };
    }
    case 'in': {
      const street = random.pick(w.inName);
      return { street, house, line: `${house}, ${street}` };
    }
    case 'jp': {
      const area = random.pick(w.jpArea);
      const h = `${1 + random.int(9)}-${1 + random.int(20)}-${1 + random.int(30)}`;
      return { street: area, house: h, line: `${h} ${area}` };
    }
  }
}

export function makeAddress(
  random: Random,
  j: ResolvedJurisdiction,
  names: NameMaterial,
  type: number,
  position: number,
): SeedAddress {
  const street = makeStreet(random, j, names);
  const city = random.pick(j.cities);
  const country = j.profile.code;
  let state = j.state?.name ?? city.region;
  let stateId = j.state?.id ?? null;
  if (j.districts.length > 0) {
    const district = random.pick(j.districts);
    state = district.name;
    stateId = district.id;
  }
  const address: SeedAddress = {
    address_type_id: type,
    position,
    address_line_1: street.line,
    address_line_2: null,
    block: null,
    building: null,
    city_district: null,
    country_id: j.countryId,
    county: null,
    floor: null,
    house: street.house || null,
    locality: city.name,
    post_code: fillPattern(city.postCode ?? random.pick(j.postCodes), random) || null,
    room: null,
    state,
    state_id: stateId,
    street: street.street,
  };
  if (country === 'HK' || country === 'SG' || country === 'AE') {
    address.building = `${random.pick(STREET_WORDS.buildingName)} ${random.pick(STREET_WORDS.building)}`;
    address.floor = String(1 + random.int(45));
    address.room = `${random.chance(0.5) ? 'Unit' : 'Room'} ${address.floor}${String(1 + random.int(20)).padStart(2, '0')}`;
    address.address_line_2 = `${address.room}, ${address.floor}/F, ${address.building}`;
    if (country === 'AE') address.city_district = random.pick(STREET_WORDS.aeArea);
  } else if (country === 'US' || country === 'CA') {
    if (random.chance(0.35)) {
      address.room = `${random.pick(['Suite', 'Ste', 'Unit', '#'])} ${100 + random.int(1900)}`;
      address.address_line_2 = address.room;
    }
  } else if (country === 'GB' || country === 'IE') {
    if (random.chance(0.25)) {
      address.building = `${random.pick(names.lastNames)} House`;
      address.address_line_2 = address.building;
    }
    if (country === 'GB' && random.chance(0.6)) {
      address.county = random.pick([
        'Greater London',
        'Greater Manchester',
        'West Midlands',
        'West Yorkshire',
        'Kent',
        'Surrey',
        'Essex',
        'Hampshire',
        'Lancashire',
        'Merseyside',
      ]);
    }
    if (country === 'IE') address.county = state;
  } else if (country === 'JP') {
    address.city_district = street.street;
    if (random.chance(0.5)) {
      address.building = `${random.pick(STREET_WORDS.buildingName)} Building`;
      address.floor = `${1 + random.int(30)}F`;
      address.address_line_2 = `${address.building} ${address.floor}`;
    }
  } else if (country === 'MX') {
    address.city_district = `Col. ${random.pick(STREET_WORDS.mxColonia)}`;
    address.address_line_2 = address.city_district;
  } else if (random.chance(0.1)) {
    address.floor = String(1 + random.int(8));
  }
  return address;
}

// People -----------------------------------------------------------------------------------------

const POSTFIXES = ['Jr.', 'Sr.', 'II', 'III'];

function emailDomain(name: string, tld: string): string {
  const slug = slugify(name).split('-').slice(0, 3).join('-') || 'company';
  return `${slug}.${tld}`;
}

/** Person `person` of the member pool: member id 2p − 1. */
export function makePerson(catalog: SeedCatalog, pool: PersonPool, seed: number, person: number): SeedMember {
  const random = seededRandom(mixSeed(seed, 2, person));
  const country = pool.countryOf(person);
  const names = catalog.names.get(country);
  if (names === undefined) throw new Error(`no names for ${country}`);
  const first = random.pick(names.firstNames);
  const last = names.lastNames.length > 0 ? random.pick(names.lastNames) : brandWord(random);
  const middle = names.middleNames.length > 0 && random.chance(0.3) ? random.pick(names.firstNames) : null;
  const postfix = country === 'US' && random.chance(0.04) ? random.pick(POSTFIXES) : null;
  const name = [first, middle, last, postfix].filter((p) => p !== null).join(' ');
  const contacts: SeedMember['contacts'] = [];
  if (random.chance(0.2)) {
    const user = slugify(`${first} ${last}`).replace(/-/g, '.');
    contacts.push({
      contact_type_id: CONTACT.email,
      contact: `${user}@${random.pick(['mail', 'post', 'inbox', 'online'])}.example`,
    });
  }
  if (random.chance(0.1)) {
    const phones = catalog.phones.get(country) ?? ['+1 ### ### ####'];
    contacts.push({ contact_type_id: CONTACT.phone, contact: fillPattern(random.pick(phones), random) });
  }
  return {
    id: personMemberId(person),
    name_type: 'individual',
    name,
    first_name: first,
    middle_name: middle,
    last_name: last,
    postfix,
    legal_entity_id: null,
    country_id: catalog.countryIds.get(country) ?? null,
    contacts,
  };
}

// Companies --------------------------------------------------------------------------------------

export function makeCompany(catalog: SeedCatalog, pool: PersonPool, seed: number, id: number): SeedCompany {
  const random = seededRandom(mixSeed(seed, 1, id));
  const j = catalog.pickJurisdiction(random);
  const country = j.profile.code;
  const names = j.names;
  const group = catalog.pickGroup(country)(random);
  const industryIds = catalog.industriesOf.get(group.key) ?? [];
  const primaryIndustry = random.pick(industryIds);

  // Name and legal form
  const city = random.pick(j.cities).name;
  const { core, trade } = companyNameCore(random, j.language, group, names, city, country);
  const bankForms = group.key === 'bank' ? BANK_FORMS[j.language] : undefined;
  const form =
    group.nonProfit || (group.key === 'public' && random.chance(0.5))
      ? j.nonProfitForms(random)
      : bankForms
        ? random.pick(bankForms)
        : j.forms(random);
  const bankSuffix =
    group.key === 'bank' && j.language === 'de' && /^(Volksbank|Raiffeisenbank)/.test(core) ? 'eG' : null;
  const name = bankSuffix ? `${core} ${bankSuffix}` : core.startsWith('Sparkasse') ? core : withForm(core, form.form);
  const kindId = bankSuffix ? KIND.cooperative : core.startsWith('Sparkasse') ? KIND.corporation : form.kind;

  // Size, status, dates
  const sizeRoll = random.next();
  const sizeId = sizeRoll < 0.08 ? null : sizeRoll < 0.68 ? 1 : sizeRoll < 0.88 ? 2 : sizeRoll < 0.96 ? 3 : 4;
  const employeesId =
    sizeId === null ? (random.chance(0.3) ? 1 + random.int(3) : null) : random.pick(EMPLOYEES_BY_SIZE[sizeId]);
  const statusId = pickStatus(random);
  const registeredDay = LAST_DAY - companyAgeDays(random);
  const registeredOn = dateOf(registeredDay);

  const statuses = [{ position: 0, status_id: statusId }];
  if (statusId !== STATUS.active && random.chance(0.3))
    statuses.push({ position: 1, status_id: SECOND_STATUS[statusId] });

  const namesRows: SeedCompany['names'] = [{ name_type_id: NAME_TYPE.legalFull, position: 0, name }];
  if (random.chance(0.25))
    namesRows.push({ name_type_id: NAME_TYPE.short, position: 0, name: core.split(' ').slice(0, 2).join(' ') });
  if (random.chance(0.15)) namesRows.push({ name_type_id: NAME_TYPE.clean, position: 0, name: core });
  if (trade !== null) namesRows.push({ name_type_id: NAME_TYPE.trade, position: 0, name: trade });
  // A mixed name: the legal name with the trade name, as some registries print it (every type of
  // the reference data occurs, so that no export column is always empty). No draw: the company's
  // other values stay as they were.
  if (trade !== null && id % 2 === 0)
    namesRows.push({ name_type_id: NAME_TYPE.mixed, position: 0, name: `${name} (${trade})` });
  // A previous name (registered under its trade name before), the name in Latin letters without
  // accents (as GLEIF transliterates), and an English name (as many registers record one) for companies named in another language.
  if (trade !== null && id % 5 === 1)
    namesRows.push({ name_type_id: NAME_TYPE.previous, position: 0, name: withForm(trade, form.form) });
  const latin = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (latin !== name) namesRows.push({ name_type_id: NAME_TYPE.transliterated, position: 0, name: latin });
  if (j.language !== 'en' && id % 4 === 2)
    namesRows.push({
      name_type_id: NAME_TYPE.otherLanguage,
      position: 0,
      name: `${core} (${j.language.toUpperCase()})`,
    });

  // Addresses
  const addresses = [makeAddress(random, j, names, ADDRESS_TYPE.registered, 0)];
  if (random.chance(0.3)) addresses.push(makeAddress(random, j, names, ADDRESS_TYPE.headquarter, 0));
  if (random.chance(0.15)) {
    const postal = makeAddress(random, j, names, ADDRESS_TYPE.postal, 0);
    if (random.chance(0.4)) {
      postal.address_line_1 = `${j.profile.language === 'de' ? 'Postfach' : j.profile.language === 'fr' ? 'BP' : 'P.O. Box'} ${1 + random.int(9999)}`;
      postal.street = null;
      postal.house = null;
    }
    addresses.push(postal);
  }
  if (random.chance(0.1)) addresses.push(makeAddress(random, j, names, ADDRESS_TYPE.physical, 0));
  if (random.chance(0.04)) addresses.push(makeAddress(random, j, names, ADDRESS_TYPE.principalActivity, 0));

  // Dates
  const dates: SeedCompany['dates'] = [{ date_type_id: DATE_TYPE.registration, date: registeredOn }];
  const closed = statusId === STATUS.dissolved || statusId === STATUS.struckOff || statusId === STATUS.merged;
  let endDay = LAST_DAY;
  if (closed || (statusId !== STATUS.active && random.chance(0.3))) {
    endDay = dayBetween(random, Math.min(LAST_DAY, registeredDay + 180), LAST_DAY);
    dates.push({ date_type_id: DATE_TYPE.dissolution, date: dateOf(endDay) });
    if (statusId === STATUS.struckOff)
      dates.push({ date_type_id: DATE_TYPE.cancellation, date: dateOf(Math.min(LAST_DAY, endDay + random.int(400))) });
    if (random.chance(0.25)) dates.push({ date_type_id: DATE_TYPE.termination, date: dateOf(endDay) });
  }
  const lastYear = Math.min(yearOf(endDay) - 1, 2025);
  if (lastYear > yearOf(registeredDay) && random.chance(0.6)) {
    const yearEnd =
      country === 'JP' || country === 'IN' || (country === 'GB' && random.chance(0.3)) ? '-03-31' : '-12-31';
    dates.push({
      date_type_id: DATE_TYPE.accounts,
      date: `${lastYear - random.int(Math.min(3, lastYear - yearOf(registeredDay)))}${yearEnd}`,
    });
  }
  if (lastYear >= yearOf(registeredDay) && random.chance(0.45)) {
    dates.push({
      date_type_id: DATE_TYPE.annualReport,
      date: dateOf(dayBetween(random, Math.max(registeredDay, endDay - 365), endDay)),
    });
  }
  if (random.chance(0.08))
    dates.push({ date_type_id: DATE_TYPE.effective, date: dateOf(Math.min(LAST_DAY, registeredDay + random.int(60))) });
  if (random.chance(0.02))
    dates.push({ date_type_id: DATE_TYPE.conversion, date: dateOf(dayBetween(random, registeredDay, endDay)) });
  if (random.chance(0.01))
    dates.push({
      date_type_id: DATE_TYPE.expiration,
      date: dateOf(Math.min(LAST_DAY, registeredDay + 365 * (5 + random.int(50)))),
    });

  // Identifiers
  const ids: GeneratedIdentifiers = generateIdentifiers(country, random.next);
  const identifiers: SeedCompany['identifiers'] = [
    { identifier_type_id: IDENTIFIER_TYPE.company, position: 0, identifier: ids.company_number },
  ];
  if (ids.business_number)
    identifiers.push({ identifier_type_id: IDENTIFIER_TYPE.business, position: 0, identifier: ids.business_number });
  if (ids.tax_number)
    identifiers.push({ identifier_type_id: IDENTIFIER_TYPE.tax, position: 0, identifier: ids.tax_number });
  if (ids.vat && (random.chance(0.85) || sizeId !== 1))
    identifiers.push({ identifier_type_id: IDENTIFIER_TYPE.vat, position: 0, identifier: ids.vat });
  if (random.chance(sizeId !== null && sizeId >= 3 ? 0.6 : 0.17))
    identifiers.push({ identifier_type_id: IDENTIFIER_TYPE.lei, position: 0, identifier: generateLei(random.next) });
  const hasVat = identifiers.some((i) => i.identifier_type_id === IDENTIFIER_TYPE.vat);

  // Indicators
  const indicators: SeedCompany['indicators'] = [];
  const bankrupt = statusId === STATUS.bankrupt || statuses.some((s) => s.status_id === STATUS.bankrupt);
  if (bankrupt || random.chance(0.4)) indicators.push({ indicator_type_id: INDICATOR.bankrupt, value: bankrupt });
  if (hasVat ? random.chance(0.8) : random.chance(0.25))
    indicators.push({ indicator_type_id: INDICATOR.vatPayer, value: hasVat });
  if (random.chance(0.25)) indicators.push({ indicator_type_id: INDICATOR.woman, value: random.chance(0.45) });
  if (country === 'US' || country === 'CA' || country === 'GB') {
    for (const type of [INDICATOR.minority, INDICATOR.veteran, INDICATOR.lgbtqi, INDICATOR.disability]) {
      if (random.chance(0.2)) indicators.push({ indicator_type_id: type, value: random.chance(0.25) });
    }
  }

  // Industries
  const licensed = group.licensed === true;
  const industries: SeedCompany['industries'] = [
    {
      industry_id: primaryIndustry,
      is_primary: true,
      is_secondary: false,
      is_licensed: licensed && random.chance(0.7),
      is_unlicensed: false,
    },
  ];
  const secondaryCount = random.chance(0.5) ? 0 : random.chance(0.7) ? 1 : 2;
  for (let i = 0; i < secondaryCount; i++) {
    const source = random.chance(0.6)
      ? industryIds
      : (catalog.industriesOf.get(catalog.pickGroup(country)(random).key) ?? industryIds);
    const industryId = random.pick(source);
    if (industries.some((x) => x.industry_id === industryId)) continue;
    const unlicensed = !licensed && random.chance(0.05);
    industries.push({
      industry_id: industryId,
      is_primary: false,
      is_secondary: true,
      is_licensed: licensed && random.chance(0.3),
      is_unlicensed: unlicensed,
    });
  }

  // Shares
  const shares: SeedCompany['shares'] = [];
  const corporate = kindId === KIND.corporation || kindId === KIND.llc || kindId === KIND.publicCompany;
  if (corporate && random.chance(0.7)) {
    const scale = CURRENCY_SCALE[j.profile.currency] ?? 1;
    const [low, high] =
      sizeId === 4 || kindId === KIND.publicCompany
        ? [1e6, 5e8]
        : sizeId === 3
          ? [1e5, 5e6]
          : sizeId === 2
            ? [1e4, 5e5]
            : [1e3, 5e4];
    const amount = (x: number): string => (Math.round((x * scale) / 100) * 100).toFixed(2);
    const authorized = low * (high / low) ** random.next();
    let position = 0;
    shares.push({
      position: position++,
      kind: 'authorized',
      type: 'ordinary',
      total_price: amount(authorized),
      currency_id: j.currencyId,
    });
    shares.push({
      position: position++,
      kind: 'paid_up',
      type: 'ordinary',
      total_price: amount(authorized * (0.25 + 0.75 * random.next())),
      currency_id: j.currencyId,
    });
    if (random.chance(0.15)) {
      const preference = authorized * (0.05 + 0.3 * random.next());
      shares.push({
        position: position++,
        kind: 'authorized',
        type: 'preference',
        total_price: amount(preference),
        currency_id: j.currencyId,
      });
      shares.push({
        position: position++,
        kind: 'paid_up',
        type: 'preference',
        total_price: amount(preference * (0.5 + 0.5 * random.next())),
        currency_id: j.currencyId,
      });
    }
    if (random.chance(0.1))
      shares.push({
        position: position++,
        kind: 'share',
        type: 'ordinary',
        total_price: amount(1 + random.int(100)),
        currency_id: j.currencyId,
      });
  }

  // Members
  const advanced = random.chance(0.03);
  const memberRoll = random.next();
  let memberCount =
    memberRoll < 0.35
      ? 1
      : memberRoll < 0.65
        ? 2
        : memberRoll < 0.82
          ? 3
          : memberRoll < 0.91
            ? 4
            : memberRoll < 0.96
              ? 5
              : 6;
  const manyMembers = advanced && random.chance(0.6);
  if (manyMembers) memberCount = 10 + random.int(15);
  const members: SeedCompany['members'] = [];
  const seen = new Set<string>();
  const addMember = (memberId: number, positionId: number): void => {
    const key = `${memberId}:${positionId}`;
    if (seen.has(key)) return;
    seen.add(key);
    members.push({
      member_id: memberId,
      position_id: positionId,
      since: random.chance(0.85) ? dateOf(dayBetween(random, registeredDay, endDay)) : null,
    });
  };
  let hasPresident = false;
  for (let i = 0; i < memberCount; i++) {
    const person = pool.pick(id, country, random);
    let positionId: number;
    if (i === 0) positionId = country === 'US' && random.chance(0.3) ? POSITION.president : POSITION.director;
    else {
      const r = random.next();
      positionId =
        r < 0.45
          ? POSITION.director
          : r < 0.7
            ? POSITION.officer
            : r < 0.75 && !hasPresident
              ? POSITION.president
              : POSITION.shareholder;
    }
    if (positionId === POSITION.president) hasPresident = true;
    addMember(personMemberId(person), positionId);
    if (random.chance(0.08)) addMember(personMemberId(person), POSITION.shareholder);
  }
  if (random.chance(0.14)) {
    const owner = pool.pickCorporate(id, random);
    if (owner !== null && owner !== id) {
      const position = random.chance(0.5) ? POSITION.parent : POSITION.shareholder;
      addMember(companyMemberId(owner), position);
      // The parent company's address is its registered address (the parent is an earlier company,
      // made again from its own seed: no draw of this company's).
      if (position === POSITION.parent) {
        const registered = makeCompany(catalog, pool, seed, owner).addresses[0];
        addresses.push({ ...registered, address_type_id: ADDRESS_TYPE.parentCompany, position: 0 });
      }
    }
  }
  const distinctMembers = new Set(members.map((m) => m.member_id)).size;
  const officers = members.filter((m) => m.position_id <= POSITION.president).length;
  const shareholders = members.filter(
    (m) => m.position_id === POSITION.shareholder || m.position_id === POSITION.parent,
  ).length;
  const specification = {
    members_count: distinctMembers,
    officers_count: officers,
    partners_count: kindId === KIND.partnership ? Math.max(2, shareholders) : null,
  };

  // Contacts
  const contacts: SeedCompany['contacts'] = [];
  const domain = emailDomain(core, j.profile.tld);
  const phone = (): string => fillPattern(random.pick(j.phones), random);
  const counters = new Map<number, number>();
  const addContact = (type: number, contact: string): void => {
    const position = counters.get(type) ?? 0;
    counters.set(type, position + 1);
    contacts.push({ contact_type_id: type, position, contact });
  };
  if (random.chance(0.7)) addContact(CONTACT.website, `https://www.${domain}`);
  if (random.chance(0.6))
    addContact(
      CONTACT.email,
      `${random.pick(j.language === 'de' ? ['info', 'kontakt', 'office'] : j.language === 'fr' ? ['contact', 'info', 'accueil'] : ['info', 'contact', 'hello', 'office'])}@${domain}`,
    );
  if (random.chance(0.75)) addContact(CONTACT.phone, phone());
  if (random.chance(0.15)) addContact(CONTACT.fax, phone());
  if (advanced && !manyMembers) {
    const departments = [
      'sales',
      'support',
      'billing',
      'press',
      'careers',
      'legal',
      'hr',
      'invest',
      'service',
      'orders',
      'export',
      'purchasing',
    ];
    for (const department of departments.slice(0, 6 + random.int(6)))
      addContact(CONTACT.email, `${department}@${domain}`);
    for (let i = 0, n = 2 + random.int(4); i < n; i++) addContact(CONTACT.phone, phone());
  }

  const asMember: SeedMember | null = isCorporateMember(id)
    ? {
        id: companyMemberId(id),
        name_type: 'legal_entity',
        name,
        first_name: null,
        middle_name: null,
        last_name: null,
        postfix: null,
        legal_entity_id: id,
        country_id: j.countryId,
        contacts: [],
      }
    : null;

  return {
    id,
    uri: `${slugify(name).slice(0, 80).replace(/-+$/, '')}-${id}`,
    name,
    search_name: normalizeName(name),
    jurisdiction_id: j.locationId,
    kind_id: kindId,
    size_id: sizeId,
    employees_id: employeesId,
    status_id: statusId,
    primary_industry_id: primaryIndustry,
    registered_on: registeredOn,
    statuses,
    names: namesRows,
    addresses,
    dates,
    identifiers,
    indicators,
    industries,
    shares,
    specification,
    contacts,
    members,
    asMember,
    jurisdictionIndex: j.index,
    industryGroup: group.key,
    endDay,
  };
}
