// The related records of a demo company (spec §2 "Search sections"): its rows in the 21 record
// tables of core/sections/records.ts, plus the profile's documents, events, products and the
// accounting lines of its financial statements. Like the company, everything comes from a random
// stream of its own (seed, 3, company id), so records never depend on batch boundaries.
//
// Row ids are unique within a table by construction: the company that writes a row numbers it
// company id × 64 + n. Rows under the company itself take n < 32 (n < 64 for connections, whose
// count follows the board); a row it writes under another company (the target's side of an M&A
// deal) takes n ≥ 32.
//
// Volume: most companies have a few records in a few tables, larger companies more, and about 3%
// (the spec's "advanced" profile) have 10–30 in one to three lists.

import { mod97 } from '../../core/identifiers/check-digits.ts';
import { mixSeed, type Random, seededRandom, weightedPicker } from '../../core/seeded-random.ts';
import { dateOf, dayBetween, dayOf, dayOfDate, LAST_DAY, yearOf } from './calendar.ts';
import {
  ADDRESS_TYPE,
  brandWord,
  CONTACT,
  CURRENCY_SCALE,
  makeAddress,
  makeCompany,
  makePerson,
  type SeedAddress,
  type SeedCompany,
  STATUS,
} from './company-factory.ts';
import { fillPattern } from './country-profiles.ts';
import { generateIban } from './identifiers.ts';
import type { PersonPool } from './member-pool.ts';
import {
  AIRCRAFT_MODELS,
  AIRCRAFT_PREFIXES,
  type AircraftModel,
  BANKS,
  FLAGS_OF_CONVENIENCE,
  type Flag,
  IPC_SUBCLASSES,
  LOCARNO_CLASSES,
  NATIONAL_FLAGS,
  NICE_CLASSES,
  PLANT_SPECIES,
  VEHICLE_MODELS,
  VESSEL_TYPES,
  VESSEL_WORDS,
} from './record-words.ts';
import type { ResolvedJurisdiction, SeedCatalog } from './seed-catalog.ts';

/** The company's reference values every record row carries (records.ts COMPANY_COLUMNS). */
export type CompanyColumns = Pick<
  SeedCompany,
  'jurisdiction_id' | 'primary_industry_id' | 'status_id' | 'size_id' | 'employees_id'
>;

/**
 * A field value: text, code and date fields are strings ('YYYY-MM-DD' for dates), amounts are
 * numbers in major units, the others whole numbers (enum, location and currency ids).
 */
export type RecordValue = string | number | null;

/** A row of a record table: `values` holds every field of the section, by field key. */
export type SeedRecord = {
  table: string;
  legalEntityId: number;
  id: number;
  company: CompanyColumns;
  values: Record<string, RecordValue>;
};

export type SeedDocument = {
  legal_entity_id: number;
  id: number;
  title: string;
  document_type: string;
  filed_on: string;
};
export type SeedEvent = {
  legal_entity_id: number;
  id: number;
  event_date: string;
  event_type: string;
  description: string | null;
};
export type SeedProduct = {
  legal_entity_id: number;
  id: number;
  name: string;
  kind: 'product' | 'service';
  description: string | null;
};
export type SeedStatementLine = {
  legal_entity_id: number;
  statement_id: number;
  line_no: number;
  name: string;
  amount: number | null;
};

export type SeedRecords = {
  records: SeedRecord[];
  documents: SeedDocument[];
  events: SeedEvent[];
  products: SeedProduct[];
  statementLines: SeedStatementLine[];
};

/** Ids per writing company; rows under another company start at FOREIGN_SLOTS. */
export const RECORD_ID_SLOTS = 64;
export const FOREIGN_SLOTS = 32;
export const recordId = (writer: number, n: number): number => writer * RECORD_ID_SLOTS + n;

/** Accounting lines of a financial statement, in order (line_no 1…). */
export const STATEMENT_LINES = [
  'Revenue',
  'Cost of sales',
  'Gross profit',
  'Operating expenses',
  'Operating profit',
  'Net profit',
  'Total assets',
  'Equity',
] as const;

// Volumes -----------------------------------------------------------------------------------------

/**
 * How many rows a company has in a table: with probability p × size factor (× the industry
 * group's factor) it has 1 + an exponential number with mean `more`.
 */
type Volume = { p: number; more: number; groups?: Record<string, number> };

const INSPECTED = {
  restaurants: 3,
  food: 3,
  grocery: 2.5,
  manufacturing: 2,
  hotels: 2,
  building: 1.5,
  mining: 2.5,
  waste: 3,
  utilities: 2,
  civil: 1.5,
};

const VOLUMES: Record<string, Volume> = {
  transactions: { p: 0.3, more: 1.2, groups: { wholesale: 1.5, building: 1.4, civil: 2, software: 1.2, public: 2 } },
  permits: {
    p: 0.14,
    more: 0.6,
    groups: { building: 2.5, civil: 2, restaurants: 2, food: 1.8, mining: 2, utilities: 2, waste: 2.5, hotels: 1.5 },
  },
  real_estate: { p: 0.12, more: 0.8, groups: { 'real-estate': 4, holding: 2, hotels: 2, building: 1.5 } },
  aircraft: { p: 0.025, more: 0.6, groups: { shipping: 30, leisure: 2, rental: 4, holding: 3 } },
  bank_accounts: { p: 0.4, more: 0.3 },
  facilities: {
    p: 0.1,
    more: 0.8,
    groups: { manufacturing: 2.5, logistics: 3, retail: 2, grocery: 2, food: 2, utilities: 2, mining: 2 },
  },
  industrial_designs: { p: 0.025, more: 1.2, groups: { manufacturing: 4, retail: 2, cars: 3, media: 1.5 } },
  inspections: { p: 0.15, more: 0.8, groups: INSPECTED },
  liabilities: { p: 0.16, more: 0.5 },
  patents: { p: 0.025, more: 2, groups: { manufacturing: 5, research: 10, software: 3, telecom: 4, cars: 2 } },
  plant_variety_rights: { p: 0.02, more: 1, groups: { crops: 25, forestry: 5, research: 5, food: 3, livestock: 3 } },
  taxes: { p: 0.28, more: 1.5 },
  trademarks: {
    p: 0.1,
    more: 0.8,
    groups: { food: 2, retail: 2, software: 1.5, media: 2, personal: 1.5, restaurants: 1.2 },
  },
  vehicles: {
    p: 0.16,
    more: 1.5,
    groups: { trucking: 4, logistics: 3, building: 2, trades: 2, cars: 3, rental: 3, facilities: 2, waste: 3 },
  },
  vessels: { p: 0.014, more: 1, groups: { shipping: 60, forestry: 12, logistics: 4, mining: 3, wholesale: 1.5 } },
  violations: { p: 0.06, more: 0.5, groups: INSPECTED },
};

/** Lists that an "advanced" company may have 10–30 rows in. */
const LONG_LISTS = [
  'transactions',
  'vehicles',
  'real_estate',
  'permits',
  'inspections',
  'trademarks',
  'patents',
  'facilities',
  'taxes',
  'liabilities',
  'bank_accounts',
];

const SIZE_FACTOR: Record<number, number> = { 1: 1, 2: 1.8, 3: 3, 4: 5 };

// Small helpers ------------------------------------------------------------------------------------

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (random: Random, count: number, alphabet = LETTERS): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[random.int(alphabet.length)];
  return out;
};
const digits = (random: Random, count: number): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += String.fromCharCode(48 + random.int(10));
  return out;
};
/** Uniform on a log scale between low and high. */
const logBetween = (random: Random, low: number, high: number): number => low * (high / low) ** random.next();
const round = (x: number, step: number): number => Math.round(x / step) * step;
const groupDigits = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// Identifiers with check digits --------------------------------------------------------------------

/** IMO ship number: six digits and a check digit (sum of digit × 7…2, last digit). */
export function imoCheckDigit(six: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += (six.charCodeAt(i) - 48) * (7 - i);
  return sum % 10;
}

