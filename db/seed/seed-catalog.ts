// Everything the generator needs to know about the loaded reference data, resolved once:
// jurisdictions with their location ids, industries per group, currencies, and the name material
// (people, cities, streets) of each country.

import * as faker from '@faker-js/faker';
import { type WeightedPicker, weightedPicker } from '../../core/seeded-random.ts';
import type { Db } from '../client.ts';
import { LANGUAGE_EN } from '../reference/enumerations.ts';
import {
  COUNTRY_PROFILES,
  type CountryProfile,
  HAND_PEOPLE,
  JURISDICTIONS,
  type Jurisdiction,
  type LegalForm,
  type NameLanguage,
} from './country-profiles.ts';
import { INDUSTRY_GROUPS, type IndustryGroup } from './industry-words.ts';

export type ResolvedJurisdiction = {
  index: number;
  profile: CountryProfile;
  /** The location the company is registered in (a country, or a state/canton/emirate). */
  locationId: number;
  countryId: number;
  /** Set for subdivision jurisdictions. */
  state: { id: number; name: string } | null;
  language: NameLanguage;
  cities: City[];
  /** Names of the people behind companies of this jurisdiction (founders in company names). */
  names: NameMaterial;
  postCodes: string[];
  phones: string[];
  forms: WeightedPicker<LegalForm>;
  nonProfitForms: WeightedPicker<LegalForm>;
  /** Subdivisions to spread addresses over when the jurisdiction is the whole country (Hong Kong's districts). */
  districts: { id: number; name: string }[];
  currencyId: number;
};

export type City = { name: string; region: string | null; postCode: string | null };

export type NameMaterial = {
  firstNames: string[];
  lastNames: string[];
  middleNames: string[];
  streets: string[];
};

export type SeedCatalog = {
  jurisdictions: ResolvedJurisdiction[];
  pickJurisdiction: WeightedPicker<ResolvedJurisdiction>;
  /** Industry group pickers: one default, some countries weighted differently (German banks). */
  pickGroup: (country: string) => WeightedPicker<IndustryGroup>;
  industriesOf: Map<string, number[]>;
  /** Name material of each country's people (members of the pool). */
  names: Map<string, NameMaterial>;
  phones: Map<string, string[]>;
  countryIds: Map<string, number>;
  /** Currency ids by ISO 4217 code. */
  currencyIds: Map<string, number>;
  /** ISO 3166-2 codes of the subdivision locations, by location id ('US-CA'). */
  subdivisionCodes: Map<number, string>;
  /** Countries people come from, with weights (the sum over their jurisdictions). */
  personCountries: { country: string; weight: number }[];
};

type LocaleData = {
  person?: { first_name?: unknown; last_name?: unknown; middle_name?: unknown };
  location?: { city_name?: unknown; street_name?: unknown };
};

/** Flattens faker's name lists ({ generic, female, male } or a plain array) into one de-duplicated list. */
function flatten(value: unknown): string[] {
  if (value == null) return [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'object') return Object.values(value).flatMap((v) => flatten(v));
  return [];
}

const localeData = (locale: string): LocaleData | undefined =>
  (faker as unknown as Record<string, LocaleData | undefined>)[locale];

function firstNonEmpty(locales: string[], read: (data: LocaleData) => unknown): string[] {
  for (const locale of locales) {
    const data = localeData(locale);
    const values = data ? [...new Set(flatten(read(data)))] : [];
    if (values.length > 0) return values;
  }
  return [];
}

