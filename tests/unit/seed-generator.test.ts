import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeName } from '../../core/companies/normalize-name.ts';
import {
  type IdentifierKind,
  isValidIban,
  isValidIdentifier,
  isValidLei,
} from '../../core/identifiers/check-digits.ts';
import { fieldColumn } from '../../core/sections/record-fields.ts';
import { RECORD_SECTIONS } from '../../core/sections/records.ts';
import { mixSeed, seededRandom } from '../../core/seeded-random.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { buildReferenceData } from '../../db/reference/load-reference-data.ts';
import { makeCompany, makePerson, type SeedCompany, splitLegalForm } from '../../db/seed/company-factory.ts';
import { batchText, COPY_TABLE_NAMES, COPY_TABLES } from '../../db/seed/copy-rows.ts';
import { batchesInWorker } from '../../db/seed/generate-in-worker.ts';
import {
  companyMemberId,
  createPersonPool,
  isCorporateMember,
  type PersonPool,
  personPoolSize,
} from '../../db/seed/member-pool.ts';
import {
  FOREIGN_SLOTS,
  imoCheckDigit,
  isValidImo,
  isValidVin,
  makeRecords,
  RECORD_ID_SLOTS,
  type SeedRecords,
  STATEMENT_LINES,
  vinCheckDigit,
} from '../../db/seed/record-factory.ts';
import { buildSeedCatalog, type CatalogSource, type SeedCatalog } from '../../db/seed/seed-catalog.ts';
import { generateBatch } from '../../db/seed/seed-companies.ts';

let source: CatalogSource;
let catalog: SeedCatalog;
let pool: PersonPool;
let countryOfLocation: Map<number, string>;
let currencyIds: Set<number>;

beforeAll(() => {
  const reference = buildReferenceData();
  const names = new Map(
    reference.translations
      .filter((t) => t.entity === 'location' && t.language_id === LANGUAGE_EN)
      .map((t) => [t.entity_id, t.name]),
  );
  const leaf = Math.max(...reference.industries.map((i) => i.level));
  source = {
    locations: reference.locations.map((l) => ({ ...l, name: names.get(l.id) ?? null })),
    currencies: reference.currencies,
    industries: reference.industries.filter((i) => i.level === leaf),
  };
  catalog = buildSeedCatalog(source);
  pool = createPersonPool(catalog.personCountries);
  countryOfLocation = new Map(reference.locations.map((l) => [l.id, l.country_code]));
  currencyIds = new Set(reference.currencies.map((c) => c.id));
});

const IDENTIFIER_KINDS: Record<number, IdentifierKind> = {
  1: 'business_number',
  2: 'company_number',
  3: 'tax_number',
  4: 'vat',
};