export function isValidImo(imo: string): boolean {
  return /^\d{7}$/.test(imo) && imoCheckDigit(imo.slice(0, 6)) === imo.charCodeAt(6) - 48;
}

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_VALUES: Record<string, number> = Object.fromEntries(
  [...'ABCDEFGH']
    .map((c, i) => [c, i + 1])
    .concat(
      [...'JKLMN'].map((c, i) => [c, i + 1]),
      [
        ['P', 7],
        ['R', 9],
      ],
      [...'STUVWXYZ'].map((c, i) => [c, i + 2]),
      [...'0123456789'].map((c, i) => [c, i]),
    ),
);
/** Model-year codes (VIN position 10) from 1980, repeating every 30 years. */
const VIN_YEARS = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/** The North-American VIN check digit (position 9) of a 17-character VIN. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (VIN_VALUES[vin[i]] ?? 0) * VIN_WEIGHTS[i];
  const check = sum % 11;
  return check === 10 ? 'X' : String(check);
}

export function isValidVin(vin: string): boolean {
  return /^[A-HJ-NPR-Z0-9]{17}$/.test(vin) && vinCheckDigit(vin) === vin[8];
}

function makeVin(random: Random, wmi: string, modelYear: number): string {
  const body = `${wmi}${letters(random, 5, VIN_ALPHABET)}0${VIN_YEARS[(modelYear - 1980) % 30]}${letters(random, 1, VIN_ALPHABET)}${digits(random, 6)}`;
  return `${body.slice(0, 8)}${vinCheckDigit(body)}${body.slice(9)}`;
}

// Context -----------------------------------------------------------------------------------------

type Context = {
  catalog: SeedCatalog;
  pool: PersonPool;
  seed: number;
  random: Random;
  company: SeedCompany;
  j: ResolvedJurisdiction;
  country: string;
  regDay: number;
  endDay: number;
  /** Amounts are drawn in euros and multiplied by this. */
  scale: number;
  /** Yearly revenue in euros, drawn from the company's size. */
  revenue: number;
  /** Size factor: more records for larger companies. */
  factor: number;
  out: SeedRecords;
  /** Next own row number per table. */
  next: Map<string, number>;
};

function add(ctx: Context, table: string, values: Record<string, RecordValue>): number {
  const n = ctx.next.get(table) ?? 0;
  const limit = table === 'connections' ? RECORD_ID_SLOTS : FOREIGN_SLOTS;
  if (n >= limit) throw new Error(`company ${ctx.company.id} has too many ${table} rows`);
  ctx.next.set(table, n + 1);
  const id = recordId(ctx.company.id, n);
  ctx.out.records.push({ table, legalEntityId: ctx.company.id, id, company: ctx.company, values });
  return id;
}

/** A day in the company's lifetime, at least `after` (clamped into it). */
const lifeDay = (ctx: Context, after = ctx.regDay): number =>
  dayBetween(ctx.random, Math.min(Math.max(after, ctx.regDay), ctx.endDay), ctx.endDay);

/** A day skewed towards the recent end of the company's lifetime (records pile up over time). */
const recentDay = (ctx: Context): number => {
  const span = ctx.endDay - ctx.regDay;
  return ctx.endDay - Math.floor(span * ctx.random.next() ** 1.6);
};

const money = (ctx: Context, euros: number): number =>
  round(euros * ctx.scale, Math.abs(euros * ctx.scale) >= 1000 ? 100 : 1);

const personName = (ctx: Context): string =>
  `${ctx.random.pick(ctx.j.names.firstNames)} ${ctx.j.names.lastNames.length > 0 ? ctx.random.pick(ctx.j.names.lastNames) : brandWord(ctx.random)}`;

const city = (ctx: Context): string => ctx.random.pick(ctx.j.cities).name;

function countFor(ctx: Context, table: string): number {
  const v = VOLUMES[table];
  const p = Math.min(0.95, v.p * ctx.factor * (v.groups?.[ctx.company.industryGroup] ?? 1));
  if (!ctx.random.chance(p)) return 0;
  return Math.min(FOREIGN_SLOTS - 1, 1 + Math.floor(-Math.log(1 - ctx.random.next()) * v.more * Math.sqrt(ctx.factor)));
}

const REVENUE_BY_SIZE: Record<number, [number, number]> = {
  1: [40_000, 2_000_000],
  2: [1_500_000, 10_000_000],
  3: [10_000_000, 50_000_000],
  4: [50_000_000, 5_000_000_000],
};

// The records -------------------------------------------------------------------------------------

export function makeRecords(catalog: SeedCatalog, pool: PersonPool, seed: number, company: SeedCompany): SeedRecords {
  const random = seededRandom(mixSeed(seed, 3, company.id));
  const j = catalog.jurisdictions[company.jurisdictionIndex];
  const [low, high] = REVENUE_BY_SIZE[company.size_id ?? 1] ?? [20_000, 5_000_000];
  const ctx: Context = {
    catalog,
    pool,
    seed,
    random,
    company,
    j,
    country: j.profile.code,
    regDay: dayOf(company.registered_on),
    endDay: Math.max(company.endDay, dayOf(company.registered_on)),
    scale: CURRENCY_SCALE[j.profile.currency] ?? 1,
    revenue: logBetween(random, low, high),
    factor: SIZE_FACTOR[company.size_id ?? 1] ?? 1,
    out: { records: [], documents: [], events: [], products: [], statementLines: [] },
    next: new Map(),
  };

  connections(ctx);
  contacts(ctx);
  financialStatements(ctx);
  mergersAndAcquisitions(ctx);
  registers(ctx);

  const advanced = new Map<string, number>();
  if (random.chance(0.03)) {
    for (let i = 0, n = 1 + random.int(3); i < n; i++) advanced.set(random.pick(LONG_LISTS), 10 + random.int(21));
  }
  const times = (table: string, make: (ctx: Context) => void): void => {
    const count = advanced.get(table) ?? countFor(ctx, table);
    for (let i = 0; i < count; i++) make(ctx);
  };
  times('transactions', transaction);
  times('permits', permit);
  times('real_estate', realEstate);
  times('aircraft', aircraftRecord);
  times('bank_accounts', bankAccount);
  times('facilities', facility);
  times('industrial_designs', industrialDesign);
  times('inspections', inspection);
  times('liabilities', liability);
  times('patents', patent);
  times('plant_variety_rights', plantVarietyRight);
  times('taxes', tax);
  times('trademarks', trademark);
  times('vehicles', vehicleRecord);
  times('vessels', vessel);
  times('violations', violation);

  documents(ctx);
  events(ctx);
  products(ctx);
  return ctx.out;
}

// Connections and contacts: copies of the company's members and contacts --------------------------

function connections(ctx: Context): void {
  const { catalog, pool, seed, company } = ctx;
  for (const m of company.members) {
    let name: string;
    let email: string | null = null;
    let phone: string | null = null;
    if (m.member_id % 2 === 1) {
      const person = makePerson(catalog, pool, seed, (m.member_id + 1) / 2);
      name = person.name;
      email = person.contacts.find((c) => c.contact_type_id === CONTACT.email)?.contact ?? null;
      phone = person.contacts.find((c) => c.contact_type_id === CONTACT.phone)?.contact ?? null;
    } else name = makeCompany(catalog, pool, seed, m.member_id / 2).name;
    add(ctx, 'connections', {
      name,
      position: m.position_id,
      email,
      phone,
      since: m.since ?? company.registered_on,
    });
  }
}

function contacts(ctx: Context): void {
  const c = ctx.company;
  if (c.contacts.length === 0) return;
  const first = (type: number): string | null =>
    c.contacts.find((x) => x.contact_type_id === type && x.position === 0)?.contact ?? null;
  const address = c.addresses.find((a) => a.address_type_id === ADDRESS_TYPE.registered) ?? c.addresses[0];
  add(ctx, 'contacts', {
    website: first(CONTACT.website),
    email: first(CONTACT.email),
    phone: first(CONTACT.phone),
    fax: first(CONTACT.fax),
    address: address ? (address.state_id ?? address.country_id) : null,
    updated_on: dateOf(lifeDay(ctx, ctx.endDay - 3 * 365)),
  });
}

// Financial statements ----------------------------------------------------------------------------

const STATEMENT_CHANCE: Record<number, number> = { 1: 0.3, 2: 0.55, 3: 0.75, 4: 0.9 };