function nameMaterial(people: string[], profile: CountryProfile): NameMaterial {
  const hand = people.map((p) => HAND_PEOPLE[p]).filter((h) => h !== undefined);
  const fakerLocales = [...people.filter((p) => localeData(p) !== undefined), 'en'];
  let firstNames = [...new Set(hand.flatMap((h) => h.first))];
  if (firstNames.length === 0) firstNames = firstNonEmpty(fakerLocales, (d) => d.person?.first_name);
  const handLast = [...new Set(hand.flatMap((h) => h.last))];
  const fakerLast = people.includes('hk')
    ? firstNonEmpty(['en_HK'], (d) => d.person?.last_name)
    : people[0] === 'ae' || people[0] === 'jp'
      ? []
      : firstNonEmpty(fakerLocales, (d) => d.person?.last_name);
  // hand-picked surnames are the common ones: weigh them up against faker's long tail
  const lastNames =
    handLast.length > 0 && fakerLast.length > 0
      ? [...handLast, ...handLast, ...handLast, ...fakerLast]
      : [...handLast, ...fakerLast];
  const middleNames = profile.code === 'US' ? firstNonEmpty(['en'], (d) => d.person?.middle_name) : [];
  const streets = profile.fakerStreets ? flatten(localeData(profile.fakerStreets)?.location?.street_name) : [];
  return { firstNames, lastNames, middleNames, streets: streets.filter((s) => !s.includes('(')) };
}

/** 'Sydney:New South Wales:2###' → the city, its region and its post-code pattern. */
function parseCity(entry: string): City {
  const [name, region, postCode] = entry.split(':');
  return { name, region: region || null, postCode: postCode || null };
}

/** German savings banks, Volksbanken and private banks are common: "bank" finds several dozen in DE. */
const GROUP_WEIGHT_OVERRIDES: Record<string, Record<string, number>> = {
  DE: { bank: 3.2 },
  AT: { bank: 2.0 },
  CH: { bank: 2.2, finance: 4 },
  LU: { bank: 3, finance: 6, holding: 6 },
  HK: { holding: 5, wholesale: 7 },
  SG: { holding: 4, wholesale: 6 },
  AE: { wholesale: 7, 'real-estate': 7 },
};

/** The reference rows the generator reads (from the database, or straight from buildReferenceData in tests). */
export type CatalogSource = {
  /** Locations with their English name. */
  locations: {
    id: number;
    country_code: string;
    subdivision_code: string | null;
    location_type_id: number;
    name: string | null;
  }[];
  currencies: { id: number; code: string }[];
  /** The leaf industries (the deepest level of the tree, ADR 0017). */
  industries: { id: number; code: string }[];
};

export async function loadSeedCatalog(db: Db): Promise<SeedCatalog> {
  return buildSeedCatalog(await loadCatalogSource(db));
}

/** The reference rows of a database the generator reads (plain data: it can be sent to a worker). */
export async function loadCatalogSource(db: Db): Promise<CatalogSource> {
  const locations = await db.kysely
    .selectFrom('locations')
    .leftJoin('translations', (join) =>
      join
        .onRef('translations.entity_id', '=', 'locations.id')
        .on('translations.entity', '=', 'location')
        .on('translations.language_id', '=', LANGUAGE_EN),
    )
    .select([
      'locations.id',
      'locations.country_code',
      'locations.subdivision_code',
      'locations.location_type_id',
      'translations.name',
    ])
    .orderBy('locations.id')
    .execute();
  const currencies = await db.kysely.selectFrom('currencies').select(['id', 'code']).orderBy('id').execute();
  const industries = await db.kysely
    .selectFrom('industries')
    .select(['id', 'code'])
    .where('level', '=', (eb) => eb.selectFrom('industries').select((x) => x.fn.max('level').as('level')))
    .orderBy('id')
    .execute();
  return { locations, currencies, industries };
}

