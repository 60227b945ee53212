// Reference data from maintained sources: languages (ISO 639-1), countries (ISO 3166-1, with names
// in English, German and French), the subdivisions whose flags map to their country (ISO 3166-2,
// named in German and French by subdivision-names.ts),
// industries (NACE Rev. 2 with Eurostat's titles, ADR 0017), currencies (ISO 4217) and the small enumerations.

import { createRequire } from 'node:module';
// The states module alone: the package's index also loads its 8 MB list of cities, a quarter of a
// second of every start of the app and the CLI.
import { getStatesOfCountry } from 'country-state-city/lib/cjs/state.js';
import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';
import ISO6391 from 'iso-639-1';
import type { InsertObject, Kysely } from 'kysely';
import { lockForTransaction } from '../advisory-lock.ts';
import type { Db } from '../client.ts';
import type { Database } from '../schema.ts';
import { EMPLOYEE_RANGES, ENUMERATIONS, LANGUAGE_EN } from './enumerations.ts';
import { NACE_REV2, naceIndustryId, naceLevel } from './nace-rev2.ts';
import { slugify } from './slugify.ts';
import { SUBDIVISION_NAMES, US_TERRITORIES } from './subdivision-names.ts';

const require = createRequire(import.meta.url);

type Translation = Database['translations'];
type Location = Database['locations'];
type Industry = Database['industries'];

export type ReferenceData = {
  languages: Database['languages'][];
  locations: Location[];
  locationAliases: Database['location_aliases'][];
  industries: Industry[];
  currencies: Database['currencies'][];
  employeeRanges: Database['employee_ranges'][];
  enumerations: { table: (typeof ENUMERATIONS)[number]['table']; rows: { id: number; uri: string }[] }[];
  translations: Translation[];
};

/** Countries whose states/provinces/cantons/emirates/districts are locations of their own (flag = the country's). */
export const SUBDIVISION_COUNTRIES = ['AE', 'CA', 'CH', 'HK', 'US'] as const;
/** Subdivision location ids start here; countries use their ISO 3166-1 numeric code. */
export const FIRST_SUBDIVISION_ID = 100000;

const LOCALES = ['en', 'de', 'fr'] as const;
type Locale = (typeof LOCALES)[number];

const translation = (
  entity: string,
  entity_id: number,
  language_id: number,
  name: string,
  name_short: string | null = null,
): Translation => ({ entity, entity_id, language_id, name, name_full: null, name_short });

function uniqueUri(uri: string, taken: Set<string>, suffix: string): string {
  let candidate = uri;
  if (taken.has(candidate)) candidate = `${uri}-${suffix}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${uri}-${suffix}-${n}`;
  taken.add(candidate);
  return candidate;
}

function buildLanguages(): { rows: Database['languages'][]; translations: Translation[]; ids: Record<Locale, number> } {
  const codes = ISO6391.getAllCodes().slice().sort();
  const rows: Database['languages'][] = [];
  const taken = new Set<string>();
  let next = 1;
  for (const code of codes) {
    let id: number;
    if (code === 'en') id = LANGUAGE_EN;
    else {
      if (next === LANGUAGE_EN) next++;
      id = next++;
    }
    rows.push({ id, code, uri: uniqueUri(slugify(ISO6391.getName(code)), taken, code) });
  }
  const idOf = new Map(rows.map((r) => [r.code, r.id]));
  const ids = { en: LANGUAGE_EN, de: idOf.get('de') ?? 0, fr: idOf.get('fr') ?? 0 };
  const translations: Translation[] = [];
  for (const locale of LOCALES) {
    const names = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
    for (const row of rows) {
      const name = names.of(row.code) ?? ISO6391.getName(row.code);
      translations.push(translation('language', row.id, ids[locale], name));
    }
  }
  return { rows, translations, ids };
}

function registerCountryLocales(): void {
  for (const locale of LOCALES) countries.registerLocale(require(`i18n-iso-countries/langs/${locale}.json`));
}