function financialStatements(ctx: Context): void {
  const { random, company } = ctx;
  if (!random.chance(STATEMENT_CHANCE[company.size_id ?? 0] ?? 0.25)) return;
  // Japanese and Indian fiscal years end on 31 March of the next calendar year.
  const march = ctx.country === 'JP' || ctx.country === 'IN';
  const lastYear = Math.min(2025, yearOf(ctx.endDay) - (march ? 2 : 1)) - (random.chance(0.25) ? 1 : 0);
  const firstYear = yearOf(ctx.regDay);
  const available = lastYear - firstYear + 1;
  if (available < 2) return;
  const years = Math.min(available, 2 + random.int(5));
  const margin = -0.08 + 0.26 * random.next();
  const assetsRatio = 0.4 + 1.1 * random.next();
  const equityRatio = 0.15 + 0.45 * random.next();
  let revenue = ctx.revenue;
  for (let year = lastYear; year > lastYear - years; year--) {
    const start = march ? dayOfDate(year, 4, 1) : dayOfDate(year, 1, 1);
    const end = march ? dayOfDate(year + 1, 3, 31) : dayOfDate(year, 12, 31);
    const rev = money(ctx, revenue);
    const profit = money(ctx, revenue * (margin + 0.06 * (random.next() - 0.5)));
    const totalAssets = money(ctx, revenue * assetsRatio);
    const equity = money(ctx, revenue * assetsRatio * equityRatio);
    // Operating profit is before tax (a quarter of a profit); opex and gross profit follow from it.
    const operating = profit > 0 ? round(profit / 0.75, 1) : profit;
    const gross = operating + round(rev * (0.08 + 0.3 * random.next()), 1);
    // The rest of the filed accounts' normalised set (ADR 0037), derived without further draws so
    // the generator's stream stays as it was: the company's own accounts, for the year itself.
    const id = add(ctx, 'financial_statements', {
      revenue: rev,
      profit,
      currency: ctx.j.currencyId,
      report_year: year,
      period_start: dateOf(Math.max(start, ctx.regDay)),
      period_end: dateOf(end),
      total_assets: totalAssets,
      equity,
      gross_profit: gross,
      operating_profit: operating,
      profit_before_tax: operating,
      current_assets: round(totalAssets * 0.45, 1),
      cash: round(totalAssets * 0.12, 1),
      total_liabilities: totalAssets - equity,
      average_employees: null,
      scope: 1,
      basis: 1,
    });
    const lines = [rev, rev - gross, gross, gross - operating, operating, profit, totalAssets, equity];
    lines.forEach((amount, i) => {
      ctx.out.statementLines.push({
        legal_entity_id: company.id,
        statement_id: id,
        line_no: i + 1,
        name: STATEMENT_LINES[i],
        amount,
      });
    });
    revenue /= 0.92 + 0.22 * random.next();
  }
}

// Mergers and acquisitions: both sides of each deal ------------------------------------------------

const DEAL_TYPES = [2, 2, 2, 2, 1, 1, 3, 3, 4, 5];

function mergersAndAcquisitions(ctx: Context): void {
  const { random, company } = ctx;
  const boost = company.industryGroup === 'holding' ? 3 : 1;
  if (company.id < 2 || !random.chance(Math.min(0.6, 0.035 * ctx.factor * boost))) return;
  const deals = random.chance(0.2) ? 2 : 1;
  for (let k = 0; k < deals; k++) {
    const targetId = company.id - 1 - random.int(Math.min(company.id - 1, 5000));
    const target = makeCompany(ctx.catalog, ctx.pool, ctx.seed, targetId);
    const from = Math.max(ctx.regDay, dayOf(target.registered_on));
    const to = Math.min(ctx.endDay, target.endDay);
    if (from > to) continue;
    const day = dayBetween(random, from, to);
    const dealNumber = `${yearOf(day)}-${(company.id * 4 + k).toString(36).toUpperCase().padStart(6, '0')}`;
    const type = random.pick(DEAL_TYPES);
    const targetRevenue = logBetween(random, ...(REVENUE_BY_SIZE[target.size_id ?? 1] ?? [20_000, 5_000_000]));
    const value = random.chance(0.7) ? money(ctx, targetRevenue * (0.4 + 2.5 * random.next())) : null;
    const deal = {
      deal_date: dateOf(day),
      type,
      deal_number: dealNumber,
      deal_value: value,
      currency: ctx.j.currencyId,
    };
    add(ctx, 'mergers_and_acquisitions', { ...deal, role: 1, participant_name: target.name });
    ctx.out.records.push({
      table: 'mergers_and_acquisitions',
      legalEntityId: targetId,
      id: recordId(company.id, FOREIGN_SLOTS + k),
      company: target,
      values: { ...deal, role: 2, participant_name: company.name },
    });
  }
}

// Registers ---------------------------------------------------------------------------------------

const COMMERCIAL_REGISTERS: Record<string, [string, (city: string) => string]> = {
  DE: ['Handelsregister B', (c) => `Amtsgericht ${c}`],
  AT: ['Firmenbuch', (c) => `Landesgericht ${c}`],
  CH: ['Handelsregister', () => 'Eidgenössisches Amt für das Handelsregister'],
  GB: ['Register of Companies', () => 'Companies House'],
  IE: ['Register of Companies', () => 'Companies Registration Office'],
  FR: ['Registre du commerce et des sociétés', (c) => `Greffe du tribunal de commerce de ${c}`],
  BE: ['Banque-Carrefour des Entreprises', () => 'SPF Economie'],
  LU: ['Registre de commerce et des sociétés', () => 'Luxembourg Business Registers'],
  NL: ['Handelsregister', () => 'Kamer van Koophandel'],
  ES: ['Registro Mercantil', (c) => `Registro Mercantil de ${c}`],
  IT: ['Registro delle Imprese', (c) => `Camera di Commercio di ${c}`],
  PT: ['Registo Comercial', () => 'Instituto dos Registos e do Notariado'],
  PL: ['Krajowy Rejestr Sądowy', (c) => `Sąd Rejonowy w ${c}`],
  SE: ['Aktiebolagsregistret', () => 'Bolagsverket'],
  NO: ['Foretaksregisteret', () => 'Brønnøysundregistrene'],
  DK: ['CVR-registret', () => 'Erhvervsstyrelsen'],
  FI: ['Kaupparekisteri', () => 'Patentti- ja rekisterihallitus'],
  AU: ['Register of Australian Companies', () => 'ASIC'],
  NZ: ['Companies Register', () => 'Companies Office'],
  SG: ['Register of Companies', () => 'ACRA'],
  HK: ['Companies Register', () => 'Companies Registry'],
  JP: ['Commercial Registry', (c) => `${c} Legal Affairs Bureau`],
  IN: ['Register of Companies', (c) => `Registrar of Companies, ${c}`],
  BR: ['Registro Público de Empresas Mercantis', () => 'Junta Comercial'],
  MX: ['Registro Público de Comercio', () => 'Secretaría de Economía'],
  AE: ['Commercial Register', () => 'Department of Economy and Tourism'],
  US: ['Business Entity Register', () => 'Secretary of State'],
  CA: ['Corporations Register', () => 'Corporations Canada'],
};

const TAX_AUTHORITIES: Record<string, string> = {
  DE: 'Finanzamt',
  AT: 'Finanzamt Österreich',
  CH: 'Eidgenössische Steuerverwaltung',
  GB: 'HM Revenue & Customs',
  IE: 'Revenue Commissioners',
  FR: 'Direction générale des Finances publiques',
  US: 'Internal Revenue Service',
  CA: 'Canada Revenue Agency',
  AU: 'Australian Taxation Office',
  NL: 'Belastingdienst',
  ES: 'Agencia Tributaria',
  IT: 'Agenzia delle Entrate',
  JP: 'National Tax Agency',
  IN: 'Income Tax Department',
  BR: 'Receita Federal',
  SE: 'Skatteverket',
  NO: 'Skatteetaten',
  DK: 'Skattestyrelsen',
  FI: 'Verohallinto',
  PL: 'Krajowa Administracja Skarbowa',
};
const taxAuthority = (country: string): string => TAX_AUTHORITIES[country] ?? 'Tax Administration';

function registers(ctx: Context): void {
  const { random, company, country } = ctx;
  const active = company.status_id === STATUS.active ? 1 : 2;
  const identifier = (type: number): string | null =>
    company.identifiers.find((i) => i.identifier_type_id === type)?.identifier ?? null;
  const companyNumber = identifier(2);
  if (companyNumber !== null && random.chance(0.6)) {
    const [name, authority] = COMMERCIAL_REGISTERS[country] ?? ['Commercial Register', () => 'Registrar of Companies'];
    add(ctx, 'registers', {
      register_name: name,
      register_number: companyNumber,
      authority: authority(city(ctx)),
      entry_date: company.registered_on,
      type: 1,
      status: active,
    });
  }
  const vat = identifier(4) ?? identifier(3);
  if (vat !== null && random.chance(0.35)) {
    add(ctx, 'registers', {
      register_name: country === 'DE' ? 'Umsatzsteuer-Register' : country === 'FR' ? 'Fichier TVA' : 'VAT register',
      register_number: vat,
      authority: taxAuthority(country),
      entry_date: dateOf(dayBetween(random, ctx.regDay, Math.min(ctx.endDay, ctx.regDay + 365))),
      type: 3,
      status: active,
    });
  }
  if (random.chance(0.15 * Math.min(2, ctx.factor))) {
    const trade = country === 'DE' || country === 'AT';
    add(ctx, 'registers', {
      register_name: trade ? 'Gewerberegister' : 'Business Licence Register',
      register_number: `${trade ? 'GEW' : 'BL'}-${yearOf(ctx.regDay)}-${digits(random, 6)}`,
      authority: trade ? `Gewerbeamt ${city(ctx)}` : `${city(ctx)} Licensing Office`,
      entry_date: dateOf(lifeDay(ctx)),
      type: 2,
      status: active,
    });
  }
  const trading = company.industryGroup === 'wholesale' || company.industryGroup === 'logistics';
  if (random.chance(trading ? 0.4 : 0.05)) {
    add(ctx, 'registers', {
      register_name: country === 'US' ? 'CBP Importer Register' : 'EORI register',
      register_number:
        country === 'US' ? `${digits(random, 2)}-${digits(random, 7)}00` : `${country}${digits(random, 12)}`,
      authority: country === 'US' ? 'U.S. Customs and Border Protection' : `${country} Customs`,
      entry_date: dateOf(lifeDay(ctx)),
      type: 5,
      status: active,
    });
  }
  if (company.kind_id === 5 && random.chance(0.6)) {
    add(ctx, 'registers', {
      register_name: country === 'GB' ? 'Register of Charities' : 'Charity Register',
      register_number: digits(random, 7),
      authority: country === 'GB' ? 'Charity Commission' : 'Charities Regulator',
      entry_date: dateOf(lifeDay(ctx)),
      type: 4,
      status: active,
    });
  }
}