export function buildSeedCatalog(source: CatalogSource): SeedCatalog {
  const countryIds = new Map<string, number>();
  const subdivisions = new Map<string, { id: number; name: string; country: string }>();
  for (const l of source.locations) {
    if (l.location_type_id === 1) countryIds.set(l.country_code, l.id);
    else if (l.subdivision_code)
      subdivisions.set(l.subdivision_code, { id: l.id, name: l.name ?? l.subdivision_code, country: l.country_code });
  }
  if (countryIds.size === 0)
    throw new Error('reference data is not loaded (no locations): run loadReferenceData first');
  const currencyIds = new Map(source.currencies.map((c) => [c.code, c.id]));
  const industries = [...source.industries].sort((a, b) => a.id - b.id);
  const industriesOf = new Map<string, number[]>();
  for (const g of INDUSTRY_GROUPS) {
    const ids = industries.filter((i) => g.prefixes.some((p) => i.code.startsWith(p))).map((i) => i.id);
    if (ids.length === 0) throw new Error(`no industries for group ${g.key}`);
    industriesOf.set(g.key, ids);
  }

  const cityCache = new Map<string, City[]>();
  const citiesOf = (profile: CountryProfile): City[] => {
    let cities = cityCache.get(profile.code);
    if (cities === undefined) {
      const own = profile.cities.map(parseCity);
      const known = new Set(own.map((c) => c.name));
      const fromFaker = profile.fakerCities ? flatten(localeData(profile.fakerCities)?.location?.city_name) : [];
      // the profile's own list holds the big cities: weight them up against faker's long tail
      const tail = fromFaker.filter((name) => !known.has(name)).map((name) => ({ name, region: null, postCode: null }));
      cities = [...own, ...own, ...own, ...tail];
      cityCache.set(profile.code, cities);
    }
    return cities;
  };
  const names = new Map<string, NameMaterial>();
  const phones = new Map<string, string[]>();
  for (const profile of Object.values(COUNTRY_PROFILES)) {
    names.set(profile.code, nameMaterial(profile.people, profile));
    phones.set(profile.code, profile.phones);
  }

  const jurisdictions: ResolvedJurisdiction[] = JURISDICTIONS.map((j: Jurisdiction, index) => {
    const profile = COUNTRY_PROFILES[j.country];
    const countryId = countryIds.get(j.country);
    if (profile === undefined || countryId === undefined) throw new Error(`unknown jurisdiction country ${j.country}`);
    const sub = j.subdivision ? subdivisions.get(j.subdivision) : undefined;
    if (j.subdivision && sub === undefined) throw new Error(`unknown subdivision ${j.subdivision}`);
    const currencyId = currencyIds.get(profile.currency);
    if (currencyId === undefined) throw new Error(`unknown currency ${profile.currency}`);
    const districts = [...subdivisions.values()]
      .filter((s) => s.country === j.country)
      .map(({ id, name }) => ({ id, name }));
    return {
      index,
      profile,
      locationId: sub?.id ?? countryId,
      countryId,
      state: sub ? { id: sub.id, name: sub.name } : null,
      language: j.language ?? profile.language,
      cities: j.cities?.map(parseCity) ?? citiesOf(profile),
      names: j.people ? nameMaterial(j.people, profile) : (names.get(profile.code) as NameMaterial),
      postCodes: j.postCodes ?? profile.postCodes,
      phones: j.phones ?? profile.phones,
      forms: weightedPicker((j.forms ?? profile.forms).map((value) => ({ value, weight: value.weight }))),
      nonProfitForms: weightedPicker(profile.nonProfitForms.map((value) => ({ value, weight: value.weight }))),
      districts: sub ? [] : districts,
      currencyId,
    };
  });

  const defaultGroups = weightedPicker(INDUSTRY_GROUPS.map((value) => ({ value, weight: value.weight })));
  const groupPickers = new Map<string, WeightedPicker<IndustryGroup>>();
  for (const [country, overrides] of Object.entries(GROUP_WEIGHT_OVERRIDES)) {
    groupPickers.set(
      country,
      weightedPicker(INDUSTRY_GROUPS.map((value) => ({ value, weight: overrides[value.key] ?? value.weight }))),
    );
  }

  const byCountry = new Map<string, number>();
  for (const j of JURISDICTIONS) byCountry.set(j.country, (byCountry.get(j.country) ?? 0) + j.weight);

  return {
    jurisdictions,
    pickJurisdiction: weightedPicker(
      jurisdictions.map((value) => ({ value, weight: JURISDICTIONS[value.index].weight })),
    ),
    pickGroup: (country) => groupPickers.get(country) ?? defaultGroups,
    industriesOf,
    names,
    phones,
    countryIds,
    currencyIds,
    subdivisionCodes: new Map([...subdivisions].map(([code, s]) => [s.id, code])),
    personCountries: [...byCountry].map(([country, weight]) => ({ country, weight })),
  };
}