function buildLocations(ids: Record<Locale, number>): {
  locations: Location[];
  aliases: Database['location_aliases'][];
  translations: Translation[];
} {
  registerCountryLocales();
  const locations: Location[] = [];
  const aliases: Database['location_aliases'][] = [];
  const translations: Translation[] = [];
  const taken = new Set<string>();
  const countryId = new Map<string, number>();

  const alpha2Codes = Object.keys(countries.getAlpha2Codes()).sort();
  for (const alpha2 of alpha2Codes) {
    const id = Number(countries.alpha2ToNumeric(alpha2));
    const englishNames = countries.getName(alpha2, 'en', { select: 'all' }) ?? [];
    const official = englishNames[0] ?? alpha2;
    locations.push({
      id,
      location_type_id: 1,
      uri: uniqueUri(slugify(official), taken, alpha2.toLowerCase()),
      country_code: alpha2,
      subdivision_code: null,
      parent_id: null,
      flag_location_id: id,
    });
    countryId.set(alpha2, id);
    for (const locale of LOCALES) {
      const name = countries.getName(alpha2, locale, { select: 'official' }) ?? official;
      const alias = countries.getName(alpha2, locale, { select: 'alias' });
      translations.push(translation('location', id, ids[locale], name, alias && alias !== name ? alias : null));
    }
    const alpha3 = countries.alpha2ToAlpha3(alpha2);
    const names = new Set([alpha2, ...(alpha3 ? [alpha3] : []), ...englishNames.slice(1)]);
    for (const alias of names) aliases.push({ location_id: id, alias });
  }

  let nextId = FIRST_SUBDIVISION_ID;
  for (const alpha2 of SUBDIVISION_COUNTRIES) {
    const parent = countryId.get(alpha2);
    if (parent === undefined) throw new Error(`unknown country ${alpha2}`);
    const states = getStatesOfCountry(alpha2)
      // ISO 3166-2 codes only: country-state-city also lists the US Minor Outlying Islands' own (UM-81, …)
      .filter((s) => /^[A-Z0-9]{1,3}$/.test(s.isoCode))
      .sort((a, b) => (a.isoCode < b.isoCode ? -1 : a.isoCode > b.isoCode ? 1 : 0));
    for (const state of states) {
      const id = nextId++;
      const code = `${alpha2}-${state.isoCode}`;
      locations.push({
        id,
        location_type_id: 2,
        uri: uniqueUri(`${alpha2.toLowerCase()}-${slugify(state.name)}`, taken, state.isoCode.toLowerCase()),
        country_code: alpha2,
        subdivision_code: code,
        parent_id: parent,
        flag_location_id: parent,
      });
      for (const locale of LOCALES) {
        translations.push(translation('location', id, ids[locale], subdivisionName(code, state.name, locale)));
      }
      aliases.push({ location_id: id, alias: code });
    }
  }
  return { locations, aliases, translations };
}

/** A subdivision's name in a language: English from country-state-city, German and French translated. */
function subdivisionName(code: string, english: string, locale: Locale): string {
  if (locale === 'en') return english;
  const [country, subdivision] = code.split('-');
  if (country === 'US' && US_TERRITORIES.has(subdivision)) return countries.getName(subdivision, locale) ?? english;
  return SUBDIVISION_NAMES[code]?.[locale] ?? english;
}

/**
 * The industries: NACE Rev. 2 (ADR 0017), every level carried with its official English, German
 * and French title. A code's id comes from naceIndustryId (disjoint from the NAICS ids used before).
 */