// Transactions, permits, inspections, violations, liabilities, taxes -------------------------------

const PRODUCTS_SERVICES: Record<string, string[]> = {
  building: ['Construction works', 'Renovation of public buildings', 'Roofing works'],
  civil: ['Road resurfacing', 'Bridge maintenance', 'Sewer rehabilitation'],
  trades: ['Electrical installation', 'Plumbing services', 'HVAC maintenance'],
  software: ['Software licences', 'IT services', 'Cloud hosting', 'Software development'],
  consulting: ['Management consulting', 'Advisory services', 'Feasibility study'],
  wholesale: ['Office supplies', 'Industrial supplies', 'Food products', 'Medical supplies'],
  manufacturing: ['Machinery', 'Spare parts', 'Metal components'],
  trucking: ['Freight transport', 'Waste haulage', 'Removals'],
  logistics: ['Warehousing', 'Courier services', 'Freight forwarding'],
  facilities: ['Cleaning services', 'Security services', 'Grounds maintenance'],
  staffing: ['Temporary staff', 'Recruitment services'],
  restaurants: ['Catering services', 'Event catering'],
  education: ['Training courses', 'Language courses'],
  marketing: ['Advertising campaign', 'Public relations'],
  default: ['Goods and services', 'Maintenance services', 'Consulting services'],
};

const PUBLIC_BUYERS: Record<string, (city: string) => string> = {
  de: (c) => `Stadt ${c}`,
  fr: (c) => `Ville de ${c}`,
  es: (c) => `Ayuntamiento de ${c}`,
  it: (c) => `Comune di ${c}`,
  nl: (c) => `Gemeente ${c}`,
  pl: (c) => `Urząd Miasta ${c}`,
  pt: (c) => `Câmara Municipal de ${c}`,
};
const GRANT_BODIES: Record<string, string[]> = {
  US: ['U.S. Small Business Administration', 'National Science Foundation', 'Department of Energy'],
  GB: ['Innovate UK', 'British Business Bank'],
  DE: ['KfW', 'Bundesministerium für Wirtschaft und Klimaschutz'],
  FR: ['Bpifrance', 'ADEME'],
  default: ['European Regional Development Fund', 'Horizon Europe', 'National Innovation Agency'],
};

function transaction(ctx: Context): void {
  const { random, company } = ctx;
  const type = random.pick([1, 1, 1, 2, 3, 3, 3, 4, 5]);
  const ps = random.pick(PRODUCTS_SERVICES[company.industryGroup] ?? PRODUCTS_SERVICES.default);
  const buyer = (PUBLIC_BUYERS[ctx.j.language] ?? ((c: string) => `City of ${c}`))(city(ctx));
  const customer =
    type === 3
      ? buyer
      : type === 4
        ? random.pick(GRANT_BODIES[ctx.country] ?? GRANT_BODIES.default)
        : type === 2
          ? company.name
          : `${brandWord(random)} ${random.pick(['Group', 'Holdings', 'Industries', 'Services', 'Trading'])}`;
  const description =
    type === 3
      ? `Contract for ${ps.toLowerCase()}`
      : type === 4
        ? `Grant towards ${random.pick(['research and development', 'digitalisation', 'energy efficiency', 'export development'])}`
        : type === 5
          ? `Lease of ${random.pick(['office space', 'vehicles', 'equipment', 'warehouse space'])}`
          : null;
  add(ctx, 'transactions', {
    transaction_date: dateOf(recentDay(ctx)),
    total_amount: money(ctx, ctx.revenue * 0.1 * logBetween(random, 0.01, 2)),
    currency: ctx.j.currencyId,
    type,
    products_services: ps,
    description,
    customer,
  });
}

const PERMIT_PURPOSES: Record<number, string[]> = {
  1: ['Extension of warehouse', 'New office building', 'Change of use', 'Demolition of outbuilding', 'Signage'],
  2: ['Emission permit for boiler plant', 'Water abstraction', 'Waste storage', 'Discharge of treated waste water'],
  3: ['Operating licence', 'Extended opening hours', 'Night work'],
  4: ['Food premises registration', 'Cosmetic treatments'],
  5: ['Goods vehicle operator licence', 'Abnormal load transport', 'Passenger transport'],
  6: ['Premises licence for the sale of alcohol', 'Temporary event notice'],
};
const PERMIT_AUTHORITIES: Record<number, (city: string) => string> = {
  1: (c) => `${c} Building Control`,
  2: (c) => `${c} Environmental Agency`,
  3: (c) => `${c} Licensing Authority`,
  4: (c) => `${c} Public Health Department`,
  5: () => 'Transport Licensing Office',
  6: (c) => `${c} Licensing Authority`,
};
const PERMIT_AUTHORITIES_DE: Record<number, (city: string) => string> = {
  1: (c) => `Bauaufsichtsamt ${c}`,
  2: () => 'Landesamt für Umwelt',
  3: (c) => `Ordnungsamt ${c}`,
  4: (c) => `Gesundheitsamt ${c}`,
  5: () => 'Bundesamt für Logistik und Mobilität',
  6: (c) => `Ordnungsamt ${c}`,
};

function permit(ctx: Context): void {
  const { random } = ctx;
  const type =
    ctx.company.industryGroup === 'restaurants' || ctx.company.industryGroup === 'hotels'
      ? random.pick([3, 4, 6, 6, 1])
      : ctx.company.industryGroup === 'trucking'
        ? random.pick([5, 5, 2, 1])
        : random.pick([1, 1, 1, 2, 2, 3, 4, 5]);
  const applied = recentDay(ctx);
  const expires = random.chance(0.7) ? applied + 365 * (1 + random.int(10)) : null;
  const status =
    applied > LAST_DAY - 90 && random.chance(0.7)
      ? 1
      : random.chance(0.05)
        ? 3
        : random.chance(0.02)
          ? 5
          : expires !== null && expires < LAST_DAY
            ? 4
            : 2;
  const authority = (ctx.j.language === 'de' ? PERMIT_AUTHORITIES_DE : PERMIT_AUTHORITIES)[type](city(ctx));
  const purpose = random.pick(PERMIT_PURPOSES[type]);
  add(ctx, 'permits', {
    application_date: dateOf(applied),
    expiration_date: expires === null ? null : dateOf(expires),
    authority,
    purpose,
    description: random.chance(0.5) ? `${purpose} at ${random.pick(ctx.company.addresses).address_line_1}` : null,
    type,
    status,
  });
}

const INSPECTION_CATEGORIES: Record<string, number[]> = {
  restaurants: [4, 4, 4, 5, 2],
  food: [4, 4, 1, 3],
  grocery: [4, 4, 5],
  hotels: [5, 4, 2],
  mining: [1, 1, 3],
  waste: [3, 3, 1],
  utilities: [3, 1],
  manufacturing: [1, 1, 3, 5],
  building: [1, 1, 5],
};

function inspection(ctx: Context): void {
  const { random } = ctx;
  const day = recentDay(ctx);
  add(ctx, 'inspections', {
    inspection_date: dateOf(day),
    category: random.pick(INSPECTION_CATEGORIES[ctx.company.industryGroup] ?? [1, 2, 3, 5]),
    type: random.pick([1, 1, 1, 2, 3, 4]),
    status: day > LAST_DAY - 60 ? 3 : random.chance(0.15) ? 2 : random.chance(0.2) ? 4 : 1,
    inspector: personName(ctx),
  });
}