/** Splits one CSV line into fields (quoted fields may contain commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (line[quote + 1] === '"') {
          value += `${line.slice(i, quote)}"`;
          i = quote + 2;
        } else {
          value += line.slice(i, quote);
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      i++; // the comma
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

describe('seeded random', () => {
  it('gives the same stream for the same seed and different streams for different ids', () => {
    const a = seededRandom(mixSeed(1, 1, 42));
    const b = seededRandom(mixSeed(1, 1, 42));
    const c = seededRandom(mixSeed(1, 1, 43));
    const first = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(first);
    expect(c.next()).not.toBe(first[0]);
  });
});

describe('member pool', () => {
  it('only picks people and companies that already exist when the company is generated', () => {
    const random = seededRandom(7);
    for (const companyId of [1, 2, 5, 17, 100, 4_321, 250_000, 1_000_000]) {
      for (let i = 0; i < 200; i++) {
        const person = pool.pick(companyId, 'DE', random);
        expect(person).toBeGreaterThanOrEqual(1);
        expect(person).toBeLessThanOrEqual(personPoolSize(companyId));
        const owner = pool.pickCorporate(companyId, random);
        if (owner !== null) {
          expect(owner).toBeLessThan(companyId);
          expect(isCorporateMember(owner)).toBe(true);
        }
      }
    }
  });

  it('mostly picks people of the company’s own country', () => {
    const random = seededRandom(3);
    let same = 0;
    for (let i = 0; i < 1000; i++) if (pool.countryOf(pool.pick(50_000, 'FR', random)) === 'FR') same++;
    expect(same).toBeGreaterThan(800);
  });
});

describe('makeCompany', () => {
  it('is deterministic per (seed, id) and differs between seeds', () => {
    expect(makeCompany(catalog, pool, 1, 123)).toEqual(makeCompany(catalog, pool, 1, 123));
    expect(makeCompany(catalog, pool, 2, 123).name).not.toBe(makeCompany(catalog, pool, 1, 123).name);
    expect(makePerson(catalog, pool, 1, 55)).toEqual(makePerson(catalog, pool, 1, 55));
  });

  it('writes a company in Germany with a German legal form, of the kind its name says', () => {
    // kinds: 2 limited liability company, 3 partnership, 4 sole proprietorship, 5 non-profit, 6 cooperative, 8 public company.
    const KIND_OF_FORM: Record<string, number[]> = {
      GmbH: [2, 8],
      'UG (haftungsbeschränkt)': [2],
      AG: [8],
      SE: [8],
      KGaA: [8],
      KG: [3],
      'GmbH & Co. KG': [3],
      OHG: [3],
      eG: [6],
      'e.K.': [4],
      'e.V.': [5],
      Stiftung: [5],
      gGmbH: [5],
    };
    let german = 0;
    for (let id = 1; id <= 4000; id++) {
      const c = makeCompany(catalog, pool, 1, id);
      if (countryOfLocation.get(c.jurisdiction_id) !== 'DE') continue;
      german++;
      if (c.name.startsWith('Sparkasse')) continue;
      const split = splitLegalForm(c.name, 'DE');
      expect(split, c.name).not.toBeNull();
      expect(KIND_OF_FORM[split?.form ?? ''], c.name).toContain(c.kind_id);
      // Never a form of another country's that Germany does not have ("S.C.", "Fondation").
      expect(c.name).not.toMatch(/ (S\.C\.|Fondation|S\.A\.|Ltd\.?|Inc\.|LLC|B\.V\.)$/);
    }
    expect(german).toBeGreaterThan(100);
  });

  it('makes internally consistent companies with valid identifiers', () => {
    for (let id = 1; id <= 3000; id++) {
      const c: SeedCompany = makeCompany(catalog, pool, 9, id);
      const country = countryOfLocation.get(c.jurisdiction_id) ?? '';
      expect(c.search_name).toBe(normalizeName(c.name));
      expect(c.uri.endsWith(`-${id}`)).toBe(true);
      expect(c.statuses[0].status_id).toBe(c.status_id);
      expect(c.dates.find((d) => d.date_type_id === 1)?.date).toBe(c.registered_on);
      expect(c.registered_on >= '1900-01-01' && c.registered_on <= '2026-11-01').toBe(true);
      for (const d of c.dates) expect(d.date >= c.registered_on).toBe(true);
      expect(c.names.filter((n) => n.name_type_id === 1).map((n) => n.name)).toEqual([c.name]);
      expect(c.addresses.some((a) => a.address_type_id === 5)).toBe(true);
      expect(c.industries.filter((i) => i.is_primary).map((i) => i.industry_id)).toEqual([c.primary_industry_id]);
      for (const x of c.identifiers) {
        const kind = IDENTIFIER_KINDS[x.identifier_type_id];
        if (kind) expect([x.identifier, isValidIdentifier(country, kind, x.identifier)]).toEqual([x.identifier, true]);
        else expect(isValidLei(x.identifier)).toBe(true);
      }
      expect(c.specification.members_count).toBe(new Set(c.members.map((m) => m.member_id)).size);
      expect(c.members.length).toBeGreaterThanOrEqual(1);
      for (const m of c.members) {
        if (m.member_id % 2 === 1) expect((m.member_id + 1) / 2).toBeLessThanOrEqual(personPoolSize(id));
        else expect(m.member_id / 2).toBeLessThan(id);
      }
      expect(c.asMember?.id ?? null).toBe(isCorporateMember(id) ? companyMemberId(id) : null);
    }
  });

  it('spreads companies over many jurisdictions, names banks as banks, and mostly keeps them active', () => {
    const companies = Array.from({ length: 20_000 }, (_, i) => makeCompany(catalog, pool, 1, i + 1));
    expect(new Set(companies.map((c) => c.jurisdiction_id)).size).toBeGreaterThanOrEqual(35);
    const active = companies.filter((c) => c.status_id === 1).length / companies.length;
    expect(active).toBeGreaterThan(0.65);
    expect(active).toBeLessThan(0.75);
    const german = companies.filter((c) => c.jurisdiction_id === 276);
    const banks = german.filter((c) => c.search_name.split(' ').includes('bank'));
    expect(banks.length / german.length).toBeGreaterThan(0.015);
    const words = new Set(companies.flatMap((c) => c.search_name.split(' ')));
    expect(words.size).toBeGreaterThan(5000);
    expect(companies.some((c) => /[äöüéèæøå]/i.test(c.name))).toBe(true);
    const advanced = companies.filter((c) => c.members.length >= 10 || c.contacts.length >= 10).length;
    expect(advanced / companies.length).toBeGreaterThan(0.02);
  });
});

describe('generateBatch', () => {
  it('writes CSV lines with one field per COPY column', () => {
    const batch = generateBatch(catalog, pool, 1, 1, 300);
    expect(batch.rows.legal_entities).toBe(300);
    expect(batch.rows.members).toBe(personPoolSize(300) + 30); // persons plus companies ≡ 3 (mod 10)
    for (const table of COPY_TABLE_NAMES) {
      const lines = batchText(batch, table)
        .split('\n')
        .filter((l) => l.length > 0);
      expect(lines.length).toBe(batch.rows[table]);
      for (const line of lines) expect([table, csvFields(line).length]).toEqual([table, COPY_TABLES[table].length]);
    }
  });
});

describe('generateBatch in worker threads', () => {
  it('gives the same batches, in order, as generating them in place', async () => {
    const ranges: [number, number][] = [
      [1, 40],
      [41, 80],
      [81, 120],
    ];
    let k = 0;
    for await (const batch of batchesInWorker(source, 5, ranges, { workers: 2, ahead: 1 })) {
      const expected = generateBatch(catalog, pool, 5, ...ranges[k++]);
      for (const table of COPY_TABLE_NAMES)
        expect([table, batchText(batch, table)]).toEqual([table, batchText(expected, table)]);
    }
    expect(k).toBe(3);
  });
});

describe('check digits of records', () => {
  it('computes IMO and VIN check digits as the standards do', () => {
    expect(imoCheckDigit('907472')).toBe(9); // IMO 9074729
    expect(isValidImo('9074729')).toBe(true);
    expect(isValidImo('9074728')).toBe(false);
    expect(vinCheckDigit('1M8GDM9A_KP042788'.replace('_', '0'))).toBe('X'); // 1M8GDM9AXKP042788
    expect(isValidVin('1M8GDM9AXKP042788')).toBe(true);
    expect(isValidVin('1M8GDM9A1KP042788')).toBe(false);
  });
});

describe('makeRecords', () => {
  const SECTIONS = new Map(RECORD_SECTIONS.map((s) => [s.table, s]));
  const DATE = /^\d{4}-\d{2}-\d{2}$/;
  const companies = (seed: number, first: number, last: number): SeedCompany[] =>
    Array.from({ length: last - first + 1 }, (_, i) => makeCompany(catalog, pool, seed, first + i));

  it('is deterministic per (seed, company) and differs between seeds', () => {
    const company = makeCompany(catalog, pool, 1, 4321);
    expect(makeRecords(catalog, pool, 1, company)).toEqual(makeRecords(catalog, pool, 1, company));
    const other = makeRecords(catalog, pool, 2, makeCompany(catalog, pool, 2, 4321));
    expect(other).not.toEqual(makeRecords(catalog, pool, 1, company));
  });

  it('fills every declared field with a value of its type, and sort dates within the company’s lifetime', () => {
    const seen = new Map<string, Set<number>>();
    for (const company of companies(3, 1, 1500)) {
      const records = makeRecords(catalog, pool, 3, company);
      for (const r of records.records) {
        const section = SECTIONS.get(r.table);
        expect(section, r.table).toBeDefined();
        if (!section) continue;
        expect([r.table, Object.keys(r.values).sort()]).toEqual([r.table, section.fields.map((f) => f.key).sort()]);
        for (const field of section.fields) {
          const value = r.values[field.key];
          const where = `${r.table}.${fieldColumn(field)} = ${value}`;
          if (field.key === section.sortField) expect(value, where).not.toBeNull();
          if (value === null) continue;
          if (field.type === 'text' || field.type === 'code') expect(typeof value, where).toBe('string');
          else if (field.type === 'date') expect(DATE.test(String(value)), where).toBe(true);
          else if (field.type === 'amount') expect(Number.isFinite(value), where).toBe(true);
          else expect(Number.isInteger(value), where).toBe(true);
          if (field.type === 'enum') expect(value as number, where).toBeGreaterThanOrEqual(1);
          if (field.type === 'enum') expect(value as number, where).toBeLessThanOrEqual(field.values?.length ?? 0);
          if (field.type === 'location') expect(countryOfLocation.has(value as number), where).toBe(true);
          if (field.type === 'currency') expect(currencyIds.has(value as number), where).toBe(true);
          if (field.type === 'year') expect(value as number, where).toBeLessThanOrEqual(2027);
        }
        const sort = String(r.values[section.sortField]);
        const owner = r.legalEntityId === company.id ? company : makeCompany(catalog, pool, 3, r.legalEntityId);
        expect([r.table, sort >= owner.registered_on && sort <= '2026-11-01']).toEqual([r.table, true]);
        // ids: unique per table, numbered by the writing company
        const ids = seen.get(r.table) ?? new Set<number>();
        expect(ids.has(r.id)).toBe(false);
        ids.add(r.id);
        seen.set(r.table, ids);
        expect(Math.floor(r.id / RECORD_ID_SLOTS)).toBe(company.id);
        const n = r.id % RECORD_ID_SLOTS;
        if (r.legalEntityId !== company.id) {
          expect(r.legalEntityId).toBeLessThan(company.id);
          expect(n).toBeGreaterThanOrEqual(FOREIGN_SLOTS);
        } else if (r.table !== 'connections') expect(n).toBeLessThan(FOREIGN_SLOTS);
      }
    }
  });

  it('makes valid IMO numbers, MMSIs, VINs, IBANs and registration marks', () => {
    let checked = 0;
    for (const company of companies(1, 1, 6000)) {
      for (const r of makeRecords(catalog, pool, 1, company).records) {
        const v = r.values;
        if (r.table === 'vessels') {
          expect(isValidImo(String(v.imo_number)), String(v.imo_number)).toBe(true);
          expect(String(v.mmsi)).toMatch(/^[2-7]\d{8}$/);
          checked++;
        } else if (r.table === 'vehicles') {
          expect(isValidVin(String(v.vin)), String(v.vin)).toBe(true);
          checked++;
        } else if (r.table === 'bank_accounts' && v.iban !== null) {
          expect(isValidIban(String(v.iban)), String(v.iban)).toBe(true);
          expect(String(v.bic)).toMatch(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/);
          checked++;
        } else if (r.table === 'aircraft') {
          const country = countryOfLocation.get(v.registry as number);
          if (country === 'US') expect(String(v.registration_mark)).toMatch(/^N[1-9][0-9]{0,3}[A-HJ-NP-Z]{0,2}$/);
          if (country === 'DE') expect(String(v.registration_mark)).toMatch(/^D-[A-Z]{4}$/);
          if (country === 'GB') expect(String(v.registration_mark)).toMatch(/^G-[A-Z]{4}$/);
          if (v.engine_type === 4) expect(String(v.manufacturer)).toMatch(/Helicopters|Bell|Leonardo/);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes both sides of every merger or acquisition, named after each other', () => {
    let deals = 0;
    for (const company of companies(2, 1, 4000)) {
      const sides = makeRecords(catalog, pool, 2, company).records.filter(
        (r) => r.table === 'mergers_and_acquisitions',
      );
      for (const acquirer of sides.filter((r) => r.legalEntityId === company.id)) {
        const target = sides.find(
          (r) => r.legalEntityId !== company.id && r.values.deal_number === acquirer.values.deal_number,
        );
        expect(target).toBeDefined();
        if (!target) continue;
        const targetCompany = makeCompany(catalog, pool, 2, target.legalEntityId);
        expect([acquirer.values.role, target.values.role]).toEqual([1, 2]);
        expect(acquirer.values.participant_name).toBe(targetCompany.name);
        expect(target.values.participant_name).toBe(company.name);
        expect(target.company.jurisdiction_id).toBe(targetCompany.jurisdiction_id);
        expect(target.values.deal_date).toBe(acquirer.values.deal_date);
        deals++;
      }
    }
    expect(deals).toBeGreaterThan(50);
  });

  it('gives each financial statement its eight accounting lines, consistent with it', () => {
    let statements = 0;
    for (const company of companies(4, 1, 1500)) {
      const records: SeedRecords = makeRecords(catalog, pool, 4, company);
      for (const s of records.records.filter((r) => r.table === 'financial_statements')) {
        const lines = records.statementLines.filter((l) => l.statement_id === s.id);
        expect(lines.map((l) => l.name)).toEqual([...STATEMENT_LINES]);
        const amount = (name: string) => lines.find((l) => l.name === name)?.amount;
        expect(amount('Revenue')).toBe(s.values.revenue);
        expect(amount('Net profit')).toBe(s.values.profit);
        expect(amount('Gross profit')).toBe((amount('Revenue') ?? 0) - (amount('Cost of sales') ?? 0));
        expect(amount('Operating profit')).toBe((amount('Gross profit') ?? 0) - (amount('Operating expenses') ?? 0));
        expect(amount('Equity')).toBe(s.values.equity);
        statements++;
      }
    }
    expect(statements).toBeGreaterThan(300);
  });

  it('fills every record table of the test template (400 companies of seed 7), 11+ records per company on average', () => {
    const counts = new Map<string, number>();
    let total = 0;
    for (const company of companies(7, 1, 400)) {
      for (const r of makeRecords(catalog, pool, 7, company).records) {
        counts.set(r.table, (counts.get(r.table) ?? 0) + 1);
        total++;
      }
    }
    for (const section of RECORD_SECTIONS)
      expect([section.table, (counts.get(section.table) ?? 0) >= 20]).toEqual([section.table, true]);
    expect(total / 400).toBeGreaterThanOrEqual(11);
  });

  it('files each document of a company once (no title twice, e.g. two confirmation statements of one year)', () => {
    // langosh-paving-llc-10029 of the demo seed had its 2026 confirmation statement twice.
    let documents = 0;
    for (const company of [...companies(1, 10_001, 11_000), ...companies(7, 1, 400)]) {
      const titles = makeRecords(catalog, pool, company.id > 400 ? 1 : 7, company).documents.map((d) => d.title);
      documents += titles.length;
      expect([company.uri, titles.length]).toEqual([company.uri, new Set(titles).size]);
    }
    expect(documents).toBeGreaterThan(1_000);
  });

  it('gives a few companies long lists (the advanced profile) and most a few records', () => {
    const perCompany = companies(1, 10_001, 14_000).map((c) => {
      const byTable = new Map<string, number>();
      for (const r of makeRecords(catalog, pool, 1, c).records)
        if (r.table !== 'connections' && r.table !== 'financial_statements')
          byTable.set(r.table, (byTable.get(r.table) ?? 0) + 1);
      return Math.max(0, ...byTable.values());
    });
    const long = perCompany.filter((n) => n >= 10).length / perCompany.length;
    expect(long).toBeGreaterThan(0.02);
    expect(long).toBeLessThan(0.08);
    expect(perCompany.filter((n) => n <= 3).length / perCompany.length).toBeGreaterThan(0.65);
  });
});