export function buildIndustries(ids: Record<Locale, number>): { industries: Industry[]; translations: Translation[] } {
  const industries: Industry[] = [];
  const translations: Translation[] = [];
  const taken = new Set<string>();
  for (const [code, parent, en, de, fr] of NACE_REV2) {
    const id = naceIndustryId(code);
    const level = naceLevel(code);
    industries.push({
      id,
      code,
      level,
      uri: uniqueUri(slugify(en), taken, code.toLowerCase()),
      parent_id: parent === null ? null : naceIndustryId(parent),
    });
    translations.push(translation('industry', id, ids.en, en));
    translations.push(translation('industry', id, ids.de, de));
    translations.push(translation('industry', id, ids.fr, fr));
  }
  // Parents before children.
  industries.sort((a, b) => a.level - b.level || a.id - b.id);
  return { industries, translations };
}

function buildCurrencies(ids: Record<Locale, number>): {
  currencies: Database['currencies'][];
  translations: Translation[];
} {
  const data = currencyCodes.data.slice().sort((a, b) => (a.code < b.code ? -1 : 1));
  const used = new Set(data.map((c) => Number(c.number)).filter((n) => n > 0));
  let spare = 1000;
  const currencies: Database['currencies'][] = [];
  const translations: Translation[] = [];
  const names = {
    de: new Intl.DisplayNames(['de'], { type: 'currency' }),
    fr: new Intl.DisplayNames(['fr'], { type: 'currency' }),
  };
  for (const c of data) {
    let id = Number(c.number);
    if (!(id > 0) || currencies.some((x) => x.id === id)) {
      while (used.has(spare)) spare++;
      id = spare++;
    }
    const minor = Number(c.digits);
    currencies.push({
      id,
      uri: c.code.toLowerCase(),
      code: c.code,
      numeric_code: c.number ? c.number.padStart(3, '0') : null,
      minor_unit: Number.isInteger(minor) ? minor : null,
    });
    translations.push(translation('currency', id, ids.en, c.currency));
    for (const locale of ['de', 'fr'] as const) {
      const name = names[locale].of(c.code);
      translations.push(translation('currency', id, ids[locale], name && name !== c.code ? name : c.currency));
    }
  }
  return { currencies, translations };
}

function employeeRangeName(locale: Locale, min: number, max: number | null): string {
  const n = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale).format;
  if (max === null) {
    if (locale === 'de') return `über ${n(min - 1)} Beschäftigte`;
    if (locale === 'fr') return `plus de ${n(min - 1)} salariés`;
    return `${n(min)}+ employees`;
  }
  if (locale === 'de') return `${n(min)}–${n(max)} Beschäftigte`;
  if (locale === 'fr') return `${n(min)} à ${n(max)} salariés`;
  return `${n(min)}–${n(max)} employees`;
}

/** Every reference row, built in memory from the installed sources (deterministic). */
export function buildReferenceData(): ReferenceData {
  const languages = buildLanguages();
  const ids = languages.ids;
  const locations = buildLocations(ids);
  const industries = buildIndustries(ids);
  const currencies = buildCurrencies(ids);
  const translations: Translation[] = [...languages.translations];
  const enumerations: ReferenceData['enumerations'] = [];
  for (const enumeration of ENUMERATIONS) {
    enumerations.push({ table: enumeration.table, rows: enumeration.rows.map(({ id, uri }) => ({ id, uri })) });
    for (const row of enumeration.rows) {
      for (const locale of LOCALES)
        translations.push(translation(enumeration.entity, row.id, ids[locale], row[locale]));
    }
  }
  const employeeRanges = EMPLOYEE_RANGES.map((r) => ({
    id: r.id,
    uri: r.uri,
    min_employees: r.min,
    max_employees: r.max,
  }));
  for (const r of EMPLOYEE_RANGES) {
    for (const locale of LOCALES)
      translations.push(translation('employees', r.id, ids[locale], employeeRangeName(locale, r.min, r.max)));
  }
  translations.push(...locations.translations, ...industries.translations, ...currencies.translations);
  return {
    languages: languages.rows,
    locations: locations.locations,
    locationAliases: locations.aliases,
    industries: industries.industries,
    currencies: currencies.currencies,
    employeeRanges,
    enumerations,
    translations,
  };
}