/** Laws by violation type (1 safety … 5 licensing) for some countries; others get a generic act. */
const LAWS: Record<string, Record<number, string[]>> = {
  US: {
    1: ['OSHA 29 CFR 1910.212', 'OSHA 29 CFR 1926.501', 'OSHA 29 CFR 1910.147'],
    2: ['Clean Water Act § 301', 'Clean Air Act § 112', 'RCRA § 3005'],
    3: ['Fair Labor Standards Act § 7', 'Fair Labor Standards Act § 6'],
    4: ['FTC Act § 5', 'Consumer Product Safety Act § 19'],
    5: ['State licensing code'],
  },
  GB: {
    1: ['Health and Safety at Work etc. Act 1974, s. 2', 'Work at Height Regulations 2005, reg. 4'],
    2: ['Environmental Protection Act 1990, s. 34', 'Environmental Permitting Regulations 2016, reg. 12'],
    3: ['National Minimum Wage Act 1998', 'Working Time Regulations 1998'],
    4: ['Consumer Protection from Unfair Trading Regulations 2008', 'Food Safety Act 1990, s. 14'],
    5: ['Licensing Act 2003, s. 136'],
  },
  DE: {
    1: ['Arbeitsschutzgesetz § 5', 'Betriebssicherheitsverordnung § 4'],
    2: ['Bundes-Immissionsschutzgesetz § 62', 'Kreislaufwirtschaftsgesetz § 69'],
    3: ['Mindestlohngesetz § 21', 'Arbeitszeitgesetz § 22'],
    4: ['Lebensmittel- und Futtermittelgesetzbuch § 60', 'Preisangabenverordnung § 20'],
    5: ['Gewerbeordnung § 144'],
  },
  FR: {
    1: ['Code du travail, art. L4121-1', 'Code du travail, art. R4323-58'],
    2: ["Code de l'environnement, art. L173-1"],
    3: ['Code du travail, art. L3121-18', 'Code du travail, art. L8221-1'],
    4: ['Code de la consommation, art. L121-1'],
    5: ['Code de la santé publique, art. L3332-1'],
  },
};
const GENERIC_LAWS: Record<number, string> = {
  1: 'Occupational Safety Act',
  2: 'Environmental Protection Act',
  3: 'Employment Act',
  4: 'Consumer Protection Act',
  5: 'Business Licensing Act',
};

function violation(ctx: Context): void {
  const { random } = ctx;
  const type = random.pick([1, 1, 1, 2, 3, 3, 4, 5]);
  const level = random.pick([1, 1, 1, 1, 2, 2, 3, 4]);
  const laws = LAWS[ctx.country]?.[type];
  add(ctx, 'violations', {
    violation_date: dateOf(recentDay(ctx)),
    fine: random.chance(0.9) ? money(ctx, round(logBetween(random, 200, 20_000) * level, 50)) : null,
    currency: ctx.j.currencyId,
    law: laws ? random.pick(laws) : GENERIC_LAWS[type],
    violation_level: level,
    violation_type: type,
    inspector: personName(ctx),
  });
}

function creditorBank(ctx: Context): string {
  const banks = BANKS[ctx.country];
  return banks ? ctx.random.pick(banks)[0] : `Bank of ${city(ctx)}`;
}

function liability(ctx: Context): void {
  const { random, company } = ctx;
  const type = random.pick([1, 1, 1, 2, 3, 4, 4, 5]);
  const filed = recentDay(ctx);
  const due = type === 3 ? null : filed + 365 * (1 + random.int(type === 4 ? 25 : 10));
  const bankrupt = company.status_id === STATUS.bankrupt || company.status_id === STATUS.liquidation;
  const status = bankrupt && random.chance(0.5) ? 4 : due !== null && due > LAST_DAY ? 1 : random.pick([2, 2, 3]);
  const creditor =
    type === 2
      ? random.chance(0.5)
        ? taxAuthority(ctx.country)
        : `${brandWord(random)} Supplies`
      : type === 3
        ? `${brandWord(random)} ${random.pick(['Holdings', 'Services', 'Partners'])}`
        : type === 5
          ? `${creditorBank(ctx)} (trustee)`
          : creditorBank(ctx);
  add(ctx, 'liabilities', {
    type,
    creditor,
    amount: money(ctx, ctx.revenue * logBetween(random, 0.02, type === 4 ? 2 : 0.6)),
    currency: ctx.j.currencyId,
    filed_on: dateOf(filed),
    due_on: due === null ? null : dateOf(due),
    status,
  });
}

function tax(ctx: Context): void {
  const { random } = ctx;
  const type = random.pick([2, 2, 2, 2, 1, 1, 3, 3, 4, 5]);
  // VAT and payroll by quarter, the others by year; assessed some weeks after the period.
  const quarterly = type === 2 || type === 3;
  const assessed = recentDay(ctx);
  const periodEnd = assessed - 20 - random.int(100);
  const endDate = new Date(periodEnd * 86_400_000);
  const year = endDate.getUTCFullYear();
  const quarter = Math.floor(endDate.getUTCMonth() / 3);
  let start = quarterly ? dayOfDate(year, quarter * 3 + 1, 1) : dayOfDate(year - 1, 1, 1);
  let end = quarterly ? dayOfDate(year, quarter * 3 + 4, 1) - 1 : dayOfDate(year - 1, 12, 31);
  // a young company's first period starts at its registration and ends before the assessment
  if (start < ctx.regDay) start = ctx.regDay;
  if (end < start) end = Math.max(start, Math.min(assessed - 1, start + 90));
  const share = { 1: 0.02, 2: 0.04, 3: 0.05, 4: 0.003, 5: 0.01 }[type] ?? 0.01;
  const amount = money(ctx, ctx.revenue * share * (quarterly ? 0.25 : 1) * (0.5 + random.next()));
  const status = assessed > LAST_DAY - 45 ? 2 : random.chance(0.8) ? 1 : random.pick([2, 3, 3, 4]);
  add(ctx, 'taxes', {
    tax_type: type,
    period_start: dateOf(start),
    period_end: dateOf(end),
    assessed_on: dateOf(assessed),
    amount,
    paid_amount: status === 1 ? amount : status === 2 ? 0 : round(amount * random.next(), 1),
    currency: ctx.j.currencyId,
    status,
  });
}

// Property, facilities, accounts -------------------------------------------------------------------

/** An address of the company's jurisdiction (new, not one of its own addresses). */
const anAddress = (ctx: Context): SeedAddress => makeAddress(ctx.random, ctx.j, ctx.j.names, ADDRESS_TYPE.physical, 0);
const stateCode = (ctx: Context, a: SeedAddress): string | null =>
  a.state_id === null ? null : (ctx.catalog.subdivisionCodes.get(a.state_id)?.split('-')[1] ?? null);

function parcelNumber(ctx: Context): string {
  const { random, country } = ctx;
  switch (country) {
    case 'US':
      return `${digits(random, 3)}-${digits(random, 3)}-${digits(random, 2)}`;
    case 'GB':
      return `${letters(random, 2 + random.int(2))}${digits(random, 6)}`;
    case 'DE':
    case 'AT':
      return `${1 + random.int(40)}/${1 + random.int(900)}`;
    case 'FR':
      return `${letters(random, 2)} ${digits(random, 4)}`;
    case 'NL':
      return `${letters(random, 3)}${digits(random, 2)} ${letters(random, 1)} ${digits(random, 4)}`;
    default:
      return `${digits(random, 4)}-${digits(random, 4)}`;
  }
}

/** [category, type, use] ids that go together. */
const PROPERTY_KINDS: [number, number, number][] = [
  [2, 1, 1],
  [2, 1, 1],
  [2, 3, 2],
  [2, 3, 1],
  [3, 4, 4],
  [3, 1, 3],
  [1, 1, 5],
  [1, 3, 5],
  [4, 2, 6],
  [5, 2, 6],
  [6, 1, 2],
];

function realEstate(ctx: Context): void {
  const { random } = ctx;
  const a = anAddress(ctx);
  const [category, type, use] = random.pick(PROPERTY_KINDS);
  const sold = recentDay(ctx);
  const land = category === 4 || category === 5;
  const price = money(ctx, land ? logBetween(random, 30_000, 3_000_000) : logBetween(random, 150_000, 25_000_000));
  add(ctx, 'real_estate', {
    jurisdiction: a.state_id ?? a.country_id,
    identification_number: parcelNumber(ctx),
    category,
    type,
    property_use: use,
    post_code: a.post_code,
    state_code: stateCode(ctx, a),
    county_name: a.county,
    locality_name: a.locality,
    street_name: land ? null : a.street,
    house_number: land ? null : a.house,
    construction_year: land ? null : Math.min(yearOf(sold), 2025 - Math.floor(120 * random.next() ** 2)),
    sale_date: dateOf(sold),
    sale_amount: price,
    assessed_value: round(price * (0.55 + 0.5 * random.next()), 100),
    currency: ctx.j.currencyId,
  });
}

const FACILITY_TYPES: Record<string, number[]> = {
  manufacturing: [1, 1, 2, 3, 5],
  food: [1, 1, 2],
  logistics: [2, 2, 6, 3],
  trucking: [6, 6, 2],
  retail: [4, 4, 4, 2],
  grocery: [4, 4, 2],
  research: [5, 5, 3],
  utilities: [1, 6],
  mining: [1, 6],
};

function facility(ctx: Context): void {
  const { random, country } = ctx;
  const a = anAddress(ctx);
  add(ctx, 'facilities', {
    type: random.pick(FACILITY_TYPES[ctx.company.industryGroup] ?? [3, 3, 2, 4]),
    facility_number: country === 'US' ? `1100${digits(random, 8)}` : `${country}${digits(random, 8)}`,
    locality_name: a.locality,
    county_name: a.county,
    state_code: stateCode(ctx, a),
    post_code: a.post_code,
    opened_on: dateOf(recentDay(ctx)),
  });
}

/** IBANs whose account part starts with the bank's four letters (as the countries' real ones do). */
const LETTER_IBANS: Record<string, number> = { GB: 14, IE: 14, NL: 10 };

function bankAccount(ctx: Context): void {
  const { random } = ctx;
  // Most accounts are at home; some companies bank abroad (an IBAN country when theirs has none).
  const abroad = random.chance(0.08);
  const country = abroad ? random.pick(['GB', 'DE', 'CH', 'LU', 'NL', 'FR', 'US', 'SG']) : ctx.country;
  const banks = BANKS[country] ?? BANKS.GB;
  const [bankName, bic] = random.pick(banks);
  const bankCountry = BANKS[country] ? country : 'GB';
  const letterDigits = LETTER_IBANS[bankCountry];
  let iban: string | null = null;
  if (letterDigits !== undefined) {
    const bban = `${bic.slice(0, 4)}${digits(random, letterDigits)}`;
    const check = 98 - mod97(`${bban}${bankCountry}00`);
    iban = `${bankCountry}${String(check).padStart(2, '0')}${bban}`;
  } else if (!NO_IBAN.has(bankCountry)) iban = generateIban(bankCountry, random.next);
  const currencyCode = abroad ? ({ GB: 'GBP', CH: 'CHF', US: 'USD', SG: 'SGD' }[country] ?? 'EUR') : null;
  add(ctx, 'bank_accounts', {
    bank_name: bankName,
    iban,
    bic,
    currency: currencyCode ? (ctx.catalog.currencyIds.get(currencyCode) ?? ctx.j.currencyId) : ctx.j.currencyId,
    account_type: random.pick([1, 1, 1, 1, 2, 2, 3, 4]),
    opened_on: dateOf(lifeDay(ctx)),
    country: ctx.catalog.countryIds.get(bankCountry) ?? null,
  });
}
/** Countries of BANKS without IBANs. */
const NO_IBAN = new Set(['US', 'CA', 'AU', 'NZ', 'SG', 'HK', 'JP', 'IN', 'MX']);

// Aircraft, vehicles, vessels ----------------------------------------------------------------------

function registrationMark(random: Random, country: string): string {
  const prefix = AIRCRAFT_PREFIXES[country] ?? `${country}-`;
  if (country === 'US') {
    const number = String(1 + random.int(9)) + digits(random, random.int(4));
    return `N${number}${number.length < 4 ? letters(random, 1 + random.int(2), 'ABCDEFGHJKLMNPQRSTUVWXYZ') : ''}`;
  }
  if (country === 'JP') return `JA${digits(random, 4)}`;
  if (country === 'CA') return `C-${random.pick(['F', 'G'])}${letters(random, 3)}`;
  const length = prefix.length === 2 ? 4 : 3;
  return `${prefix}${letters(random, length)}`;
}

function aircraftRecord(ctx: Context): void {
  const { random } = ctx;
  const airline = ctx.company.industryGroup === 'shipping';
  const lastYear = yearOf(ctx.endDay);
  const fits = (m: AircraftModel): boolean =>
    m.since <= lastYear && (airline ? m.fleet !== 'general' : m.fleet !== 'airline');
  const models = AIRCRAFT_MODELS.filter(fits);
  const model = random.pick(models.length > 0 ? models : AIRCRAFT_MODELS);
  const registered = lifeDay(ctx, dayOfDate(model.since, 6, 1));
  const built = Math.max(model.since, yearOf(registered) - (random.chance(0.6) ? 0 : random.int(15)));
  add(ctx, 'aircraft', {
    registration_mark: registrationMark(random, ctx.country),
    manufacturer: model.manufacturer,
    model: model.model,
    serial_number: fillPattern(model.serial, random),
    engine_type: model.engine,
    year_built: Math.min(built, yearOf(registered)),
    seats: model.seats[0] + random.int(model.seats[1] - model.seats[0] + 1),
    registration_date: dateOf(registered),
    registry: ctx.j.countryId,
  });
}

function plateNumber(random: Random, country: string, city: string): string {
  const upper = city
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
  switch (country) {
    case 'DE':
      return `${upper.slice(0, 1 + random.int(2))}-${letters(random, 1 + random.int(2))} ${1 + random.int(9999)}`;
    case 'AT':
      return `${upper.slice(0, 1 + random.int(2))}-${1 + random.int(99999)}${letters(random, 1)}`;
    case 'CH':
      return `${random.pick(['ZH', 'BE', 'VD', 'GE', 'AG', 'SG', 'LU', 'TI'])} ${1 + random.int(999999)}`;
    case 'GB':
      return `${letters(random, 2)}${digits(random, 2)} ${letters(random, 3)}`;
    case 'FR':
      return `${letters(random, 2)}-${digits(random, 3)}-${letters(random, 2)}`;
    case 'IT':
      return `${letters(random, 2)}${digits(random, 3)}${letters(random, 2)}`;
    case 'ES':
      return `${digits(random, 4)} ${letters(random, 3, 'BCDFGHJKLMNPRSTVWXYZ')}`;
    case 'NL':
      return `${letters(random, 1)}-${digits(random, 3)}-${letters(random, 2)}`;
    case 'BE':
      return `1-${letters(random, 3)}-${digits(random, 3)}`;
    case 'PL':
      return `${letters(random, 2)} ${digits(random, 5)}`;
    case 'SE':
      return `${letters(random, 3)} ${digits(random, 2)}${letters(random, 1)}`;
    case 'NO':
      return `${letters(random, 2)} ${digits(random, 5)}`;
    case 'DK':
      return `${letters(random, 2)} ${digits(random, 2)} ${digits(random, 3)}`;
    case 'FI':
      return `${letters(random, 3)}-${1 + random.int(999)}`;
    case 'IE':
      return `${String(13 + random.int(13)).padStart(2, '0')}${random.pick(['1', '2'])}-${random.pick(['D', 'C', 'G', 'L', 'KE'])}-${1 + random.int(99999)}`;
    case 'PT':
      return `${letters(random, 2)}-${digits(random, 2)}-${letters(random, 2)}`;
    case 'US':
      return `${1 + random.int(9)}${letters(random, 3)}${digits(random, 3)}`;
    default:
      return `${letters(random, 3)} ${digits(random, 3 + random.int(2))}`;
  }
}

function vehicleRecord(ctx: Context): void {
  const { random } = ctx;
  const trucks = ['trucking', 'logistics', 'waste'].includes(ctx.company.industryGroup);
  const models = trucks ? VEHICLE_MODELS.filter((m) => m.type >= 2 || random.chance(0.3)) : VEHICLE_MODELS;
  let model = random.pick(models);
  if (model.type === 4 && !trucks && random.chance(0.8)) model = random.pick(models);
  const registered = Math.max(recentDay(ctx), Math.min(ctx.endDay, dayOfDate(1990, 1, 1)));
  const used = random.chance(0.3);
  const modelYear = Math.max(1981, yearOf(registered) + (used ? -1 - random.int(8) : random.int(2)));
  add(ctx, 'vehicles', {
    vin: makeVin(random, model.wmi, modelYear),
    make: model.make,
    model: model.model,
    model_year: modelYear,
    vehicle_type: model.type,
    fuel_type: model.fuels.length === 0 ? null : random.pick(model.fuels),
    plate_number: plateNumber(random, ctx.country, city(ctx)),
    registration_date: dateOf(registered),
    registry: ctx.company.jurisdiction_id,
  });
}

function vesselName(ctx: Context, type: number): string {
  const { random } = ctx;
  if (type === 7)
    return `${random.pick(ctx.j.names.lastNames.length > 0 ? ctx.j.names.lastNames : VESSEL_WORDS)} ${1 + random.int(12)}`;
  if (type === 6)
    return `${random.pick(ctx.j.names.firstNames)}${random.chance(0.3) ? ` ${random.pick(['II', 'III', 'IV'])}` : ''}`;
  const roll = random.next();
  if (roll < 0.4) return `${brandWord(random)} ${random.pick(VESSEL_WORDS)}`;
  if (roll < 0.7) return `${city(ctx)} ${random.pick(VESSEL_WORDS)}`;
  return `${ctx.company.name.split(' ')[0]} ${random.pick(VESSEL_WORDS)}`;
}

const pickVesselType = weightedPicker(VESSEL_TYPES.map((value) => ({ value, weight: value.weight })));