async function insertChunked<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: readonly InsertObject<Database, T>[],
  chunk = 1000,
): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + chunk))
      .execute();
  }
}

const isLoaded = async (kysely: Kysely<Database>) =>
  (await kysely.selectFrom('languages').select('id').limit(1).execute()).length > 0;

/**
 * Brings the names of the locations of a loaded database up to date (a translation added to
 * subdivision-names.ts reaches databases loaded before it): one upsert that writes only the names
 * that changed.
 */
async function refreshLocationNames(db: Db): Promise<void> {
  const languages = buildLanguages();
  const known = new Set((await db.kysely.selectFrom('locations').select('id').execute()).map((l) => l.id));
  const translations = buildLocations(languages.ids).translations.filter((t) => known.has(t.entity_id));
  for (let i = 0; i < translations.length; i += 1000) {
    await db.kysely
      .insertInto('translations')
      .values(translations.slice(i, i + 1000))
      .onConflict((oc) =>
        oc
          .columns(['entity', 'entity_id', 'language_id'])
          .doUpdateSet((eb) => ({ name: eb.ref('excluded.name') }))
          .where((eb) => eb('translations.name', 'is distinct from', eb.ref('excluded.name'))),
      )
      .execute();
  }
}

/**
 * Loads the industries a loaded database lacks: all of them into one loaded before the
 * classification became NACE Rev. 2 (migration 0017 emptied the table), the classes into one loaded
 * while the tree stopped at NACE groups (ADR 0017). Rows and names already there stay as they are;
 * ids and URIs come from buildIndustries, so a missing row gets the same ones a fresh load gives it.
 */
async function loadMissingIndustries(db: Db): Promise<void> {
  const { industries, translations } = buildIndustries(buildLanguages().ids);
  const missing = async (k: Kysely<Database>) => {
    const present = new Set((await k.selectFrom('industries').select('id').execute()).map((r) => r.id));
    return industries.filter((i) => !present.has(i.id));
  };
  if ((await missing(db.kysely)).length === 0) return;
  await db.kysely.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'reference-data');
    const rows = await missing(trx);
    if (rows.length === 0) return;
    const ids = new Set(rows.map((r) => r.id));
    // Parents before children (buildIndustries sorts by level).
    await insertChunked(trx, 'industries', rows);
    await insertChunked(
      trx,
      'translations',
      translations.filter((t) => ids.has(t.entity_id)),
    );
  });
}

/**
 * Loads all reference data in one transaction. When `languages` already has rows, only refreshes
 * the locations' names and adds the industries the database lacks.
 * Processes starting together take turns (an advisory lock for the transaction): the first loads,
 * the others find the rows.
 */
export async function loadReferenceData(db: Db): Promise<void> {
  if (await isLoaded(db.kysely)) {
    await refreshLocationNames(db);
    await loadMissingIndustries(db);
    return;
  }
  const data = buildReferenceData();
  await db.kysely.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'reference-data');
    if (await isLoaded(trx)) return;
    await insertChunked(trx, 'languages', data.languages);
    for (const enumeration of data.enumerations) await insertChunked(trx, enumeration.table, enumeration.rows);
    await insertChunked(trx, 'employee_ranges', data.employeeRanges);
    // Countries first (their flag is their own id), then subdivisions (parent and flag = the country).
    await insertChunked(
      trx,
      'locations',
      data.locations.filter((l) => l.location_type_id === 1),
    );
    await insertChunked(
      trx,
      'locations',
      data.locations.filter((l) => l.location_type_id !== 1),
    );
    await insertChunked(trx, 'location_aliases', data.locationAliases);
    // Parents before children (buildIndustries sorts by level).
    await insertChunked(trx, 'industries', data.industries);
    await insertChunked(trx, 'currencies', data.currencies);
    await insertChunked(trx, 'translations', data.translations);
  });
}