function vessel(ctx: Context): void {
  const { random } = ctx;
  const kind = pickVesselType(random);
  const ocean = kind.type <= 5;
  const home = NATIONAL_FLAGS[ctx.country];
  const flag: Flag =
    ocean && random.chance(0.6) ? random.pick(FLAGS_OF_CONVENIENCE) : (home ?? FLAGS_OF_CONVENIENCE[0]);
  const registered = recentDay(ctx);
  const built = Math.max(1960, yearOf(registered) - (random.chance(0.4) ? 0 : random.int(25)));
  const first = built < 1970 ? 6 : built < 1980 ? 7 : built < 1990 ? 8 : 9;
  const six = `${first}${digits(random, 5)}`;
  const gt = Math.round(logBetween(random, kind.gt[0], kind.gt[1]));
  add(ctx, 'vessels', {
    imo_number: `${six}${imoCheckDigit(six)}`,
    vessel_name: vesselName(ctx, kind.type),
    vessel_type: kind.type,
    flag: ctx.catalog.countryIds.get(flag.country) ?? ctx.j.countryId,
    mmsi: `${random.pick(flag.mids)}${digits(random, 6)}`,
    call_sign: `${flag.callSign}${letters(random, 5 - flag.callSign.length)}${random.chance(0.5) ? digits(random, 1) : ''}`,
    gross_tonnage: gt,
    deadweight: Math.round(gt * kind.dwtPerGt * (0.85 + 0.3 * random.next())),
    year_built: built,
    registration_date: dateOf(registered),
  });
}

// Intellectual property ----------------------------------------------------------------------------

const EU = new Set(['DE', 'AT', 'FR', 'BE', 'NL', 'LU', 'ES', 'IT', 'PT', 'PL', 'SE', 'DK', 'FI', 'IE']);

/**
 * Where a right is filed: a national office (its country's location), a regional one (EPO, EUIPO,
 * CPVO: no location) or, with `international`, WIPO (no location).
 */
function pickOffice(ctx: Context, regional: string, international = true): { code: string; location: number | null } {
  const { random, country, catalog } = ctx;
  const roll = random.next();
  const home = { code: country, location: catalog.countryIds.get(country) ?? null };
  const us = { code: 'US', location: catalog.countryIds.get('US') ?? null };
  if (EU.has(country)) {
    if (roll < 0.4) return { code: regional, location: null };
    if (roll < 0.75) return home;
    if (roll < 0.9 || !international) return us;
    return { code: 'WO', location: null };
  }
  if (roll < (country === 'US' ? 0.8 : 0.55)) return home;
  if (roll < 0.85 || !international) return country === 'US' ? { code: regional, location: null } : us;
  return { code: 'WO', location: null };
}

/** Filing, grant and status of a registered right that lasts `term` years. */
function rightDates(
  ctx: Context,
  grantAfter: [number, number],
  term: number,
): { filed: number; granted: number | null; expires: number | null; status: number } {
  const { random } = ctx;
  const filed = recentDay(ctx);
  const grantDay = filed + Math.round(365 * (grantAfter[0] + (grantAfter[1] - grantAfter[0]) * random.next()));
  if (grantDay > LAST_DAY || random.chance(0.12)) return { filed, granted: null, expires: null, status: 1 };
  const expires = filed + Math.round(365.25 * term);
  if (expires <= LAST_DAY) return { filed, granted: grantDay, expires, status: 3 };
  return { filed, granted: grantDay, expires, status: random.chance(0.12) ? 4 : 2 };
}

function patentNumber(random: Random, office: string, filed: number, granted: number | null): string {
  // granted numbers follow the grant year, applications are published 18 months after filing
  const year = yearOf(granted ?? Math.min(filed + 548, LAST_DAY));
  switch (office) {
    case 'US':
      return granted === null
        ? `US ${year}/0${digits(random, 6)} A1`
        : `US ${groupDigits(Math.max(4_000_000, Math.round(10_000_000 + (year - 2018) * 330_000 + random.int(300_000))))} B2`;
    case 'EP':
      return `EP ${Math.max(1_000_000, Math.round(3_000_000 + (year - 2016) * 166_000 + random.int(160_000)))} ${granted === null ? 'A1' : 'B1'}`;
    case 'DE':
      return `DE 10 ${yearOf(filed)} ${digits(random, 3)} ${digits(random, 3)} ${granted === null ? 'A1' : 'B4'}`;
    case 'WO':
      return `WO ${year}/${digits(random, 6)} A1`;
    case 'GB':
      return `GB ${2_400_000 + (year - 2005) * 12_000 + random.int(12_000)} ${granted === null ? 'A' : 'B'}`;
    case 'FR':
      return `FR ${2_900_000 + (year - 2008) * 15_000 + random.int(15_000)} ${granted === null ? 'A1' : 'B1'}`;
    case 'JP':
      return granted === null ? `JP ${year}-${digits(random, 6)} A` : `JP ${5_000_000 + (year - 2012) * 200_000} B2`;
    default:
      return `${office} ${digits(random, 7)} ${granted === null ? 'A1' : 'B1'}`;
  }
}

function patent(ctx: Context): void {
  const { random } = ctx;
  const office = pickOffice(ctx, 'EP');
  const { filed, granted, status } = rightDates(ctx, [1.5, 4.5], 20);
  const [subclass, topics] = random.pick(IPC_SUBCLASSES[ctx.company.industryGroup] ?? IPC_SUBCLASSES.default);
  const topic = random.pick(topics);
  const title = /^(a|an) /.test(topic)
    ? `${topic.charAt(0).toUpperCase()}${topic.slice(1)} and method for producing it`
    : `${random.pick(['Method and system for', 'Device for', 'Apparatus and method for', 'System for'])} ${topic}`;
  add(ctx, 'patents', {
    patent_number: patentNumber(random, office.code, filed, granted),
    title,
    ipc_class: `${subclass} ${1 + random.int(60)}/${random.chance(0.3) ? '00' : String(2 + random.int(98)).padStart(2, '0')}`,
    filing_date: dateOf(filed),
    grant_date: granted === null ? null : dateOf(granted),
    office: office.location,
    status,
  });
}

function trademarkNumber(random: Random, office: string, filed: number): string {
  const year = yearOf(filed);
  switch (office) {
    case 'EU':
      return String(Math.max(1, 2_000_000 + (year - 2000) * 800_000 + random.int(700_000))).padStart(9, '0');
    case 'US':
      return `${Math.min(99, Math.max(73, 86 + (year - 2014)))}${digits(random, 6)}`;
    case 'DE':
      return `30${year}${digits(random, 6)}`;
    case 'GB':
      return `UK0000${3_000_000 + (year - 2014) * 80_000 + random.int(80_000)}`;
    case 'FR':
      return String(4_000_000 + (year - 2013) * 90_000 + random.int(90_000));
    case 'WO':
      return String(1_100_000 + (year - 2011) * 55_000 + random.int(55_000));
    default:
      return `${office}${year}${digits(random, 5)}`;
  }
}

function trademark(ctx: Context): void {
  const { random } = ctx;
  const office = pickOffice(ctx, 'EU');
  const { filed, granted, expires, status } = rightDates(ctx, [0.3, 1.2], 10);
  const classes = NICE_CLASSES[ctx.company.industryGroup] ?? NICE_CLASSES.default;
  const chosen = [...new Set([random.pick(classes), random.pick(classes), random.pick(classes)])]
    .slice(0, 1 + random.int(3))
    .sort((a, b) => a - b);
  const word = brandWord(random);
  // registered marks are renewed for another ten years more often than not
  const renewed = status === 3 && random.chance(0.6) && expires !== null && expires + 3653 > LAST_DAY;
  add(ctx, 'trademarks', {
    mark: random.chance(0.3)
      ? word.toUpperCase()
      : random.chance(0.2)
        ? `${word} ${random.pick(['Pro', 'One', 'Plus', 'Care'])}`
        : word,
    application_number: trademarkNumber(random, office.code, filed),
    nice_classes: chosen.join(', '),
    mark_type: random.pick([1, 1, 1, 2, 3, 3, 4]),
    filing_date: dateOf(filed),
    registration_date: granted === null ? null : dateOf(granted),
    expiration_date: expires === null ? null : dateOf(renewed ? expires + 3653 : expires),
    office: office.location,
    status: renewed ? 2 : status,
  });
}

function industrialDesign(ctx: Context): void {
  const { random } = ctx;
  const office = pickOffice(ctx, 'EU');
  const { filed, granted, status } = rightDates(ctx, [0.05, 0.5], 25);
  const [locarno, titles] = random.pick(LOCARNO_CLASSES);
  const year = yearOf(filed);
  const number =
    office.code === 'EU'
      ? `${String(Math.max(1, (year - 2003) * 110_000 + random.int(110_000))).padStart(9, '0')}-${String(1 + random.int(12)).padStart(4, '0')}`
      : office.code === 'US'
        ? `US D${groupDigits(Math.max(500_000, 700_000 + (year - 2013) * 30_000 + random.int(30_000)))} S`
        : office.code === 'WO'
          ? `DM/${200_000 + (year - 2018) * 8_000 + random.int(8_000)}`
          : `${office.code} ${year} ${digits(random, 6)}`;
  // designs are renewed every five years, up to 25
  const renewals = granted === null ? 0 : Math.min(5, 1 + Math.floor((LAST_DAY - filed) / 1826 + random.next()));
  const expires = granted === null ? null : filed + 1826 * renewals;
  add(ctx, 'industrial_designs', {
    design_number: number,
    title: random.pick(titles),
    locarno_class: locarno,
    filing_date: dateOf(filed),
    registration_date: granted === null ? null : dateOf(granted),
    expiration_date: expires === null ? null : dateOf(expires),
    office: office.location,
    status: granted === null ? 1 : expires !== null && expires <= LAST_DAY ? 3 : status === 4 ? 4 : 2,
  });
}

function plantVarietyRight(ctx: Context): void {
  const { random } = ctx;
  // no international variety right: national offices and the EU's CPVO
  const office = pickOffice(ctx, 'EU', false);
  const [species, names] = random.pick(PLANT_SPECIES);
  const woody = /Malus|Vitis/.test(species);
  const { filed, granted, expires, status } = rightDates(ctx, [1.5, 3], woody ? 30 : 25);
  const year = yearOf(filed);
  add(ctx, 'plant_variety_rights', {
    denomination: random.chance(0.5)
      ? random.pick(names)
      : `${brandWord(random)}${random.chance(0.3) ? ` ${random.pick(['Gold', 'Red', 'Star', 'Early'])}` : ''}`,
    species,
    application_number:
      office.code === 'EU'
        ? `${year}/${String(random.int(3000)).padStart(4, '0')}`
        : office.code === 'US'
          ? `${year}00${digits(random, 3)}`
          : `${office.code} ${year}/${digits(random, 4)}`,
    filing_date: dateOf(filed),
    grant_date: granted === null ? null : dateOf(granted),
    expiration_date: expires === null ? null : dateOf(expires),
    office: office.location,
    status,
  });
}

// Profile: documents, events, products -------------------------------------------------------------

function documents(ctx: Context): void {
  const { random, company } = ctx;
  const out = ctx.out.documents;
  // A document is filed once: a second draw of the same title (the same year's accounts or
  // confirmation statement, two draws clamped to the company's last day) is not filed again. The
  // draws still happen, so the rest of the company's records stay as they were.
  const filed = new Set<string>();
  const doc = (title: string, type: string, day: number): void => {
    if (filed.has(title)) return;
    filed.add(title);
    out.push({
      legal_entity_id: company.id,
      id: recordId(company.id, out.length),
      title,
      document_type: type,
      filed_on: dateOf(day),
    });
  };
  if (random.chance(0.5)) doc('Certificate of incorporation', 'incorporation', ctx.regDay);
  if (random.chance(0.3)) doc('Articles of association', 'articles', ctx.regDay);
  for (let i = 0, n = random.chance(0.5) ? random.int(4) : 0; i < n; i++) {
    const day = lifeDay(ctx, ctx.regDay + 365);
    if (random.chance(0.6)) doc(`Annual accounts ${yearOf(day) - 1}`, 'annual_accounts', day);
    else doc(`Confirmation statement ${yearOf(day)}`, 'annual_return', day);
  }
  if (random.chance(0.15)) doc('Change of registered office address', 'address_change', lifeDay(ctx));
  if (random.chance(0.1)) doc('Appointment of director', 'officer_change', lifeDay(ctx));
  if (company.endDay < LAST_DAY && random.chance(0.6)) doc('Notice of dissolution', 'dissolution', company.endDay);
}

function events(ctx: Context): void {
  const { random, company } = ctx;
  const out = ctx.out.events;
  const event = (type: string, day: number, description: string | null): void => {
    out.push({
      legal_entity_id: company.id,
      id: recordId(company.id, out.length),
      event_date: dateOf(day),
      event_type: type,
      description,
    });
  };
  if (random.chance(0.55)) event('incorporated', ctx.regDay, `Incorporated as ${company.name}`);
  if (random.chance(0.12)) event('address_change', lifeDay(ctx), `Registered office moved to ${city(ctx)}`);
  if (random.chance(0.1)) event('officer_appointed', lifeDay(ctx), `${personName(ctx)} appointed director`);
  if (random.chance(0.06)) event('officer_resigned', lifeDay(ctx), `${personName(ctx)} resigned as director`);
  if (random.chance(0.05 * ctx.factor)) event('capital_increase', lifeDay(ctx), 'Share capital increased');
  if (company.endDay < LAST_DAY && random.chance(0.7)) event('dissolved', company.endDay, null);
}

const PRODUCT_NOUNS: Record<string, [string, 'product' | 'service'][]> = {
  software: [
    ['Cloud', 'service'],
    ['Analytics', 'product'],
    ['Platform', 'service'],
    ['Suite', 'product'],
  ],
  manufacturing: [
    ['Series', 'product'],
    ['Pro', 'product'],
    ['Line', 'product'],
  ],
  food: [
    ['Organic', 'product'],
    ['Classic', 'product'],
    ['Original', 'product'],
  ],
  consulting: [
    ['Advisory', 'service'],
    ['Audit', 'service'],
    ['Transformation', 'service'],
  ],
  restaurants: [
    ['Catering', 'service'],
    ['Delivery', 'service'],
  ],
  logistics: [
    ['Express', 'service'],
    ['Freight', 'service'],
    ['Storage', 'service'],
  ],
  default: [
    ['Service', 'service'],
    ['Care', 'service'],
    ['Plus', 'product'],
    ['Select', 'product'],
  ],
};

function products(ctx: Context): void {
  const { random, company } = ctx;
  if (!random.chance(0.25)) return;
  const nouns = PRODUCT_NOUNS[company.industryGroup] ?? PRODUCT_NOUNS.default;
  for (let i = 0, n = 1 + random.int(3); i < n; i++) {
    const [noun, kind] = random.pick(nouns);
    const brand = brandWord(random);
    ctx.out.products.push({
      legal_entity_id: company.id,
      id: recordId(company.id, i),
      name: `${brand} ${noun}`,
      kind,
      description: random.chance(0.6) ? `${kind === 'service' ? 'Service' : 'Product'} line of ${company.name}` : null,
    });
  }
}

// A record of a day (demo advance) ------------------------------------------------------------------

/** The record kinds a demo day adds (db/seed/demo-records.ts). */
export const DAY_RECORD_TABLES = ['trademarks', 'violations', 'permits', 'inspections'] as const;
export type DayRecordTable = (typeof DAY_RECORD_TABLES)[number];

/** What a day's record is made from: an existing company as the database holds it. */
export type DayRecordCompany = CompanyColumns & {
  id: number;
  /** Its jurisdiction's location id (a country, or a state). */
  jurisdiction_id: number;
  industryGroup: string;
  /** Its first address line, for permit descriptions. */
  addressLine: string | null;
};

/**
 * One new record of `table` for an existing company, dated `day` ('YYYY-MM-DD'), with the values
 * the seed gives such a record (a new trademark is filed, a new permit pending, …), from a random
 * stream of (seed, company, day, table): the same day makes the same record. Its id is left to the
 * writer (the company's rows already use the seed's ids). Null when the catalog has not the
 * company's jurisdiction.
 */
export function makeDayRecord(
  catalog: SeedCatalog,
  seed: number,
  company: DayRecordCompany,
  table: DayRecordTable,
  day: string,
): SeedRecord | null {
  const j = catalog.jurisdictions.find((x) => x.locationId === company.jurisdiction_id);
  if (!j) return null;
  const at = dayOf(day);
  const random = seededRandom(mixSeed(seed, 5, company.id, at, DAY_RECORD_TABLES.indexOf(table)));
  const [low, high] = REVENUE_BY_SIZE[company.size_id ?? 1] ?? [20_000, 5_000_000];
  // Only what the four makers below read of a SeedCompany.
  const seedCompany = {
    ...company,
    industryGroup: company.industryGroup,
    addresses: [{ address_line_1: company.addressLine ?? j.cities[0]?.name ?? '' }],
  } as unknown as SeedCompany;
  const ctx: Context = {
    catalog,
    pool: undefined as unknown as PersonPool,
    seed,
    random,
    company: seedCompany,
    j,
    country: j.profile.code,
    regDay: at,
    endDay: at,
    scale: CURRENCY_SCALE[j.profile.currency] ?? 1,
    revenue: logBetween(random, low, high),
    factor: SIZE_FACTOR[company.size_id ?? 1] ?? 1,
    out: { records: [], documents: [], events: [], products: [], statementLines: [] },
    next: new Map(),
  };
  ({ trademarks: trademark, violations: violation, permits: permit, inspections: inspection })[table](ctx);
  const [record] = ctx.out.records;
  return record ?? null;
}
